import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { ServerDeps } from '../deps.js';
import { linkWarnings } from '../security/public-url.js';

// Liveness, readiness and the pool's state, for probes and operators.

export const healthRoutes = (deps: ServerDeps): FastifyPluginAsync => async (app) => {
  app.get('/healthz', {
    schema: {
      tags: ['ops'],
      summary: 'Alive (and what an operator should fix, e.g. report links that would point at loopback)',
      response: { 200: Type.Object({ ok: Type.Boolean(), node: Type.String(), warnings: Type.Optional(Type.Array(Type.String(), { description: 'Configuration an operator should look at; absent when there is none.' })) }) },
    },
  }, async () => {
    const warnings = linkWarnings(deps.config, deps.cluster?.nodeUrl);
    return { ok: true, node: deps.config.nodeId, ...(warnings.length ? { warnings } : {}) };
  });

  app.get('/readyz', {
    schema: {
      tags: ['ops'],
      summary: 'Ready: Redis reachable and browsers up (503 otherwise)',
      response: {
        200: Type.Object({ ready: Type.Boolean(), redis: Type.Boolean(), browsers: Type.Integer() }),
        503: Type.Object({ ready: Type.Boolean(), redis: Type.Boolean(), browsers: Type.Integer() }),
      },
    },
  }, async (_req, reply) => {
    const redis = await deps.redis.ping().then((r) => r === 'PONG', () => false);
    const browsers = deps.pool.stats().browsers.filter((b) => b.connected).length;
    const ready = redis && browsers > 0;
    return reply.status(ready ? 200 : 503).send({ ready, redis, browsers });
  });

  app.get('/v1/pool', {
    schema: {
      tags: ['ops'],
      summary: "This node's browser pool: browsers, leased and warm contexts, capacity",
      response: {
        200: Type.Object({
          node: Type.String(),
          sessions: Type.Integer(),
          leased: Type.Integer(),
          warm: Type.Integer(),
          capacity: Type.Integer(),
          available: Type.Integer(),
          restarts: Type.Integer(),
          sandbox: Type.Boolean({ description: 'Chromium runs with its OS sandbox.' }),
          isolation: Type.Union([Type.Literal('tenant'), Type.Literal('none')], { description: 'tenant: every browser serves one tenant only.' }),
          browsers: Type.Array(Type.Object({
            id: Type.String(), pid: Type.Union([Type.Integer(), Type.Null()]), leased: Type.Integer(), warm: Type.Integer(), connected: Type.Boolean(),
            dedicated: Type.Boolean({ description: 'Serves one tenant (false: a spare, or isolation off).' }),
          })),
        }),
      },
    },
  }, async () => ({ node: deps.config.nodeId, sessions: deps.sessions.liveCount, ...deps.pool.stats() }));
};
