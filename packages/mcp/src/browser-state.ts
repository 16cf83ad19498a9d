import { AriadneCallError, jsonOf, type HttpBackend, type Query } from './backend.js';

// What one MCP client holds in Ariadne: one session (created on the first tool that needs
// a browser), the role tools act as (select_role switches it; a role is created the
// first time it is selected), and nothing else. close() deletes the session.

export interface BrowserStateOptions {
  /** Idle timeout asked for the Ariadne session (the MCP side closes it sooner). */
  idleTimeoutSeconds?: number;
  metadata?: Record<string, string>;
}

export class BrowserState {
  sessionId: string | null = null;
  role = 'default';
  private creating: Promise<string> | null = null;
  private closed = false;

  constructor(
    readonly http: HttpBackend,
    private readonly opts: BrowserStateOptions = {},
  ) {}

  /** The Ariadne session, created on first use. */
  async session(): Promise<string> {
    if (this.closed) throw new AriadneCallError(410, 'session_closed', 'This MCP session has been closed.');
    if (this.sessionId) return this.sessionId;
    this.creating ??= (async () => {
      try {
        const body: Record<string, unknown> = { metadata: { client: 'mcp', ...(this.opts.metadata ?? {}) } };
        if (this.opts.idleTimeoutSeconds) body.idleTimeoutSeconds = this.opts.idleTimeoutSeconds;
        if (this.role !== 'default') body.roles = [{ name: this.role }];
        const s = jsonOf<{ id: string }>(await this.http.request('POST', '/v1/sessions', { body }));
        this.sessionId = s.id;
        return s.id;
      } finally {
        this.creating = null;
      }
    })();
    return this.creating;
  }

  /** Path prefix of the current role's page operations. */
  async rolePath(): Promise<string> {
    const id = await this.session();
    return `/v1/sessions/${id}/roles/${encodeURIComponent(this.role)}`;
  }

  /** A call to the service; a session that is gone is forgotten, so the next call makes a new one. */
  async call<T = any>(method: string, path: string, opts: { query?: Query; body?: unknown } = {}): Promise<T> {
    try {
      return jsonOf<T>(await this.http.request(method, path, opts));
    } catch (err) {
      // Gone (410) or no longer known (404 session_not_found, e.g. its record expired).
      const gone = err instanceof AriadneCallError && (err.status === 410 || err.code === 'session_not_found');
      if (gone && this.sessionId && path.startsWith(`/v1/sessions/${this.sessionId}`) && !this.closed) {
        this.sessionId = null;
        err.details.hint = `${err.details.hint ? `${err.details.hint} ` : ''}The browser session ended; the next tool call starts a new one (roles and pages are gone).`;
      }
      throw err;
    }
  }

  async raw(method: string, path: string, query?: Query) {
    return this.http.request(method, path, { query });
  }

  /** Switch to a role, creating its isolated context when the session lacks it. */
  async selectRole(name: string, spec: Record<string, unknown> = {}): Promise<{ created: boolean }> {
    if (!this.sessionId && !this.creating) {
      // No session yet: create it with this role first (no useless default context).
      this.role = name;
      await this.session();
      return { created: true };
    }
    const id = await this.session();
    const s = await this.call<{ roles: { name: string }[] }>('GET', `/v1/sessions/${id}`);
    let created = false;
    if (!s.roles.some((r) => r.name === name)) {
      await this.call('POST', `/v1/sessions/${id}/roles`, { body: { name, ...spec } });
      created = true;
    }
    this.role = name;
    return { created };
  }

  /** Delete the Ariadne session (idempotent; errors ignored: it may already be gone). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const pending = this.creating;
    if (pending) await pending.catch(() => undefined);
    const id = this.sessionId;
    this.sessionId = null;
    if (id) await this.http.request('DELETE', `/v1/sessions/${id}`).catch(() => undefined);
  }

  /** Forget the session after browser_close (a later call starts a new one). */
  async endSession(): Promise<boolean> {
    const id = this.sessionId;
    this.sessionId = null;
    this.role = 'default';
    if (!id) return false;
    jsonOf(await this.http.request('DELETE', `/v1/sessions/${id}`));
    return true;
  }
}
