import { isIP } from 'node:net';

// IP addresses as numbers, CIDR ranges, and the one normalization that matters for
// egress: an IPv6 address that only wraps an IPv4 one (::ffff:a.b.c.d, ::a.b.c.d,
// NAT64 64:ff9b::/96, 6to4 2002:AABB:CCDD::/48) is judged as that IPv4 address, so
// [::ffff:127.0.0.1] is loopback like 127.0.0.1.

export interface Addr {
  family: 4 | 6;
  value: bigint;
}

export interface Cidr {
  family: 4 | 6;
  base: bigint;
  bits: number;
  text: string;
}

function parseV4(s: string): bigint | null {
  const parts = s.split('.');
  if (parts.length !== 4) return null;
  let v = 0n;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return null;
    const n = Number(p);
    if (n > 255) return null;
    v = (v << 8n) | BigInt(n);
  }
  return v;
}

function parseV6(s: string): bigint | null {
  let text = s.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // A trailing dotted IPv4 part becomes two groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const v4 = parseV4(tail);
    if (v4 === null) return null;
    text = `${text.slice(0, lastColon + 1)}${((v4 >> 16n) & 0xffffn).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const rest = halves.length === 2 ? (halves[1] ? halves[1].split(':') : []) : [];
  const missing = 8 - head.length - rest.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill('0'), ...rest];
  let v = 0n;
  for (const g of groups) {
    if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
    v = (v << 16n) | BigInt(parseInt(g, 16));
  }
  return v;
}

/** Parse a literal IPv4/IPv6 address (no brackets); null when it is not one. */
export function parseAddr(s: string): Addr | null {
  const t = s.trim().replace(/^\[|\]$/g, '');
  const kind = isIP(t.split('%')[0]);
  if (kind === 4) {
    const v = parseV4(t);
    return v === null ? null : { family: 4, value: v };
  }
  if (kind === 6) {
    const v = parseV6(t);
    return v === null ? null : { family: 6, value: v };
  }
  return null;
}

/** The IPv4 address an IPv6 address stands for, if it is only a wrapper around one. */
export function unwrapV4(a: Addr): Addr {
  if (a.family !== 6) return a;
  const v = a.value;
  const low32 = v & 0xffffffffn;
  // ::ffff:a.b.c.d (IPv4-mapped) and ::a.b.c.d (IPv4-compatible, deprecated; not :: or ::1).
  if (v >> 32n === 0xffffn || (v >> 32n === 0n && low32 > 1n)) return { family: 4, value: low32 };
  // NAT64 well-known prefix 64:ff9b::/96.
  if (v >> 32n === 0x0064ff9b0000000000000000n) return { family: 4, value: low32 };
  // 6to4: 2002:AABB:CCDD::/48 carries AA.BB.CC.DD.
  if (v >> 112n === 0x2002n) return { family: 4, value: (v >> 80n) & 0xffffffffn };
  return a;
}

export function formatAddr(a: Addr): string {
  if (a.family === 4) {
    const v = Number(a.value);
    return [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');
  }
  const groups: string[] = [];
  for (let i = 7; i >= 0; i--) groups.push(((a.value >> BigInt(i * 16)) & 0xffffn).toString(16));
  return groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::').replace(/:::+/, '::');
}

/** Parse "10.0.0.0/8", "fd00::/8" or a single address (a /32 or /128). */
export function parseCidr(s: string): Cidr | null {
  const t = s.trim();
  const slash = t.lastIndexOf('/');
  const addrText = slash >= 0 ? t.slice(0, slash) : t;
  const a = parseAddr(addrText);
  if (!a) return null;
  const max = a.family === 4 ? 32 : 128;
  let bits = max;
  if (slash >= 0) {
    const b = t.slice(slash + 1);
    if (!/^\d{1,3}$/.test(b) || Number(b) > max) return null;
    bits = Number(b);
  }
  const mask = bits === 0 ? 0n : ((1n << BigInt(bits)) - 1n) << BigInt(max - bits);
  return { family: a.family, base: a.value & mask, bits, text: t };
}

export function inCidr(a: Addr, c: Cidr): boolean {
  if (a.family !== c.family) return false;
  const max = c.family === 4 ? 32 : 128;
  const shift = BigInt(max - c.bits);
  return a.value >> shift === c.base >> shift;
}
