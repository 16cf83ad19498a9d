import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { ErrorResponse } from '@ariadne/schema';
import { Type } from 'typebox';
import type { ServerDeps } from '../deps.js';
import { EventHub } from '../stream/event-hub.js';
import { ScreencastRegistry } from '../stream/screencast-registry.js';
import { StreamConnection, type StreamOptions } from '../stream/connection.js';
import { CLOSE } from '../stream/close-codes.js';
import { livePage, liveCsp } from '../stream/live-page.js';
import type { ReportLinks } from '../security/report-links.js';
import { publicBaseUrl } from '../security/public-url.js';
import { viewToken, VIEW_TOKEN_DEFAULT_TTL, VIEW_TOKEN_MAX_TTL, VIEW_TOKEN_MIN_TTL } from '../security/view-tokens.js';
import { proxyStream } from '../stream/proxy.js';
import { FORWARDED_HEADER, forwardHeaders, ownerOf } from '../plugins/forward.js';
import { StreamSlots } from '../security/stream-guard.js';

// GET /v1/sessions/:id/stream (WebSocket): commands, events, screencast.
// GET /v1/sessions/:id/live: a page people open in a browser to watch a session;
// POST /v1/sessions/:id/live-link: a short-lived link to it without the API key.

export const streamRoutes = (deps: ServerDeps, opts: StreamOptions, links: ReportLinks): FastifyPluginAsync => async (app) => {
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
        view: Type.Optional(Type.String({ description: 'Live-view token (from the live page or POST /v1/sessions/:id/live-link): a watch-only stream.' })),
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
      // Opened with a live-view token: watch only.
      const conn = new StreamConnection(socket, deps, hub, screencasts, req.tenant, id, opts, req.log, req.id, req.viewGrant ? 'view' : 'full');
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

  const keyed = deps.config.apiKeys.size > 0;

  app.get('/v1/sessions/:id/live', {
    schema: {
      tags: ['stream'],
      summary: 'Live view: screencast, event log and latest snapshot of a session, in a browser (key in the header, or a view link from POST /v1/sessions/:id/live-link)',
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      querystring: Type.Object({
        view: Type.Optional(Type.String({ maxLength: 100, description: 'Live-view token from POST /v1/sessions/:id/live-link (short-lived; opens this page and a watch-only stream).' })),
        role: Type.Optional(Type.String({ maxLength: 64 })),
        page: Type.Optional(Type.String({ maxLength: 64 })),
      }),
      response: { 200: Type.String({ description: 'text/html' }) },
    },
  }, async (req, reply) => {
    const { id } = req.params as { id: string };
    // The session must exist for this tenant; the page itself talks to the stream.
    await deps.sessions.get(req.tenant, id);
    // The page's stream credential: the view token it was opened with (its expiry holds),
    // or a fresh one for a page opened with the key. Never the key.
    const view = req.viewGrant
      ? { token: req.viewGrant.token, exp: req.viewGrant.exp }
      : keyed ? await viewToken(links, id, req.tenant) : null;
    const nonce = randomBytes(16).toString('base64');
    return reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', liveCsp(nonce))
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(livePage(id, { nonce, view: view ? { token: view.token, exp: view.exp } : null }));
  });

  app.post('/v1/sessions/:id/live-link', {
    schema: {
      tags: ['stream'],
      summary: 'A short-lived link to the session\'s live view for a browser: a signed view token instead of the API key (watch only)',
      params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
      body: Type.Optional(Type.Object({
        ttlSeconds: Type.Optional(Type.Integer({ minimum: VIEW_TOKEN_MIN_TTL, maximum: VIEW_TOKEN_MAX_TTL, description: `How long the link opens the view (default ${VIEW_TOKEN_DEFAULT_TTL} s); a stream opened in time stays open.` })),
      }, { additionalProperties: false })),
      response: {
        200: Type.Object({ url: Type.String(), expiresAt: Type.String({ description: 'ISO time the link stops opening the view.' }) }),
        400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 410: ErrorResponse,
      },
    },
  }, async (req) => {
    const { id } = req.params as { id: string };
    await deps.sessions.get(req.tenant, id);
    const body = (req.body ?? {}) as { ttlSeconds?: number };
    const t = await viewToken(links, id, req.tenant, { ttlSeconds: body.ttlSeconds ?? VIEW_TOKEN_DEFAULT_TTL });
    // Links that leave the service are built from PUBLIC_URL / the node URL, never Host.
    return { url: `${publicBaseUrl(deps.config, deps.cluster?.nodeUrl)}/v1/sessions/${encodeURIComponent(id)}/live?view=${t.token}`, expiresAt: t.expiresAt };
  });
};
