import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { ServerDeps } from '../deps.js';
import { EventHub } from '../stream/event-hub.js';
import { ScreencastRegistry } from '../stream/screencast-registry.js';
import { StreamConnection, type StreamOptions } from '../stream/connection.js';
import { CLOSE } from '../stream/close-codes.js';
import { livePage } from '../stream/live-page.js';
import { proxyStream } from '../stream/proxy.js';
import { FORWARDED_HEADER, forwardHeaders, ownerOf } from '../plugins/forward.js';
import { StreamSlots } from '../security/stream-guard.js';

// GET /v1/sessions/:id/stream (WebSocket): commands, events, screencast.
// GET /v1/sessions/:id/live: a page people open in a browser to watch a session.

export const streamRoutes = (deps: ServerDeps, opts: StreamOptions): FastifyPluginAsync => async (app) => {
  const hub = new EventHub(deps.sessions, { eventsPerSecond: opts.eventsPerSecond });
  const screencasts = new ScreencastRegistry();
  const connections = new Set<StreamConnection>();
  const slots = new StreamSlots(opts.maxPerSession ?? 8);

  app.addHook('preClose', async () => {
    for (const c of connections) c.close(CLOSE.shutting_down.code, CLOSE.shutting_down.reason);
  });

  app.get('/v1/sessions/:id/stream', {
    websocket: true,
    schema: {
      tags: ['stream'],
      summary: 'WebSocket: page commands as messages, live events, screencast (see docs/api.md for the protocol and close codes)',
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      querystring: Type.Object({
        since: Type.Optional(Type.Integer({ minimum: 0, description: 'Resume: replay events after this sequence number.' })),
        token: Type.Optional(Type.String({ description: 'API key, for clients that cannot set the Authorization header.' })),
      }),
    },
    // Before the upgrade: one more socket than STREAM_MAX_PER_SESSION is refused with 429.
    preHandler: async (req) => {
      if ((req as { ws?: boolean }).ws) slots.take(req, req.tenant, (req.params as { id: string }).id);
    },
  }, (socket, req) => {
    const { id } = req.params as { id: string };
    const { since } = req.query as { since?: number };
    const serveHere = () => {
      const conn = new StreamConnection(socket, deps, hub, screencasts, req.tenant, id, opts, req.log, req.id);
      connections.add(conn);
      socket.on('close', () => connections.delete(conn));
      void conn.start(since);
    };
    if (!req.tenant || deps.sessions.isLocal(id) || req.headers[FORWARDED_HEADER]) return serveHere();
    // The session may live on another node: pipe the stream there.
    ownerOf(deps, req.tenant, id).then(
      (owner) => {
        if (owner.kind === 'local') return serveHere();
        deps.metrics?.forwarded.inc({ kind: 'stream' });
        proxyStream(socket, `${owner.url.replace(/^http/, 'ws')}${req.url}`, forwardHeaders(req, deps.config.nodeId));
      },
      () => socket.close(CLOSE.session_lost.code, CLOSE.session_lost.reason),
    );
  });

  app.get('/v1/sessions/:id/live', {
    schema: {
      tags: ['stream'],
      summary: 'Live view: screencast, event log and latest snapshot of a session, in a browser',
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      querystring: Type.Object({
        token: Type.Optional(Type.String()),
        role: Type.Optional(Type.String({ maxLength: 64 })),
        page: Type.Optional(Type.String({ maxLength: 64 })),
      }),
      response: { 200: Type.String({ description: 'text/html' }) },
    },
  }, async (req, reply) => {
    const { id } = req.params as { id: string };
    // The session must exist for this tenant; the page itself talks to the stream.
    await deps.sessions.get(req.tenant, id);
    return reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(livePage(id));
  });
};
