import { lookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import { type Addr, type Cidr, formatAddr, inCidr, parseAddr, parseCidr, unwrapV4 } from './ip.js';

// The egress policy: may the service (its browsers, callbacks, model clients) open a
// connection to host:port for a tenant? Decided on the RESOLVED address, never on the
// spelling of the host: a name is resolved here, every address it resolves to must be
// allowed, and the caller connects to the address that was checked (so a DNS answer
// that changes between the check and the connection cannot slip through).
//
// Order: the service's own ports on a local address -> always denied; EGRESS_DENY
// (CIDRs, host patterns) -> denied; EGRESS_ALLOW (CIDRs, host patterns) -> allowed;
// then the defaults of the mode. Strict mode (API keys set) denies loopback,
// link-local, metadata, unspecified, private (RFC 1918, CGNAT, ULA), multicast and
// reserved ranges. Open mode (local, no keys) denies cloud metadata only.

export type EgressMode = 'strict' | 'open';

interface Range { cidr: Cidr; category: string }

const r = (category: string, ...cidrs: string[]): Range[] => cidrs.map((c) => ({ cidr: parseCidr(c)!, category }));

const METADATA_RANGES = r('metadata', '169.254.169.254/32', '169.254.170.2/32', 'fd00:ec2::254/128', '100.100.100.200/32');
export const METADATA_HOSTS = ['metadata.google.internal', 'metadata.goog', 'metadata'];

const STRICT_RANGES: Range[] = [
  ...METADATA_RANGES,
  ...r('loopback', '127.0.0.0/8', '::1/128'),
  ...r('unspecified', '0.0.0.0/8', '::/128'),
  ...r('link-local', '169.254.0.0/16', 'fe80::/10'),
  ...r('private', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7', 'fec0::/10'),
  ...r('multicast', '224.0.0.0/4', 'ff00::/8'),
  ...r('reserved', '240.0.0.0/4', '192.0.0.0/24', '198.18.0.0/15'),
];
const LOCAL_RANGES = r('local', '127.0.0.0/8', '::1/128', '0.0.0.0/8', '::/128');

export interface Decision {
  allowed: boolean;
  host: string;
  port: number;
  /** The addresses the host resolved to (the literal itself for an IP). */
  addresses: string[];
  /** Where to connect: an address that was checked. Set when allowed. */
  address?: string;
  family?: 4 | 6;
  /** Why it was denied: "loopback", "private", "metadata", "service_port", "EGRESS_DENY 10.0.0.0/8", "dns: ...". */
  reason?: string;
}

export interface PolicyOptions {
  mode: EgressMode;
  deny?: string[];
  allow?: string[];
  /** Ports this service listens on (HTTP, embedded Redis, its egress proxy): denied on every local address. */
  ownPorts?: () => Iterable<number>;
  /** For tests: resolve names this way instead of the system resolver. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
  dnsTimeoutMs?: number;
}

interface Rules { cidrs: Cidr[]; hosts: string[] }

/** Split "10.0.0.0/8, *.internal, localhost" into CIDRs and host patterns; bad entries are returned. */
export function parseRules(entries: string[]): { rules: Rules; problems: string[] } {
  const rules: Rules = { cidrs: [], hosts: [] };
  const problems: string[] = [];
  for (const raw of entries.map((e) => e.trim()).filter(Boolean)) {
    const cidr = parseCidr(raw);
    if (cidr) {
      rules.cidrs.push(cidr);
      continue;
    }
    if (raw.includes('/') || /^[\d.]+$/.test(raw)) {
      problems.push(`"${raw}" is not a valid CIDR`);
      continue;
    }
    const host = raw.toLowerCase().replace(/\.$/, '');
    if (!/^(\*\.|\.)?[a-z0-9_-]+(\.[a-z0-9_-]+)*$/.test(host)) {
      problems.push(`"${raw}" is neither a CIDR nor a host pattern (host, *.domain)`);
      continue;
    }
    rules.hosts.push(host.startsWith('.') ? `*${host}` : host);
  }
  return { rules, problems };
}

export function splitList(v: string | undefined): string[] {
  return (v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

function hostMatches(host: string, pattern: string): boolean {
  if (pattern.startsWith('*.')) return host.endsWith(pattern.slice(1));
  return host === pattern;
}

/** Canonical host: lower case, no brackets, no trailing dot; 127.1 / 2130706433 / 0x7f000001 become 127.0.0.1. */
export function normalizeHost(host: string): string | null {
  let h = host.trim().toLowerCase();
  if (!h) return null;
  if (h.includes(':') && !h.startsWith('[')) h = `[${h}]`;
  try {
    // The WHATWG parser is what Chromium uses: it turns every IPv4 spelling into dotted quads.
    h = new URL(`http://${h}/`).hostname;
  } catch {
    return null;
  }
  h = h.replace(/^\[|\]$/g, '').replace(/\.$/, '');
  return h || null;
}

let ifaceCache: { at: number; addrs: Addr[] } | null = null;
function localInterfaceAddrs(): Addr[] {
  if (ifaceCache && Date.now() - ifaceCache.at < 10_000) return ifaceCache.addrs;
  const addrs: Addr[] = [];
  for (const list of Object.values(networkInterfaces())) {
    for (const i of list ?? []) {
      const a = parseAddr(i.address);
      if (a) addrs.push(unwrapV4(a));
    }
  }
  ifaceCache = { at: Date.now(), addrs };
  return addrs;
}

export class EgressPolicy {
  readonly mode: EgressMode;
  private readonly deny: Rules;
  private readonly allow: Rules;

  constructor(private readonly opts: PolicyOptions) {
    this.mode = opts.mode;
    const d = parseRules(opts.deny ?? []);
    const a = parseRules(opts.allow ?? []);
    const problems = [...d.problems.map((p) => `EGRESS_DENY: ${p}`), ...a.problems.map((p) => `EGRESS_ALLOW: ${p}`)];
    if (problems.length) throw new Error(problems.join('; '));
    this.deny = d.rules;
    this.allow = a.rules;
  }

  describe(): { mode: EgressMode; deny: string[]; allow: string[] } {
    return {
      mode: this.mode,
      deny: [...this.deny.cidrs.map((c) => c.text), ...this.deny.hosts],
      allow: [...this.allow.cidrs.map((c) => c.text), ...this.allow.hosts],
    };
  }

  /** Judge one resolved address. hostAllowed: the name matched an EGRESS_ALLOW pattern. */
  checkAddress(address: string, port: number, hostAllowed = false): { allowed: boolean; reason?: string } {
    const parsed = parseAddr(address);
    if (!parsed) return { allowed: false, reason: 'not an IP address' };
    const a = unwrapV4(parsed);
    const own = new Set(this.opts.ownPorts?.() ?? []);
    if (own.has(port) && (LOCAL_RANGES.some((x) => inCidr(a, x.cidr)) || localInterfaceAddrs().some((l) => l.family === a.family && l.value === a.value))) {
      return { allowed: false, reason: 'service_port' };
    }
    const denied = this.deny.cidrs.find((c) => inCidr(a, c) || inCidr(parsed, c));
    if (denied) return { allowed: false, reason: `EGRESS_DENY ${denied.text}` };
    if (hostAllowed || this.allow.cidrs.some((c) => inCidr(a, c) || inCidr(parsed, c))) return { allowed: true };
    const ranges = this.mode === 'strict' ? STRICT_RANGES : METADATA_RANGES;
    const hit = ranges.find((x) => inCidr(a, x.cidr));
    if (hit) return { allowed: false, reason: hit.category };
    return { allowed: true };
  }

  /** Resolve host and decide. Never throws: an unresolvable host is denied with the reason. */
  async decide(rawHost: string, port: number): Promise<Decision> {
    const host = normalizeHost(rawHost);
    const base = { host: host ?? rawHost, port, addresses: [] as string[] };
    if (!host) return { ...base, allowed: false, reason: 'invalid host' };
    const literal = parseAddr(host);
    let hostAllowed = false;
    if (!literal) {
      const deniedName = this.deny.hosts.find((p) => hostMatches(host, p));
      if (deniedName) return { ...base, allowed: false, reason: `EGRESS_DENY ${deniedName}` };
      hostAllowed = this.allow.hosts.some((p) => hostMatches(host, p));
      if (!hostAllowed && METADATA_HOSTS.includes(host)) return { ...base, allowed: false, reason: 'metadata' };
    }
    let resolved: { address: string; family: number }[];
    if (literal) resolved = [{ address: formatAddr(literal), family: literal.family }];
    else {
      try {
        resolved = await this.resolve(host);
      } catch (err) {
        return { ...base, allowed: false, reason: `dns: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}` };
      }
      if (!resolved.length) return { ...base, allowed: false, reason: 'dns: no address' };
    }
    const addresses = resolved.map((x) => x.address);
    // Every address must pass: a name that also resolves to an internal address is refused.
    for (const x of resolved) {
      const verdict = this.checkAddress(x.address, port, hostAllowed);
      if (!verdict.allowed) return { ...base, addresses, allowed: false, reason: verdict.reason };
    }
    return { ...base, addresses, allowed: true, address: resolved[0].address, family: resolved[0].family === 6 ? 6 : 4 };
  }

  private resolve(host: string): Promise<{ address: string; family: number }[]> {
    const run = this.opts.resolve ? this.opts.resolve(host) : lookup(host, { all: true, verbatim: true });
    const ms = this.opts.dnsTimeoutMs ?? 5000;
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(Object.assign(new Error('timeout'), { code: 'ETIMEOUT' })), ms);
      run.then((v) => { clearTimeout(t); resolve(v); }, (e) => { clearTimeout(t); reject(e); });
    });
  }
}

/** Default port of a URL's scheme. */
export function portOf(url: URL): number {
  if (url.port) return Number(url.port);
  return url.protocol === 'https:' || url.protocol === 'wss:' ? 443 : 80;
}
