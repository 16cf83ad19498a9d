import { EventEmitter } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { type Decision, type EgressPolicy, portOf } from './policy.js';

// The resolving forward proxy every browser context uses (playwright's per-context
// `proxy` option). Chromium sends it everything the context loads: CONNECT for https
// and wss, absolute-URI requests for plain http and ws upgrades. For each one the
// policy resolves the host and the proxy connects to the very address it checked.
//
// One listening port per context ("channel"): the port says which context a request
// came from, so a denial is reported on that context's session, and nothing needs
// proxy authentication (which would make Playwright intercept every request).

export const EGRESS_HEADER = 'x-ariadne-egress';

export interface Denial {
  time: number;
  host: string;
  port: number;
  reason: string;
  /** connect (https/wss tunnel), http (plain request), upgrade (plain ws), navigation (refused before it started). */
  kind: 'connect' | 'http' | 'upgrade' | 'navigation';
  url?: string;
  /** Denials of the same host:port folded into this one since the last event. */
  repeats?: number;
}

export interface ChannelEvents {
  denied: [Denial];
}

const HOP_BY_HOP = new Set([
  'connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade',
]);

const CONNECT_TIMEOUT_MS = 15_000;
/** Tunnels and upstream sockets idle this long are closed (nothing is kept open forever). */
const IDLE_TIMEOUT_MS = 5 * 60_000;
const DENIAL_LOG = 200;
/** At most one denied event per kind and host:port per this interval; the rest are counted. */
const EVENT_INTERVAL_MS = 1000;

function filterRaw(raw: string[], extraDrop: string[] = []): string[] {
  const drop = new Set([...HOP_BY_HOP, ...extraDrop]);
  // Also drop headers named by Connection.
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() === 'connection') for (const n of raw[i + 1].split(',')) drop.add(n.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) if (!drop.has(raw[i].toLowerCase())) out.push(raw[i], raw[i + 1]);
  return out;
}

function splitHostPort(authority: string): { host: string; port: number } | null {
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(authority.trim());
  if (!m) return null;
  const port = Number(m[2]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1], port };
}

export class EgressChannel extends EventEmitter<ChannelEvents> {
  readonly denials: Denial[] = [];
  private readonly lastEvent = new Map<string, { at: number; pending: number }>();
  private readonly sockets = new Set<Duplex>();
  private closed = false;

  constructor(readonly port: number, private readonly server: http.Server) {
    super();
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The latest denial of host:port (or of this URL) within the last ms. */
  recentDenial(host: string, port: number, withinMs = 30_000): Denial | undefined {
    const h = host.replace(/^\[|\]$/g, '').toLowerCase();
    for (let i = this.denials.length - 1; i >= 0; i--) {
      const d = this.denials[i];
      if (Date.now() - d.time > withinMs) return undefined;
      if (d.port === port && d.host.replace(/^\[|\]$/g, '') === h) return d;
    }
    return undefined;
  }

  /** @internal */
  track(s: Duplex): void {
    if (this.closed) return void s.destroy();
    this.sockets.add(s);
    s.once('close', () => this.sockets.delete(s));
  }

  /** Denials recorded at or after `since` (newest last). */
  denialsSince(since: number): Denial[] {
    const out: Denial[] = [];
    for (let i = this.denials.length - 1; i >= 0 && this.denials[i].time >= since; i--) out.unshift(this.denials[i]);
    return out;
  }

  record(d: Denial): void {
    this.denials.push(d);
    if (this.denials.length > DENIAL_LOG) this.denials.shift();
    const key = `${d.kind} ${d.host}:${d.port}`;
    const last = this.lastEvent.get(key);
    if (last && d.time - last.at < EVENT_INTERVAL_MS) {
      last.pending++;
      return;
    }
    this.lastEvent.set(key, { at: d.time, pending: 0 });
    if (this.lastEvent.size > 500) this.lastEvent.delete(this.lastEvent.keys().next().value!);
    this.emit('denied', { ...d, ...(last?.pending ? { repeats: last.pending } : {}) });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.sockets) s.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server.close(() => r()));
    this.removeAllListeners();
  }
}

export interface EgressProxyOptions {
  connectTimeoutMs?: number;
  logger?: { warn(o: object, m?: string): void };
}

export class EgressProxy {
  private readonly channels = new Set<EgressChannel>();
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: IDLE_TIMEOUT_MS });

  constructor(readonly policy: EgressPolicy, private readonly opts: EgressProxyOptions = {}) {}

  /** Every port a channel listens on (denied to the browsers themselves). */
  ports(): number[] {
    return [...this.channels].map((c) => c.port);
  }

  /** Open a channel (one per browser context). */
  async open(): Promise<EgressChannel> {
    const server = http.createServer();
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const channel = new EgressChannel((server.address() as net.AddressInfo).port, server);
    this.channels.add(channel);
    server.on('close', () => this.channels.delete(channel));
    server.on('connection', (s) => channel.track(s));
    server.on('request', (req, res) => void this.onRequest(channel, req, res));
    server.on('connect', (req, socket, head) => void this.onConnect(channel, req, socket, head));
    server.on('upgrade', (req, socket, head) => void this.onUpgrade(channel, req, socket, head));
    server.on('clientError', (_err, socket) => socket.destroy());
    return channel;
  }

  async close(): Promise<void> {
    await Promise.all([...this.channels].map((c) => c.close()));
    this.agent.destroy();
  }

  private deny(channel: EgressChannel, d: Decision, kind: Denial['kind'], url?: string): Denial {
    const denial: Denial = { time: Date.now(), host: d.host, port: d.port, reason: d.reason ?? 'denied', kind, ...(url ? { url } : {}) };
    channel.record(denial);
    return denial;
  }

  private async onRequest(channel: EgressChannel, req: IncomingMessage, res: ServerResponse): Promise<void> {
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:') throw new Error('scheme');
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain', [EGRESS_HEADER]: 'error' });
      return void res.end('This is an egress proxy: it only forwards absolute http:// URIs.');
    }
    const port = portOf(target);
    const d = await this.policy.decide(target.hostname, port);
    if (!d.allowed) {
      const denial = this.deny(channel, d, 'http', target.href);
      const body = `Blocked by the egress policy: ${d.host}:${port} (${denial.reason}).`;
      res.writeHead(403, {
        'content-type': 'text/plain; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'cache-control': 'no-store',
        [EGRESS_HEADER]: `denied; reason=${denial.reason}`,
      });
      return void res.end(body);
    }
    const headers = filterRaw(req.rawHeaders);
    const up = http.request({
      host: d.address,
      family: d.family,
      port,
      method: req.method,
      path: `${target.pathname}${target.search}`,
      headers: headers as never,
      agent: this.agent,
      timeout: this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
    });
    up.on('timeout', () => up.destroy(new Error('upstream timeout')));
    up.on('response', (ur) => {
      up.setTimeout(IDLE_TIMEOUT_MS);
      res.writeHead(ur.statusCode ?? 502, ur.statusMessage, filterRaw(ur.rawHeaders) as never);
      ur.pipe(res);
    });
    up.on('error', (err) => {
      if (res.headersSent) return void res.destroy();
      const cause = (err as NodeJS.ErrnoException).code ?? err.message;
      res.writeHead(502, { 'content-type': 'text/plain', [EGRESS_HEADER]: `error; host=${d.host}:${port}; cause=${cause}` });
      res.end(`Could not reach ${d.host}:${port}: ${cause}`);
    });
    req.pipe(up);
    res.on('close', () => { if (!up.writableFinished || !res.writableFinished) up.destroy(); });
  }

  private async onConnect(channel: EgressChannel, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    channel.track(socket);
    socket.on('error', () => {});
    const hp = splitHostPort(req.url ?? '');
    if (!hp) return void socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    const d = await this.policy.decide(hp.host, hp.port);
    if (!d.allowed) {
      const denial = this.deny(channel, d, 'connect');
      return void socket.end(`HTTP/1.1 403 Forbidden\r\n${EGRESS_HEADER}: denied; reason=${denial.reason}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    }
    const up = this.dial(channel, d, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    }, () => socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'));
    socket.on('close', () => up.destroy());
  }

  private async onUpgrade(channel: EgressChannel, req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    channel.track(socket);
    socket.on('error', () => {});
    let target: URL;
    try {
      target = new URL(req.url ?? '');
      if (target.protocol !== 'http:' && target.protocol !== 'ws:') throw new Error('scheme');
    } catch {
      return void socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    }
    const port = portOf(target);
    const d = await this.policy.decide(target.hostname, port);
    if (!d.allowed) {
      const denial = this.deny(channel, d, 'upgrade', target.href);
      return void socket.end(`HTTP/1.1 403 Forbidden\r\n${EGRESS_HEADER}: denied; reason=${denial.reason}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
    }
    // Forward the upgrade request as an origin-form request, then splice the sockets.
    const raw = req.rawHeaders;
    const lines = [`${req.method} ${target.pathname}${target.search} HTTP/1.1`];
    for (let i = 0; i < raw.length; i += 2) if (!/^proxy-/i.test(raw[i])) lines.push(`${raw[i]}: ${raw[i + 1]}`);
    const up = this.dial(channel, d, () => {
      up.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    }, () => socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n'));
    socket.on('close', () => up.destroy());
  }

  /** Connect to the checked address (never re-resolve the name). */
  private dial(channel: EgressChannel, d: Decision, onConnect: () => void, onFail: () => void): Socket {
    const up = net.connect({ host: d.address!, port: d.port, family: d.family });
    channel.track(up);
    let connected = false;
    up.setTimeout(this.opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, () => {
      if (!connected) up.destroy(new Error('connect timeout'));
      else up.destroy();
    });
    up.once('connect', () => {
      connected = true;
      up.setTimeout(IDLE_TIMEOUT_MS);
      onConnect();
    });
    up.on('error', () => { if (!connected) onFail(); });
    return up;
  }
}
