import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './api.js';

// A typed client for Ariadne. The request and response types are generated from
// openapi.yaml into ./api.ts (`npm run client:types`; a test fails when they drift), and
// `client.api` exposes every route with them. On top of that, what a generator cannot
// give: a session object with roles, errors as exceptions carrying the stable code, and
// following a run's events over server-sent events with resume.

export type { components, paths } from './api.js';
export { SessionStream, type StreamEvent, type StreamOptions } from './stream.js';
import { SessionStream, type StreamOptions } from './stream.js';
export type Schemas = components['schemas'];
export type ErrorCode = Schemas['ErrorResponse']['error']['code'];

type SessionPath = paths['/v1/sessions'];
export type CreateSessionBody = NonNullable<SessionPath['post']['requestBody']>['content']['application/json'];
type ActionPath = paths['/v1/sessions/{id}/roles/{role}/actions']['post'];
export type ActionBody = NonNullable<ActionPath['requestBody']>['content']['application/json'];
export type ActionResult = ActionPath['responses'][200]['content']['application/json'];
type SnapshotPath = paths['/v1/sessions/{id}/roles/{role}/snapshot']['get'];
export type SnapshotQuery = NonNullable<SnapshotPath['parameters']['query']>;
export type SnapshotResult = SnapshotPath['responses'][200]['content']['application/json'];
type RunsPath = paths['/v1/runs']['post'];
export type RunBody = NonNullable<RunsPath['requestBody']>['content']['application/json'];

/** Every non-2xx answer, with the service's stable error code. */
export class AriadneError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'network_error' | 'unexpected_response',
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'AriadneError';
  }
}

export interface AriadneOptions {
  /** e.g. http://127.0.0.1:8080 */
  baseUrl: string;
  /** API key (sent as Authorization: Bearer). */
  token?: string;
  fetch?: typeof fetch;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** Unwraps an openapi-fetch answer: the data, or an AriadneError. */
export async function unwrap<T>(p: Promise<Answer<T>>): Promise<T> {
  let a: Answer<T>;
  try {
    a = await p;
  } catch (err) {
    throw new AriadneError(0, 'network_error', `Could not reach Ariadne: ${(err as Error).message}`);
  }
  if (a.response.ok) return a.data as T;
  const e = (a.error as { error?: { code?: ErrorCode; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
  const requestId = a.response.headers.get('x-request-id') ?? undefined;
  if (!e?.code) throw new AriadneError(a.response.status, 'unexpected_response', `HTTP ${a.response.status}`, {}, requestId);
  throw new AriadneError(a.response.status, e.code, e.message ?? e.code, e.details ?? {}, requestId);
}

export class Ariadne {
  /** Every route, typed from openapi.yaml. */
  readonly api: Client<paths>;
  readonly baseUrl: string;
  /** Authorization header (empty in open mode). */
  readonly headers: Record<string, string>;
  private readonly fetchImpl: typeof fetch;

  constructor(opts: AriadneOptions) {
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.headers = opts.token ? { authorization: `Bearer ${opts.token}` } : {};
    this.fetchImpl = opts.fetch ?? globalThis.fetch;
    this.api = createClient<paths>({ baseUrl: this.baseUrl, headers: this.headers, fetch: this.fetchImpl });
  }

  /** Lease a session: one isolated browser context per role. */
  async createSession(body: CreateSessionBody = {} as CreateSessionBody): Promise<Session> {
    const s = await unwrap(this.api.POST('/v1/sessions', { body }));
    return new Session(this, (s as { id: string }).id, s);
  }

  /** A handle on an existing session (no request is made). */
  session(id: string): Session {
    return new Session(this, id);
  }

  async listSessions() {
    return unwrap(this.api.GET('/v1/sessions'));
  }

  /** Queue a plain-English flow run. */
  async startRun(body: RunBody) {
    return unwrap(this.api.POST('/v1/runs', { body }));
  }

  async getRun(id: string) {
    return unwrap(this.api.GET('/v1/runs/{id}', { params: { path: { id } } }));
  }

  /** Poll until the run has finished; resolves with its final state. */
  async waitForRun(id: string, opts: { timeoutMs?: number; intervalMs?: number } = {}) {
    const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
    for (;;) {
      const run = await this.getRun(id);
      if (!['queued', 'running'].includes((run as { status: string }).status)) return run;
      if (Date.now() > deadline) throw new AriadneError(0, 'timeout', `Run ${id} did not finish in time.`, { id });
      await new Promise((r) => setTimeout(r, opts.intervalMs ?? 500));
    }
  }

  /**
   * A run's events as they happen (server-sent events), from `since` on. If the stream
   * drops before `run_finished`, it reconnects and resumes after the last event seen.
   */
  async *followRun(id: string, opts: { since?: number; signal?: AbortSignal; maxReconnects?: number } = {}): AsyncGenerator<RunEvent> {
    let since = opts.since ?? 0;
    let reconnects = 0;
    for (;;) {
      const res = await this.fetchImpl(`${this.baseUrl}/v1/runs/${encodeURIComponent(id)}/events?since=${since}`, {
        headers: { ...this.headers, accept: 'text/event-stream' },
        signal: opts.signal,
      });
      if (!res.ok) {
        const body = (await res.json().catch(() => ({}))) as { error?: { code?: ErrorCode; message?: string; details?: Record<string, unknown> } };
        throw new AriadneError(res.status, body.error?.code ?? 'unexpected_response', body.error?.message ?? `HTTP ${res.status}`, body.error?.details ?? {});
      }
      let finished = false;
      for await (const e of parseEventStream(res.body!)) {
        since = e.seq;
        yield e;
        if (e.type === 'run_finished') finished = true;
      }
      if (finished || opts.signal?.aborted) return;
      if (++reconnects > (opts.maxReconnects ?? 5)) throw new AriadneError(0, 'network_error', `The event stream of run ${id} kept dropping.`, { id, since });
      await new Promise((r) => setTimeout(r, Math.min(200 * 2 ** reconnects, 5000)));
    }
  }
}

export interface RunEvent {
  seq: number;
  type: string;
  data: unknown;
}

/** Parses text/event-stream (id, event, data lines; blank line ends an event). */
export async function* parseEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<RunEvent> {
  const decoder = new TextDecoder();
  let buf = '';
  let cur: { id?: string; event?: string; data: string[] } = { data: [] };
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buf += decoder.decode(chunk, { stream: true });
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl).replace(/\r$/, '');
      buf = buf.slice(nl + 1);
      if (line === '') {
        if (cur.data.length) {
          const raw = cur.data.join('\n');
          let data: unknown = raw;
          try {
            data = JSON.parse(raw);
          } catch {
            /* plain text data stays a string */
          }
          yield { seq: Number(cur.id ?? 0), type: cur.event ?? 'message', data };
        }
        cur = { data: [] };
      } else if (line.startsWith(':')) continue;
      else {
        const i = line.indexOf(':');
        const field = i < 0 ? line : line.slice(0, i);
        const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '');
        if (field === 'data') cur.data.push(value);
        else if (field === 'id') cur.id = value;
        else if (field === 'event') cur.event = value;
      }
    }
  }
}

export class Session {
  constructor(
    readonly client: Ariadne,
    readonly id: string,
    /** The create answer, when this handle came from createSession. */
    readonly info?: unknown,
  ) {}

  /** One role's browser context (default: "default"). */
  role(name = 'default'): Role {
    return new Role(this, name);
  }

  async get() {
    return unwrap(this.client.api.GET('/v1/sessions/{id}', { params: { path: { id: this.id } } }));
  }

  /** Add a role: its own isolated context, created now. */
  async addRole(name: string, options: Record<string, unknown> = {}): Promise<Role> {
    await unwrap(this.client.api.POST('/v1/sessions/{id}/roles', { params: { path: { id: this.id } }, body: { name, ...options } as never }));
    return this.role(name);
  }

  /**
   * The session's WebSocket stream (page ops as messages, live events), connected.
   * It reconnects after a drop and resumes with ?since= (no event lost or repeated).
   */
  async stream(opts: StreamOptions = {}): Promise<SessionStream> {
    const url = `${this.client.baseUrl.replace(/^http/, 'ws')}/v1/sessions/${encodeURIComponent(this.id)}/stream`;
    const s = new SessionStream(url, this.client.headers, opts);
    await s.connect();
    return s;
  }

  /** End the session; its contexts go back to the pool. */
  async close(): Promise<void> {
    await unwrap(this.client.api.DELETE('/v1/sessions/{id}', { params: { path: { id: this.id } } }));
  }
}

export class Role {
  constructor(
    readonly session: Session,
    readonly name: string,
  ) {}

  private get path() {
    return { id: this.session.id, role: this.name };
  }

  private get api() {
    return this.session.client.api;
  }

  async snapshot(query: SnapshotQuery = {}): Promise<SnapshotResult> {
    return unwrap(this.api.GET('/v1/sessions/{id}/roles/{role}/snapshot', { params: { path: this.path, query } }));
  }

  /** Any action (see the API's action table); by ref first, description as a fallback. */
  async act(body: ActionBody, page?: string): Promise<ActionResult> {
    return unwrap(this.api.POST('/v1/sessions/{id}/roles/{role}/actions', { params: { path: this.path, query: page ? { page } : {} }, body }));
  }

  navigate(url: string, extra: Partial<ActionBody> = {}) {
    return this.act({ ...extra, action: 'navigate', url } as ActionBody);
  }

  /** `target` is a ref (e.g. "e12") or, when it is not one, a description for the ladder. */
  click(target: string, extra: Partial<ActionBody> = {}) {
    return this.act({ ...extra, action: 'click', ...targetOf(target) } as ActionBody);
  }

  fill(target: string, value: string, extra: Partial<ActionBody> = {}) {
    return this.act({ ...extra, action: 'fill', value, ...targetOf(target) } as ActionBody);
  }

  press(key: string, extra: Partial<ActionBody> = {}) {
    return this.act({ ...extra, action: 'press', key } as ActionBody);
  }

  type(text: string, target?: string, extra: Partial<ActionBody> = {}) {
    return this.act({ ...extra, action: 'type', text, ...(target ? targetOf(target) : {}) } as ActionBody);
  }

  select(target: string, value: string | string[], extra: Partial<ActionBody> = {}) {
    return this.act({ ...extra, action: 'select', value, ...targetOf(target) } as ActionBody);
  }

  waitFor(opts: { text?: string; textGone?: string; time?: number }) {
    return this.act({ action: 'wait_for', ...opts } as ActionBody);
  }

  /** Ancestors of a ref with their stable attributes (step 1 of container → pattern → anchors). */
  async container(ref: string, query: { maxTokens?: number; format?: 'json' | 'text' } = {}) {
    return unwrap(this.api.GET('/v1/sessions/{id}/roles/{role}/explore/container', { params: { path: this.path, query: { ref, ...query } as never } }));
  }

  async pattern(ref: string, level: number, query: { maxTokens?: number; format?: 'json' | 'text' } = {}) {
    return unwrap(this.api.GET('/v1/sessions/{id}/roles/{role}/explore/pattern', { params: { path: this.path, query: { ref, level, ...query } as never } }));
  }

  async anchors(ref: string, level: number, query: { maxTokens?: number; format?: 'json' | 'text' } = {}) {
    return unwrap(this.api.GET('/v1/sessions/{id}/roles/{role}/explore/anchors', { params: { path: this.path, query: { ref, level, ...query } as never } }));
  }

  /** Verified Playwright locators for a ref. */
  async locators(ref: string) {
    return unwrap(this.api.GET('/v1/sessions/{id}/roles/{role}/locators', { params: { path: this.path, query: { ref } as never } }));
  }

  async screenshot(query: { format?: 'png' | 'jpeg'; fullPage?: boolean } = {}): Promise<Buffer> {
    const res = await unwrap(this.api.GET('/v1/sessions/{id}/roles/{role}/screenshot', { params: { path: this.path, query: query as never }, parseAs: 'arrayBuffer' }));
    return Buffer.from(res as ArrayBuffer);
  }
}

const REF = /^(f\d+)?e\d+$/;

function targetOf(target: string): { ref: string } | { description: string } {
  return REF.test(target) ? { ref: target } : { description: target };
}
