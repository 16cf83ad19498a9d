import { existsSync } from 'node:fs';
import path from 'node:path';
import { pino, type DestinationStream, type Logger } from 'pino';
import { logRedaction } from './security/redact.js';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { createRedis, QUEUES, SessionStore, startEmbeddedRedis, TenantQuotas, type EmbeddedRedis } from '@ariadne/cluster';
import { BrowserPool, SessionManager } from '@ariadne/pool';
import { InboxStore, startSmtpServer } from '@ariadne/inbox';
import { createEgressFetch, EgressPolicy, EgressProxy } from '@ariadne/egress';
import { limitsFor, type Config } from './config.js';
import { buildApp } from './app.js';
import { joinCluster, type ClusterNode } from './cluster.js';
import { suiteScheduleProcessor } from './suite-schedules.js';
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
  egress: EgressProxy;
  sessions: SessionManager;
  redis: Redis;
  /** The SMTP listener's port when inboxes are on (SMTP_PORT=0 picks a free one). */
  smtpPort: number | null;
  metrics: Metrics;
  close(): Promise<void>;
}

export class StartupError extends Error {}

/** The longest a batched log line waits for its batch (LOG_BUFFER_BYTES). */
export const LOG_FLUSH_MS = 200;

/**
 * stdout for the service's log lines, written in batches. A line written on its own is a
 * write to a pipe that wakes whatever reads it (a terminal, Docker's log driver, journald)
 * for each request: under a snapshot load that wake-up on both sides cost as much of the
 * server's CPU as the rest of the HTTP exchange (bench/README, "The request line").
 * Batches of `bufferBytes`, or whatever is there every LOG_FLUSH_MS; pino flushes the rest
 * synchronously on exit (a crash included); warnings and errors are flushed at once by
 * createLogger. A SIGKILL loses at most the last batch. 0: every line at once.
 */
export function logDestination(bufferBytes: number): DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: bufferBytes, ...(bufferBytes > 0 ? { periodicFlush: LOG_FLUSH_MS } : {}) });
}

export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const batched = destination ? null : logDestination(config.logBufferBytes);
  return pino({
    level: config.logLevel,
    base: { node: config.nodeId },
    // Keys, tokens (also ?token=), Authorization and cookies, URL user-info and query
    // values, typed values: see logRedaction (shared with the standalone worker).
    ...logRedaction({ secretValues: [...config.apiKeys.keys(), config.runs.anthropic.apiKey, config.runs.openai.apiKey] }),
    // A warning or an error is not left waiting in a batch.
    ...(batched && config.logBufferBytes > 0 ? {
      hooks: {
        logMethod(this: Logger, args: Parameters<Logger['info']>, method: (...a: unknown[]) => void, level: number) {
          method.apply(this, args);
          const stream = batched as unknown as { flush(): void; destroyed: boolean };
          if (level >= 40 && !stream.destroyed) stream.flush();
        },
      },
    } : {}),
  }, destination ?? batched!);
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

  // The egress policy (packages/egress): strict when API keys are set. The service's own
  // ports (HTTP, embedded Redis, the SMTP listener, the egress proxy's channels) are denied on every local address.
  const ownPorts = new Set<number>();
  for (const u of [redisUrl, config.redisUrl]) {
    try {
      if (u) ownPorts.add(Number(new URL(u).port || 6379));
    } catch { /* validated in config */ }
  }
  if (config.port) ownPorts.add(config.port);
  const policy: EgressPolicy = new EgressPolicy({
    mode: config.apiKeys.size > 0 ? 'strict' : 'open',
    deny: config.egress.deny,
    allow: config.egress.allow,
    ownPorts: (): number[] => [...ownPorts, ...egress.ports()],
  });
  const egress: EgressProxy = new EgressProxy(policy, { logger });
  cleanups.push(() => egress.close());

  const pool = new BrowserPool({
    egress,
    chromiumPath: config.chromiumPath,
    browsers: config.pool.browsers,
    maxContextsPerBrowser: config.pool.maxContextsPerBrowser,
    maxContexts: config.pool.maxContexts,
    warmContexts: config.pool.warmContexts,
    acceptDownloads: config.limits.downloads,
    contextCloseTimeoutMs: config.limits.contextCloseTimeoutMs,
    logger,
    // Browsers per tenant only matter when there are tenants (API keys); open mode has one.
    isolation: config.isolation.mode === 'tenant' && config.apiKeys.size > 0 ? 'tenant' : 'none',
    maxBrowsers: config.isolation.maxBrowsers,
    tenantBrowserIdleMs: config.isolation.tenantBrowserIdleSeconds * 1000,
    sandbox: config.isolation.sandbox,
  });
  // Chromium launches while the app below is built and its schemas compiled (both take
  // about a second); nothing leases before the pool is awaited, ahead of listen(). A start
  // that fails on the way waits for the launch before closing, so no Chromium outlives it.
  const poolStarted = pool.start().then(() => null, (err: Error) => err);
  cleanups.push(async () => {
    await poolStarted;
    await pool.close();
  });

  // Per-tenant quotas in Redis; holds lapse with the node's leases if it dies.
  const quotas = new TenantQuotas({
    redis,
    prefix: config.redisPrefix,
    holdTtlMs: config.cluster.leaseTtlMs,
    limits: (tenant) => limitsFor(config.quotas, tenant),
  });

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
    gate: quotas,
  });
  sessions.start();
  const renewQuotas = setInterval(() => {
    const live = sessions.liveSessions().filter((s) => !s.ending).map((s) => ({ tenant: s.record.tenant, sessionId: s.record.id, roles: s.record.roles.map((r) => r.name) }));
    void quotas.renew(live).catch(() => {});
  }, config.cluster.heartbeatMs);
  renewQuotas.unref();
  cleanups.push(async () => clearInterval(renewQuotas));
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
  const inboxes = new InboxStore(redis, config.redisPrefix, config.inbox.domain);
  const egressFetch = createEgressFetch(policy, { responseTimeoutMs: 120_000 });
  const deps: ServerDeps = { config, sessions, pool, redis, store, metrics, cluster: null, inboxes, egress: { policy, fetch: egressFetch }, quotas };
  let smtpPort: number | null = null;
  if (config.inbox.smtpPort !== null) {
    try {
      const smtp = await startSmtpServer({
        port: config.inbox.smtpPort,
        host: config.inbox.smtpHost,
        store: inboxes,
        maxMessageBytes: config.inbox.maxMessageBytes,
        maxMessagesPerInbox: config.inbox.maxMessages,
        logger,
      });
      smtpPort = smtp.port;
      // One of the service's own ports: no tenant's browser or callback reaches it, whatever EGRESS_ALLOW says.
      ownPorts.add(smtp.port);
      cleanups.push(() => smtp.close());
    } catch (err) {
      await undo();
      throw new StartupError(`Cannot listen for mail on ${config.inbox.smtpHost}:${config.inbox.smtpPort} (SMTP_PORT): ${(err as Error).message}`);
    }
  }

  // Schedule ticks start runs through a queue client of their own, closed after the workers.
  const schedules = suiteScheduleProcessor(deps, logger);
  cleanups.push(() => schedules.close());
  // Shutdown runs these in reverse: HTTP first, then intake, sessions, membership.
  cleanups.push(async () => cluster?.leave());
  cleanups.push(async () => cluster?.stopIntake());
  const app = await buildApp(deps, logger);
  cleanups.push(() => app.close());
  const launchError = await app.ready().then(() => poolStarted, async (err: Error) => {
    await undo();
    throw err;
  });
  if (launchError) {
    await undo();
    throw new StartupError(`Could not launch Chromium (${config.chromiumPath}): ${launchError.message.split('\n')[0]}`);
  }
  let url: string;
  try {
    url = await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await undo();
    throw new StartupError(`Cannot listen on ${config.host}:${config.port}: ${(err as Error).message}`);
  }
  ownPorts.add(Number(new URL(url).port));
  const nodeUrl = config.cluster.nodeUrl || url.replace('://0.0.0.0', '://127.0.0.1').replace('://[::]', '://127.0.0.1');
  try {
    cluster = await joinCluster({ config, redisUrl, redis, store, pool, sessions, logger, nodeUrl, metrics, egressFetch, processors: { [QUEUES.schedules]: { concurrency: 2, processor: schedules.processor } } });
    deps.cluster = cluster;
  } catch (err) {
    await undo();
    throw new StartupError(`Could not join the cluster through Redis: ${(err as Error).message}`);
  }
  if (config.apiKeys.size === 0) {
    logger.warn('No API keys configured: local open mode, every caller is tenant "local". Set API_KEYS before exposing this service.');
  }
  logger.info({ url, node: config.nodeId, redis: embedded ? 'embedded' : 'external', pool: config.pool, egress: policy.describe(), ...(smtpPort !== null ? { smtp: { port: smtpPort, domain: config.inbox.domain } } : {}) }, 'Ariadne is ready');

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
  return { app, url, config, logger, pool, egress, sessions, redis, metrics, smtpPort, close };
}
