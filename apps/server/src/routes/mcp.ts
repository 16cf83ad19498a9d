import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { AppError } from '@ariadne/schema';
import { McpHttpSessions, checkHostAndOrigin, withQuery, type HttpBackend } from '@ariadne/mcp';
import type { ServerDeps } from '../deps.js';

// The MCP server over Streamable HTTP at /mcp (packages/mcp). Authenticated by the
// usual hook (request.tenant); one MCP session per Mcp-Session-Id, owned by its tenant;
// Host and Origin checked against DNS rebinding. The tools call this same API in-process
// (Fastify inject, with the caller's Authorization), so auth, validation and forwarding
// to the owning node apply to them exactly as to any client.

function injectBackend(app: FastifyInstance, authorization: () => string | undefined): HttpBackend {
  return {
    async request(method, path, opts = {}) {
      const auth = authorization();
      const res = await app.inject({
        method: method as 'GET',
        url: withQuery(path, opts.query),
        headers: { ...(auth ? { authorization: auth } : {}), ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}) },
        payload: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), body: res.rawPayload };
    },
  };
}

export function mcpRoutes(deps: ServerDeps): FastifyPluginAsync {
  return async (app) => {
    const allowed = deps.config.mcp.allowedHosts;
    const sessions = new McpHttpSessions({
      idleTimeoutMs: deps.config.mcp.idleTimeoutSeconds * 1000,
      sessionIdleTimeoutSeconds: deps.config.mcp.idleTimeoutSeconds + 60,
      backendFor: (auth) => injectBackend(app, auth),
    });
    app.addHook('onClose', async () => sessions.closeAll());
    app.route({
      method: ['GET', 'POST', 'DELETE'],
      url: '/mcp',
      // The key comes in the Authorization header (no ?token= here: see plugins/auth.ts).
      schema: {
        tags: ['mcp'],
        summary: 'MCP server (Streamable HTTP): browser, exploration, inspection, locator and flow tools over this API',
        description:
          'The Model Context Protocol endpoint: POST JSON-RPC messages (initialize first; the answer carries Mcp-Session-Id), GET for the server event stream, DELETE to end the MCP session (its browser session is deleted). Host and Origin must name an allowed host (MCP_ALLOWED_HOSTS).',
      },
      handler: async (request, reply) => {
        const problem = checkHostAndOrigin(request.headers.host, request.headers.origin, allowed);
        if (problem) throw new AppError('forbidden_origin', problem);
        // The tools call the API as this caller, with its header.
        const authorization = request.headers.authorization;
        reply.hijack();
        const out = await sessions.handle(request.tenant, authorization, request.raw, reply.raw, request.body);
        if (!out.handled && !reply.raw.headersSent) {
          reply.raw.writeHead(out.status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': request.id });
          reply.raw.end(JSON.stringify({ error: { code: out.code, message: out.message } }));
        }
      },
    });
  };
}
