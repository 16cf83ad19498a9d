import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { ServerDeps } from '../deps.js';
import { limitsFor } from '../config.js';

// The caller's own quotas and what it holds against them, cluster-wide. A tenant sees
// only itself: no other tenant's name or load.

const Limits = Type.Object({
  max_sessions: Type.Integer({ description: '0 = unlimited' }),
  max_contexts: Type.Integer(),
  max_queued: Type.Integer(),
  max_runs: Type.Integer(),
  sessions_per_minute: Type.Integer(),
});

export const tenantRoutes = (deps: ServerDeps): FastifyPluginAsync => async (app) => {
  app.get('/v1/quota', {
    schema: {
      tags: ['ops'],
      summary: "The caller's per-tenant limits and current usage, cluster-wide",
      response: {
        200: Type.Object({
          tenant: Type.String(),
          limits: Limits,
          usage: Type.Object({ sessions: Type.Integer(), contexts: Type.Integer(), runs: Type.Integer(), sessions_last_minute: Type.Integer() }),
        }),
      },
    },
  }, async (req) => {
    const l = limitsFor(deps.config.quotas, req.tenant);
    const u = deps.quotas ? await deps.quotas.usage(req.tenant) : { sessions: 0, contexts: 0, runs: 0, sessionsLastMinute: 0 };
    return {
      tenant: req.tenant,
      limits: { max_sessions: l.maxSessions, max_contexts: l.maxContexts, max_queued: l.maxQueued, max_runs: l.maxRuns, sessions_per_minute: l.sessionsPerMinute },
      usage: { sessions: u.sessions, contexts: u.contexts, runs: u.runs, sessions_last_minute: u.sessionsLastMinute },
    };
  });
};
