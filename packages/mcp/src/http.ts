import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { HttpBackend } from './backend.js';
import { createAriadneMcp, type AriadneMcp, type AriadneMcpOptions } from './server.js';

// Streamable HTTP sessions for the /mcp route: one MCP server (and one Ariadne session)
// per MCP session id, owned by the tenant that initialized it. A request for another
// tenant's session id is answered exactly like an unknown id. Idle sessions are closed.

interface Entry {
  tenant: string;
  transport: StreamableHTTPServerTransport;
  mcp: AriadneMcp;
  lastSeen: number;
  /** Requests in progress: a session is never idle while one runs. */
  inflight: number;
  /** Authorization of the latest request (same tenant), used for the tool calls. */
  authorization?: string;
}

export interface McpHttpOptions extends AriadneMcpOptions {
  idleTimeoutMs: number;
  /** Open MCP sessions one tenant may hold (each may hold a browser session). Default 32. */
  maxSessionsPerTenant?: number;
  /** A backend that calls the service as the holder of this Authorization header. */
  backendFor(getAuthorization: () => string | undefined): HttpBackend;
}

export type McpHttpOutcome =
  | { handled: true }
  | { handled: false; status: number; code: 'mcp_session_not_found' | 'invalid_request' | 'rate_limited'; message: string };

export class McpHttpSessions {
  private readonly sessions = new Map<string, Entry>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly opts: McpHttpOptions) {
    this.sweeper = setInterval(() => void this.sweep(), Math.max(250, Math.min(30_000, opts.idleTimeoutMs / 4)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  /** Handles one POST/GET/DELETE on /mcp for an authenticated tenant. */
  async handle(tenant: string, authorization: string | undefined, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<McpHttpOutcome> {
    const header = req.headers['mcp-session-id'];
    const sid = Array.isArray(header) ? header[0] : header;
    if (sid) {
      const e = this.sessions.get(sid);
      if (!e || e.tenant !== tenant) return { handled: false, status: 404, code: 'mcp_session_not_found', message: `No MCP session ${sid} for this key: initialize a new one.` };
      e.lastSeen = Date.now();
      e.authorization = authorization;
      // Only POSTs count: a GET is the long-lived event stream, open while the client idles.
      const counted = req.method === 'POST';
      if (counted) e.inflight++;
      try {
        await e.transport.handleRequest(req, res, body);
      } finally {
        if (counted) e.inflight--;
        e.lastSeen = Date.now();
      }
      return { handled: true };
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return { handled: false, status: 400, code: 'invalid_request', message: 'Send an initialize request first (no Mcp-Session-Id header given).' };
    }
    const max = this.opts.maxSessionsPerTenant ?? 32;
    let held = 0;
    for (const e of this.sessions.values()) if (e.tenant === tenant) held++;
    if (held >= max) {
      return { handled: false, status: 429, code: 'rate_limited', message: `This key already holds ${held} MCP sessions (at most ${max}): close one (DELETE /mcp) or let it idle out.` };
    }
    const entry = {} as Entry;
    entry.tenant = tenant;
    entry.authorization = authorization;
    entry.lastSeen = Date.now();
    entry.inflight = 0;
    entry.mcp = createAriadneMcp(this.opts.backendFor(() => entry.authorization), { ...this.opts, metadata: { transport: 'streamable-http', ...(this.opts.metadata ?? {}) } });
    entry.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.sessions.set(id, entry);
      },
    });
    entry.transport.onclose = () => {
      const id = entry.transport.sessionId;
      if (id && this.sessions.get(id) === entry) this.sessions.delete(id);
      void entry.mcp.close();
    };
    await entry.mcp.server.connect(entry.transport);
    await entry.transport.handleRequest(req, res, body);
    return { handled: true };
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    for (const [id, e] of this.sessions) {
      if (e.inflight === 0 && now - e.lastSeen > this.opts.idleTimeoutMs) {
        this.sessions.delete(id);
        await e.transport.close().catch(() => undefined);
        await e.mcp.close().catch(() => undefined);
      }
    }
  }

  /** Close every session (server shutdown): their Ariadne sessions are deleted. */
  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map(async (e) => {
      await e.transport.close().catch(() => undefined);
      await e.mcp.close().catch(() => undefined);
    }));
  }
}

/** DNS-rebinding defence: the Host (and Origin, when sent) must name an allowed host. */
export function checkHostAndOrigin(host: string | undefined, origin: string | undefined, allowed: string[]): string | null {
  if (allowed.includes('*')) return null;
  const hostname = (h: string) => {
    try {
      return new URL(`http://${h}`).hostname.toLowerCase();
    } catch {
      return '';
    }
  };
  if (!host || !allowed.includes(hostname(host))) return `Host ${JSON.stringify(host ?? '')} is not allowed for /mcp (MCP_ALLOWED_HOSTS).`;
  if (origin !== undefined) {
    let o = '';
    try {
      o = new URL(origin).hostname.toLowerCase();
    } catch {
      o = '';
    }
    if (!o || !allowed.includes(o)) return `Origin ${JSON.stringify(origin)} is not allowed for /mcp (MCP_ALLOWED_HOSTS).`;
  }
  return null;
}
