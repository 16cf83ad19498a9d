import type { WebSocket, RawData } from 'ws';
import type { FastifyBaseLogger } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { AppError, isAppError } from '@ariadne/schema';
import type { LiveSession } from '@ariadne/pool';
import type { ServerDeps } from '../deps.js';
import { ALL_OPS, isBinary, type PageOp } from '../ops/index.js';
import { runOp } from '../routes/page-ops.js';
import { CLOSE, closeForEnd, type CloseKey } from './close-codes.js';
import { EVENT_TYPES, type EventHub, type EventType, type StreamEvent } from './event-hub.js';
import type { ScreencastRegistry } from './screencast-registry.js';
import type { Watcher } from './screencast.js';
import { publicError } from '../security/internal-errors.js';
import { commandIdOf } from '../security/stream-guard.js';

// One WebSocket client of one session: commands in ({ id, op, role?, page?, params }),
// results and errors out ({ id, result } / { id, error }), events pushed as they
// happen. A bad message gets an error reply and the connection stays usable.

export interface StreamOptions {
  pingIntervalMs: number;
  maxMessageBytes: number;
  /** Messages per second a client may send (burst = 2x). */
  messagesPerSecond: number;
  /** Frames and events are dropped (counted) for a client whose socket has more than this buffered. */
  maxBufferedBytes: number;
  /** WebSockets open at once on one session (checked before the upgrade, routes/stream.ts). */
  maxPerSession?: number;
  /** A client whose send queue stays over maxBufferedBytes this long (or reaches 4x) is closed 4008 slow_consumer. */
  slowConsumerMs: number;
  /** Floodable events per session per second (the event hub's rate). */
  eventsPerSecond: number;
}

const ajv = new Ajv({ useDefaults: true, coerceTypes: false, allErrors: false, strict: false });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const validators = new Map<string, ValidateFunction>();

function validatorFor(op: PageOp): ValidateFunction {
  let v = validators.get(op.name);
  if (!v) {
    v = ajv.compile(op.body ?? op.query ?? { type: 'object' });
    validators.set(op.name, v);
  }
  return v;
}

const OPS = new Map(ALL_OPS.map((op) => [op.name, op]));
const CONTROL_OPS = ['subscribe', 'unsubscribe', 'ping', 'session', 'screencast.start', 'screencast.stop', 'screencast.stats'];
/** What a stream opened with a live-view token may do: watch (no action, no navigation, no script). */
const VIEW_OPS = new Set([...CONTROL_OPS, 'snapshot']);

/** full: opened with the API key; view: opened with a live-view token (security/view-tokens.ts). */
export type StreamAccess = 'full' | 'view';

const ERROR_CLOSE: Partial<Record<string, CloseKey>> = {
  session_not_found: 'session_not_found',
  session_expired: 'session_expired',
  session_closed: 'session_deleted',
  session_crashed: 'session_crashed',
  session_lost: 'session_lost',
  unauthorized: 'unauthorized',
};

export class StreamConnection {
  private subscriptions: Set<EventType> = new Set(EVENT_TYPES);
  private readonly watchers = new Map<string, { key: string; watcher: Watcher }>();
  private tokens: number;
  private lastRefill = Date.now();
  private rateErrorsThisSecond = 0;
  private rateWindow = 0;
  private alive = true;
  private pinger: NodeJS.Timeout | null = null;
  private closed = false;
  private held: LiveSession | null = null;
  /** Events left out for this client while its send queue was full, and since when it is full. */
  private dropped = { count: 0, fromSeq: 0, toSeq: 0 };
  private overSince = 0;
  private readonly onEvent = (sessionId: string, e: StreamEvent) => {
    if (sessionId === this.sessionId && this.subscriptions.has(e.event)) this.sendEvent(e);
  };
  private readonly onEnded = (sessionId: string, end: { status: string; reason: string }) => {
    if (sessionId !== this.sessionId) return;
    const c = closeForEnd(end.status, end.reason);
    // Let the session_closed event go out first.
    setImmediate(() => this.close(c.code, c.reason));
  };

  constructor(
    private readonly socket: WebSocket,
    private readonly deps: ServerDeps,
    private readonly hub: EventHub,
    private readonly screencasts: ScreencastRegistry,
    private readonly tenant: string,
    private readonly sessionId: string,
    private readonly opts: StreamOptions,
    private readonly log: FastifyBaseLogger,
    private readonly requestId?: string,
    private readonly access: StreamAccess = 'full',
  ) {
    this.tokens = opts.messagesPerSecond * 2;
  }

  async start(since: number | undefined): Promise<void> {
    if (!this.tenant) return this.close(CLOSE.unauthorized.code, CLOSE.unauthorized.reason);
    try {
      // An open stream keeps its session from idling out (released in cleanup()).
      this.held = await this.deps.sessions.use(this.tenant, this.sessionId);
      this.held.holds++;
    } catch (err) {
      const key = isAppError(err) ? ERROR_CLOSE[err.code] : undefined;
      if (key) return this.close(CLOSE[key].code, CLOSE[key].reason);
      return this.close(1011, 'internal_error');
    }
    this.socket.on('message', (data, isBinary) => void this.onMessage(data, isBinary));
    this.socket.on('close', () => this.cleanup());
    this.socket.on('pong', () => { this.alive = true; });
    this.socket.on('error', () => this.cleanup());

    const replay = since !== undefined ? this.hub.replay(this.sessionId, since) : null;
    this.send({ event: 'hello', sessionId: this.sessionId, lastSeq: this.hub.lastSeq(this.sessionId), eventTypes: EVENT_TYPES, ops: this.ops(), ...(this.access === 'view' ? { access: 'view' } : {}) });
    if (replay) {
      if (replay.gap) this.send({ event: 'resume_gap', ...replay.gap });
      for (const e of replay.events) if (this.subscriptions.has(e.event)) this.sendEvent(e);
    }
    this.hub.on('event', this.onEvent);
    this.hub.on('ended', this.onEnded);

    this.pinger = setInterval(() => {
      if (!this.checkBacklog()) return;
      if (!this.alive) return this.close(CLOSE.ping_timeout.code, CLOSE.ping_timeout.reason);
      this.alive = false;
      this.socket.ping();
    }, this.opts.pingIntervalMs);
    this.pinger.unref();
  }

  private send(msg: unknown): boolean {
    if (this.closed || this.socket.readyState !== this.socket.OPEN) return false;
    if (!this.checkBacklog()) return false;
    this.socket.send(JSON.stringify(msg));
    return true;
  }

  /**
   * The per-socket send queue is bounded: over maxBufferedBytes, events are left out (and
   * counted, then announced by a `dropped` message when the queue drains); a queue that
   * stays over the cap for slowConsumerMs, or reaches 4x the cap, closes the socket 4008.
   */
  private checkBacklog(): boolean {
    const buffered = this.socket.bufferedAmount;
    const max = this.opts.maxBufferedBytes;
    if (buffered <= max) {
      this.overSince = 0;
      return true;
    }
    const now = Date.now();
    if (!this.overSince) this.overSince = now;
    if (buffered > 4 * max || now - this.overSince > this.opts.slowConsumerMs) {
      this.log.warn({ sessionId: this.sessionId, buffered, dropped: this.dropped.count }, 'stream client too slow: closed');
      this.close(CLOSE.slow_consumer.code, CLOSE.slow_consumer.reason);
      return false;
    }
    return true;
  }

  private sendEvent(e: StreamEvent): void {
    if (this.closed) return;
    if (this.socket.bufferedAmount > this.opts.maxBufferedBytes) {
      if (!this.dropped.count) this.dropped.fromSeq = e.seq;
      this.dropped.count++;
      this.dropped.toSeq = e.seq;
      this.checkBacklog();
      return;
    }
    if (this.dropped.count) {
      // Say what this client missed (it can ask again with ?since=fromSeq-1 while the hub still has them).
      const { count, fromSeq, toSeq } = this.dropped;
      this.dropped = { count: 0, fromSeq: 0, toSeq: 0 };
      this.send({ event: 'dropped', data: { count, fromSeq, toSeq, reason: 'slow_consumer' } });
    }
    this.send(e);
  }

  private reply(id: unknown, result: unknown): void {
    this.send({ id, result });
  }

  private replyError(id: unknown, err: unknown): void {
    // Internal faults are logged and answered without their text (same as REST).
    if (!isAppError(err) || err.code === 'internal_error') this.log.error({ err: (err as { cause?: unknown }).cause ?? err }, 'stream command failed');
    const e = publicError(err, this.requestId);
    this.send({ id, error: { code: e.code, message: e.message, ...(e.details ? { details: e.details } : {}) } });
  }

  /** Token bucket: a flood is answered with rate_limited (itself capped), never by closing. */
  private admit(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.opts.messagesPerSecond * 2, this.tokens + ((now - this.lastRefill) / 1000) * this.opts.messagesPerSecond);
    this.lastRefill = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }

  private async onMessage(data: RawData, binary: boolean): Promise<void> {
    if (!this.admit()) {
      // Every command gets an answer: over the rate it is rate_limited, with its own id.
      // A message without an id (garbage) cannot be answered by id: those notices stay capped.
      const id = commandIdOf(data, binary, this.opts.maxMessageBytes);
      if (id === null) {
        const second = Math.floor(Date.now() / 1000);
        if (second !== this.rateWindow) { this.rateWindow = second; this.rateErrorsThisSecond = 0; }
        if (this.rateErrorsThisSecond++ >= 5) return;
      }
      this.replyError(id, new AppError('rate_limited', `Too many messages: at most ${this.opts.messagesPerSecond} per second; this command was not run.`, { retryAfterMs: Math.ceil(1000 / this.opts.messagesPerSecond) }));
      return;
    }
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : (data as Buffer).byteLength;
    if (size > this.opts.maxMessageBytes) {
      return this.replyError(null, new AppError('payload_too_large', `Message of ${size} bytes is over the ${this.opts.maxMessageBytes}-byte limit.`));
    }
    if (binary) return this.replyError(null, new AppError('invalid_request', 'Send JSON text messages.'));
    let msg: { id?: unknown; op?: unknown; role?: unknown; page?: unknown; params?: unknown };
    try {
      msg = JSON.parse(data.toString());
    } catch {
      return this.replyError(null, new AppError('invalid_request', 'Message is not valid JSON.'));
    }
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      return this.replyError(null, new AppError('invalid_request', 'A message is a JSON object { id, op, role?, page?, params? }.'));
    }
    const id = typeof msg.id === 'string' || typeof msg.id === 'number' ? msg.id : null;
    try {
      if (id === null) throw new AppError('invalid_request', 'Message needs an "id" (string or number).', { field: 'id' });
      if (typeof msg.op !== 'string') throw new AppError('invalid_request', 'Message needs an "op".', { field: 'op' });
      if (msg.role !== undefined && (typeof msg.role !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(msg.role))) {
        throw new AppError('invalid_request', '"role" must be a role name.', { field: 'role' });
      }
      if (msg.page !== undefined && typeof msg.page !== 'string') throw new AppError('invalid_request', '"page" must be a tab id.', { field: 'page' });
      const params = msg.params ?? {};
      if (typeof params !== 'object' || params === null || Array.isArray(params)) {
        throw new AppError('invalid_request', '"params" must be an object.', { field: 'params' });
      }
      const result = await this.dispatch(msg.op, (msg.role as string) ?? 'default', msg.page as string | undefined, params as Record<string, unknown>);
      this.reply(id, result);
    } catch (err) {
      this.replyError(id, err);
    }
  }

  private ops(): string[] {
    const all = [...CONTROL_OPS, ...OPS.keys()];
    return this.access === 'view' ? all.filter((o) => VIEW_OPS.has(o)) : all;
  }

  private async dispatch(op: string, role: string, page: string | undefined, params: Record<string, unknown>): Promise<unknown> {
    if (this.access === 'view' && !VIEW_OPS.has(op) && (OPS.has(op) || CONTROL_OPS.includes(op))) {
      throw new AppError('view_only', `This stream was opened with a live-view link: it can watch (${[...VIEW_OPS].join(', ')}) but not run "${op}".`, { op });
    }
    switch (op) {
      case 'ping':
        return { pong: Date.now() };
      case 'subscribe':
      case 'unsubscribe': {
        const events = params.events;
        if (!Array.isArray(events) || events.some((e) => !EVENT_TYPES.includes(e as EventType))) {
          throw new AppError('invalid_request', `"events" must be a list of: ${EVENT_TYPES.join(', ')}.`, { field: 'params.events' });
        }
        for (const e of events as EventType[]) op === 'subscribe' ? this.subscriptions.add(e) : this.subscriptions.delete(e);
        return { subscribed: [...this.subscriptions] };
      }
      case 'session':
        return this.deps.sessions.get(this.tenant, this.sessionId);
      case 'screencast.start':
        return this.startScreencast(role, page, params);
      case 'screencast.stop':
        return this.stopScreencast(role, page);
      case 'screencast.stats':
        return Object.fromEntries([...this.watchers.entries()].map(([k, w]) => [k, { sent: w.watcher.sent, dropped: w.watcher.dropped, maxFps: w.watcher.maxFps }]));
    }
    const pageOp = OPS.get(op);
    if (!pageOp) throw new AppError('invalid_request', `Unknown op "${op}".`, { field: 'op', ops: this.ops() });
    const input = { ...params };
    const validate = validatorFor(pageOp);
    if (!validate(input)) {
      const first = validate.errors![0];
      const field = (first.instancePath.replace(/^\//, '').replace(/\//g, '.') || (first.params as { missingProperty?: string; additionalProperty?: string }).missingProperty || (first.params as { additionalProperty?: string }).additionalProperty || 'params');
      throw new AppError('invalid_request', `Invalid params field "${field}": ${first.message}.`, { field: `params.${field}` });
    }
    const pathParams = Object.fromEntries((pageOp.pathParams ?? []).map((p) => {
      if (typeof input[p] !== 'string') throw new AppError('invalid_request', `params.${p} is required.`, { field: `params.${p}` });
      return [p, input[p] as string];
    }));
    const result = await runOp(this.deps, pageOp, {
      tenant: this.tenant,
      id: this.sessionId,
      role,
      page: page ?? (input.page as string | undefined),
      input: { query: pageOp.body ? {} : input, body: pageOp.body ? input : {}, params: { id: this.sessionId, role, ...pathParams } },
    });
    if (isBinary(result)) return { contentType: result.contentType, base64: result.binary.toString('base64'), bytes: result.binary.length };
    return result;
  }

  private async startScreencast(role: string, page: string | undefined, params: Record<string, unknown>): Promise<unknown> {
    const int = (name: string, def: number, min: number, max: number) => {
      const v = params[name] ?? def;
      if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
        throw new AppError('invalid_request', `params.${name} must be an integer from ${min} to ${max}.`, { field: `params.${name}` });
      }
      return v;
    };
    const maxFps = int('maxFps', 5, 1, 30);
    const quality = int('quality', 60, 1, 100);
    const maxWidth = int('maxWidth', 1280, 100, 3840);
    const maxHeight = int('maxHeight', 720, 100, 2160);
    const session = await this.deps.sessions.use(this.tenant, this.sessionId);
    const state = session.role(role).page(page);
    const key = `${role}/${state.id}`;
    this.stopScreencast(role, state.id);
    const watcher: Watcher = {
      maxFps,
      lastSentAt: 0,
      sent: 0,
      dropped: 0,
      deliver: (frame) => {
        // A slow reader misses frames; its buffer never grows past the cap.
        if (this.socket.bufferedAmount > this.opts.maxBufferedBytes) return false;
        return this.send({ event: 'frame', role, page: state.id, data: frame.data, metadata: frame.metadata });
      },
    };
    const cast = this.screencasts.get(this.sessionId, role, state, { quality, maxWidth, maxHeight });
    this.watchers.set(key, { key, watcher });
    await cast.add(watcher);
    return { role, page: state.id, maxFps, quality, maxWidth, maxHeight };
  }

  private stopScreencast(role: string, page: string | undefined): unknown {
    const stopped: string[] = [];
    for (const [key, w] of this.watchers) {
      if (key.startsWith(`${role}/`) && (!page || key === `${role}/${page}`)) {
        this.screencasts.release(this.sessionId, key, w.watcher);
        this.watchers.delete(key);
        stopped.push(key);
      }
    }
    return { stopped };
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.cleanup();
    this.closed = true;
    try {
      this.socket.close(code, reason);
    } catch {
      this.socket.terminate();
    }
    // A peer that never answers the close handshake is cut off. A slow consumer gets longer:
    // its close frame waits behind what it has not read yet (nothing more is queued).
    setTimeout(() => this.socket.terminate(), code === CLOSE.slow_consumer.code ? 10_000 : 2000).unref();
  }

  private cleanup(): void {
    if (this.held) this.held.holds--;
    this.held = null;
    if (this.pinger) clearInterval(this.pinger);
    this.pinger = null;
    this.hub.off('event', this.onEvent);
    this.hub.off('ended', this.onEnded);
    for (const [key, w] of this.watchers) this.screencasts.release(this.sessionId, key, w.watcher);
    this.watchers.clear();
  }
}
