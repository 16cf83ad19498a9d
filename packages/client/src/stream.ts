import WebSocket from 'ws';
import { AriadneError, type ErrorCode } from './index.js';

// A session's WebSocket stream: page operations as messages, numbered live events, and a
// reconnect that resumes with ?since=<last seq seen>, so no event is lost or repeated
// across a dropped connection (the server replays what it kept; `resume_gap` says when
// it no longer had some). Closes that mean the session is over are not retried.

export interface StreamEvent {
  seq: number;
  event: string;
  time: string;
  role?: string;
  page?: string;
  data: Record<string, unknown>;
}

export interface StreamOptions {
  /** Resume after this sequence number (default: live events only). */
  since?: number;
  /** Reconnect after an unexpected drop (default true). */
  reconnect?: boolean;
  maxReconnects?: number;
  /** Backoff base in ms (doubles per attempt, capped at 5 s). */
  backoffMs?: number;
  /** A listener attached before connecting, so it also gets the events replayed right after hello. */
  onEvent?: (e: StreamEvent) => void;
}

/** Close codes after which reconnecting cannot help. */
const FINAL = new Set([1000, 4401, 4404, 4408, 4410, 4500, 4503]);

type Listener = (e: StreamEvent) => void;

export class SessionStream {
  /** The highest event seq received (resume point). */
  lastSeq: number;
  reconnects = 0;
  closedWith: { code: number; reason: string } | null = null;
  private ws: WebSocket | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners = new Set<Listener>();
  private readonly closeListeners = new Set<(c: { code: number; reason: string }) => void>();
  private stopped = false;
  private opening: Promise<void> | null = null;

  constructor(
    private readonly url: string,
    private readonly headers: Record<string, string>,
    private readonly opts: StreamOptions = {},
  ) {
    this.lastSeq = opts.since ?? -1;
    if (opts.onEvent) this.listeners.add(opts.onEvent);
  }

  /** Open the connection; resolves once the server's hello arrived. */
  connect(): Promise<void> {
    this.opening ??= this.open().finally(() => {
      this.opening = null;
    });
    return this.opening;
  }

  /** The raw socket (tests drop it to exercise the reconnect). */
  get socket(): WebSocket | null {
    return this.ws;
  }

  onEvent(fn: Listener): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  onClose(fn: (c: { code: number; reason: string }) => void): () => void {
    this.closeListeners.add(fn);
    return () => this.closeListeners.delete(fn);
  }

  /** Run a page operation (an operationId of openapi.yaml, or a control op) on the stream. */
  async request<T = unknown>(op: string, params: Record<string, unknown> = {}, target: { role?: string; page?: string } = {}): Promise<T> {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) await this.connect();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.ws!.send(JSON.stringify({ id, op, ...target, params }));
    });
  }

  /** Wait for the next event matching `pred` (or time out). */
  waitFor(pred: (e: StreamEvent) => boolean, timeoutMs = 10_000): Promise<StreamEvent> {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        off();
        reject(new AriadneError(0, 'timeout', 'No matching stream event in time.'));
      }, timeoutMs);
      const off = this.onEvent((e) => {
        if (!pred(e)) return;
        clearTimeout(t);
        off();
        resolve(e);
      });
    });
  }

  close(): void {
    this.stopped = true;
    this.ws?.close(1000);
  }

  private open(): Promise<void> {
    const since = this.lastSeq >= 0 ? `?since=${this.lastSeq}` : '';
    const ws = new WebSocket(this.url + since, { headers: this.headers });
    this.ws = ws;
    return new Promise<void>((resolve, reject) => {
      let hello = false;
      ws.on('message', (raw) => {
        let msg: any;
        try {
          msg = JSON.parse(String(raw));
        } catch {
          return;
        }
        if (msg.event === 'hello') {
          hello = true;
          if (this.lastSeq < 0) this.lastSeq = msg.lastSeq;
          resolve();
          return;
        }
        if (msg.id !== undefined && ('result' in msg || 'error' in msg)) {
          const p = this.pending.get(msg.id);
          if (!p) return;
          this.pending.delete(msg.id);
          if (msg.error) p.reject(new AriadneError(0, msg.error.code as ErrorCode, msg.error.message, msg.error.details ?? {}));
          else p.resolve(msg.result);
          return;
        }
        if (typeof msg.seq === 'number') {
          if (msg.seq <= this.lastSeq) return; // already seen (replay overlap)
          this.lastSeq = msg.seq;
          for (const fn of this.listeners) fn(msg as StreamEvent);
        } else if (msg.event) {
          for (const fn of this.listeners) fn({ seq: this.lastSeq, time: new Date().toISOString(), data: {}, ...msg });
        }
      });
      ws.on('error', (err) => {
        if (!hello) reject(new AriadneError(0, 'network_error', `Stream: ${err.message}`));
      });
      ws.on('close', (code, reasonBuf) => {
        const reason = reasonBuf.toString();
        for (const [, p] of this.pending) p.reject(new AriadneError(0, 'network_error', `Stream closed (${code} ${reason}) before the answer.`));
        this.pending.clear();
        if (!hello) reject(new AriadneError(0, 'network_error', `Stream closed before hello (${code} ${reason}).`, { closeCode: code, reason }));
        if (this.ws !== ws) return;
        const final = this.stopped || FINAL.has(code) || this.opts.reconnect === false;
        if (final || this.reconnects >= (this.opts.maxReconnects ?? 10)) {
          this.closedWith = { code, reason };
          for (const fn of this.closeListeners) fn({ code, reason });
          return;
        }
        this.reconnects++;
        const delay = Math.min((this.opts.backoffMs ?? 100) * 2 ** (this.reconnects - 1), 5000);
        setTimeout(() => {
          // Not if the caller reconnected meanwhile (a newer socket exists).
          if (!this.stopped && this.ws === ws) this.connect().catch(() => undefined);
        }, delay).unref?.();
      });
    });
  }
}
