import { existsSync } from 'node:fs';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createRedis, SessionStore, startEmbeddedRedis, type EmbeddedRedis } from '@ariadne/cluster';
import { BrowserPool, SessionManager } from '@ariadne/pool';
import type { Config } from './config.js';
import { buildApp } from './app.js';
import { joinCluster, type ClusterNode } from './cluster.js';
import { Metrics } from './metrics.js';
import type { ServerDeps } from './deps.js';

// Starts and stops the whole service in order: Redis (given or embedded), the browser
// pool, the session manager, then the HTTP server. close() undoes it in reverse and
// leaves no Chromium process, no redis-server child and no temp dir behind.

export interface Service {
  app: FastifyInstance;
  url: string;
  config: Config;
  logger: Logger;
  pool: BrowserPool;
  sessions: SessionManager;
  redis: Redis;
  close(): Promise<void>;
}

export class StartupError extends Error {}

export function createLogger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    base: { node: config.nodeId },
    redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
    serializers: {
      // Never log an API key passed as ?token= (WebSocket clients).
      req: (req: { method: string; url: string; id: string }) => ({ id: req.id, method: req.method, url: req.url.replace(/([?&]token=)[^&]*/g, '$1[redacted]') }),
    },
  });
}

export async function startService(config: Config, logger: Logger = createLogger(config)): Promise<Service> {
  if (!existsSync(config.chromiumPath)) {
    throw new StartupError(
      `Chromium not found at ${config.chromiumPath}. Install it (Debian: apt-get install -y chromium) or set CHROMIUM_PATH.`,
    );
  }
  let embedded: EmbeddedRedis | null = null;
  let redisUrl = config.redisUrl;
  if (!redisUrl) {
    try {
      embedded = await startEmbeddedRedis({ dataDir: path.join(config.stateDir, 'redis'), logger });
    } catch (err) {
      throw new StartupError((err as Error).message);
    }
    redisUrl = embedded.url;
  }
  const redis = createRedis(redisUrl);
  const cleanups: (() => Promise<unknown>)[] = [];
  const undo = async () => {
    for (const fn of cleanups.reverse()) await fn().catch(() => {});
  };
  cleanups.push(async () => embedded?.stop());
  cleanups.push(async () => redis.disconnect());
  try {
    await redis.connect();
  } catch (err) {
    await undo();
    throw new StartupError(`Cannot reach Redis at ${redisUrl.replace(/\/\/[^@]*@/, '//***@')}: ${(err as Error).message}`);
  }

  const store = new SessionStore(redis, { prefix: config.redisPrefix });
  if (embedded) {
    // An embedded Redis serves this node only: sessions it remembers as active belong
    // to an earlier run of this process, whose browsers are gone.
    const stale = await store.listAll();
    for (const rec of stale) await store.end(rec, 'lost', 'node_restarted');
    if (stale.length) logger.warn({ count: stale.length }, 'marked sessions of a previous run as lost');
  }

  const pool = new BrowserPool({
    chromiumPath: config.chromiumPath,
    browsers: config.pool.browsers,
    maxContextsPerBrowser: config.pool.maxContextsPerBrowser,
    maxContexts: config.pool.maxContexts,
    warmContexts: config.pool.warmContexts,
    acceptDownloads: config.limits.downloads,
    contextCloseTimeoutMs: config.limits.contextCloseTimeoutMs,
    logger,
  });
  cleanups.push(() => pool.close());
  try {
    await pool.start();
  } catch (err) {
    await undo();
    throw new StartupError(`Could not launch Chromium (${config.chromiumPath}): ${(err as Error).message.split('\n')[0]}`);
  }

  const sessions = new SessionManager(pool, store, {
    nodeId: config.nodeId,
    defaultIdleTimeoutSeconds: config.session.idleTimeoutSeconds,
    defaultTtlSeconds: config.session.ttlSeconds,
    maxTtlSeconds: config.session.maxTtlSeconds,
    navigationTimeoutMs: config.timeouts.navigationMs,
    allowedSchemes: config.allowedSchemes,
    operationTimeoutMs: config.limits.operationTimeoutMs,
    maxTabsPerRole: config.limits.maxTabsPerRole,
    downloads: { enabled: config.limits.downloads, maxBytes: config.limits.downloadMaxBytes },
    logger,
  });
  sessions.start();
  cleanups.push(() => sessions.close());

  const metrics = new Metrics({
    sessions: () => sessions.liveCount,
    leased: () => pool.leasedCount,
    capacity: () => pool.capacity,
    restarts: () => pool.stats().restarts,
    clusterLeases: async () => cluster?.membership.leases.count() ?? pool.leasedCount,
    queued: async () => cluster?.admission.queued() ?? 0,
  }, config.nodeId);
  let cluster: ClusterNode | null = null;
  const deps: ServerDeps = { config, sessions, pool, redis, store, metrics, cluster: null };
  // Shutdown runs these in reverse: HTTP first, then intake, sessions, membership.
  cleanups.push(async () => cluster?.leave());
  cleanups.push(async () => cluster?.stopIntake());
  const app = await buildApp(deps, logger);
  cleanups.push(() => app.close());
  let url: string;
  try {
    url = await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await undo();
    throw new StartupError(`Cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
  }
  const nodeUrl = config.cluster.nodeUrl || url.replace('://0.0.0.0', '://127.0.0.1').replace('://[::]', '://127.0.0.1');
  try {
    cluster = await joinCluster({ config, redisUrl, redis, store, pool, sessions, logger, nodeUrl, metrics });
    deps.cluster = cluster;
  } catch (err) {
    await undo();
    throw new StartupError(`Could not join the cluster through Redis: ${(err as Error).message}`);
  }
  if (config.apiKeys.size === 0) {
    logger.warn('No API keys configured: local open mode, every caller is tenant "local". Set API_KEYS before exposing this service.');
  }
  logger.info({ url, node: config.nodeId, redis: embedded ? 'embedded' : 'external', pool: config.pool }, 'Ariadne is ready');

  let closing: Promise<void> | null = null;
  const close = () => {
    closing ??= (async () => {
      const force = setTimeout(() => void pool.close(), config.timeouts.shutdownMs);
      force.unref();
      // Requests waiting in the admission queue would keep app.close() waiting.
      cluster?.admission.drain();
      await undo();
      clearTimeout(force);
      logger.info('Ariadne stopped');
    })();
    return closing;
  };
  return { app, url, config, logger, pool, sessions, redis, close };
}
