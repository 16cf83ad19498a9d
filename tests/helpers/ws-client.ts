import WebSocket from 'ws';

// A small test client for GET /v1/sessions/:id/stream: send commands and await their
// replies by id, collect pushed events, wait for a close with its code.

export class StreamClient {
  readonly messages: any[] = [];
  private nextId = 1;
  private readonly waiters: { test: (m: any) => boolean; resolve: (m: any) => void }[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly opened: Promise<void>;

  constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      this.messages.push(msg);
      for (const w of [...this.waiters]) {
        if (w.test(msg)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(msg);
        }
      }
    });
    this.opened = new Promise((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    this.closed = new Promise((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  }

  static connect(baseUrl: string, sessionId: string, opts: { token?: string; since?: number; headers?: Record<string, string> } = {}): StreamClient {
    const url = new URL(`/v1/sessions/${sessionId}/stream`, baseUrl.replace(/^http/, 'ws'));
    if (opts.since !== undefined) url.searchParams.set('since', String(opts.since));
    if (opts.token) url.searchParams.set('token', opts.token);
    return new StreamClient(new WebSocket(url, { headers: opts.headers }));
  }

  /** Wait for the first message (already received or future) that matches. */
  waitFor(test: (m: any) => boolean, timeoutMs = 10_000): Promise<any> {
    const seen = this.messages.find(test);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a message; got ${JSON.stringify(this.messages.slice(-5)).slice(0, 1500)}`)), timeoutMs);
      this.waiters.push({ test, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
  }

  /** Wait for a message that arrives after now (ignores ones already received). */
  next(test: (m: any) => boolean, timeoutMs = 10_000): Promise<any> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for the next message')), timeoutMs);
      this.waiters.push({ test, resolve: (m) => { clearTimeout(timer); resolve(m); } });
    });
  }

  send(raw: string | Buffer): void {
    this.ws.send(raw);
  }

  /** Send a command; resolves with the reply { id, result } or { id, error }. */
  call(op: string, params?: unknown, extra: Record<string, unknown> = {}): Promise<any> {
    const id = this.nextId++;
    const reply = this.next((m) => m.id === id, 30_000);
    this.ws.send(JSON.stringify({ id, op, ...(params !== undefined ? { params } : {}), ...extra }));
    return reply;
  }

  events(type?: string): any[] {
    return this.messages.filter((m) => m.seq !== undefined && (!type || m.event === type));
  }

  close(): void {
    this.ws.close();
  }
}
