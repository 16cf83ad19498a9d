import os from 'node:os';
import type { FastifyPluginAsync } from 'fastify';
import { Type } from 'typebox';
import type { ServerDeps } from '../deps.js';
import { withoutTenantSeries } from '../security/public-metrics.js';

// Backpressure and metrics for load balancers and Prometheus.

const Pressure = Type.Object({
  node: Type.String(),
  running: Type.Integer({ description: 'Live sessions on this node.' }),
  leased: Type.Integer({ description: 'Contexts leased on this node.' }),
  capacity: Type.Integer({ description: 'Context slots on this node.' }),
  queued: Type.Integer({ description: 'Session requests waiting for capacity, cluster-wide (-1: unknown).' }),
  clusterLeased: Type.Integer({ description: 'Contexts leased in the whole cluster (-1: unknown).' }),
  clusterCapacity: Type.Integer({ description: 'Context slots of all live nodes (-1: unknown).' }),
  nodes: Type.Integer(),
  cpu: Type.Number({ description: 'Load average (1 min) per core.' }),
  memory: Type.Object({ usedRatio: Type.Number(), rssBytes: Type.Integer() }),
  available: Type.Boolean({ description: 'This node can take a new session now.' }),
  reason: Type.Optional(Type.String()),
});

export const opsRoutes = (deps: ServerDeps): FastifyPluginAsync => async (app) => {
  app.get('/v1/pressure', {
    schema: {
      tags: ['ops'],
      summary: "This node's load and whether it can take work; ?format=text answers 503 when it cannot (for load balancers)",
      querystring: Type.Object({ format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('text')])) }),
      response: { 200: Pressure, 503: Pressure },
    },
  }, async (req, reply) => {
    const stats = deps.pool.stats();
    const cpu = os.loadavg()[0] / os.cpus().length;
    const usedRatio = 1 - os.freemem() / os.totalmem();
    let queued = -1;
    let clusterLeased = -1;
    let clusterCapacity = -1;
    let nodes = 0;
    let redisOk = true;
    if (deps.cluster) {
      try {
        const [q, l, alive] = await Promise.all([deps.cluster.admission.queued(), deps.cluster.membership.leases.count(), deps.cluster.membership.nodes.alive()]);
        queued = q;
        clusterLeased = l;
        clusterCapacity = alive.reduce((n, x) => n + x.capacity, 0);
        nodes = alive.length;
      } catch {
        redisOk = false;
      }
    }
    const reasons: string[] = [];
    if (!redisOk) reasons.push('redis_unavailable');
    if (stats.available <= 0) reasons.push('no_free_slots');
    if (stats.browsers.every((b) => !b.connected)) reasons.push('no_browser');
    if (usedRatio > 0.95) reasons.push('memory_pressure');
    const body = {
      node: deps.config.nodeId,
      running: deps.sessions.liveCount,
      leased: stats.leased,
      capacity: stats.capacity,
      queued,
      clusterLeased,
      clusterCapacity,
      nodes,
      cpu: Math.round(cpu * 100) / 100,
      memory: { usedRatio: Math.round(usedRatio * 1000) / 1000, rssBytes: process.memoryUsage().rss },
      available: reasons.length === 0,
      ...(reasons.length ? { reason: reasons.join(',') } : {}),
    };
    const status = body.available ? 200 : 503;
    if ((req.query as { format?: string }).format === 'text') {
      return reply.status(status).type('text/plain').send(body.available
        ? `ok ${body.leased}/${body.capacity} leased, ${body.queued} queued\n`
        : `busy: ${body.reason} (${body.leased}/${body.capacity} leased, ${body.queued} queued)\n`);
    }
    return reply.status(status).send(body);
  });

  app.get('/metrics', {
    schema: { tags: ['ops'], summary: 'Prometheus metrics of this node (needs a key unless METRICS_PUBLIC=1; public metrics carry no tenant labels)', response: { 200: Type.String() } },
  }, async (_req, reply) => {
    if (!deps.metrics) return reply.type('text/plain').send('');
    const text = await deps.metrics.registry.metrics();
    return reply.type(deps.metrics.registry.contentType).send(deps.config.security.metricsPublic ? withoutTenantSeries(text) : text);
  });
};
