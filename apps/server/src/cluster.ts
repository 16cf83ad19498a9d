import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { Admission, Membership, QUEUES, type SessionStore } from '@ariadne/cluster';
import { createRunProcessor, DEFAULT_SETTINGS, inboxFlowMail, markRunFailed, plannerFor, RunStore } from '@ariadne/flows';
import { InboxStore } from '@ariadne/inbox';
import { startWorkers, type WorkerHost } from '@ariadne/worker';
import type { BrowserPool, SessionManager } from '@ariadne/pool';
import { limitsFor, type Config } from './config.js';
import type { Metrics } from './metrics.js';
import type { FetchLike } from '@ariadne/egress';
import type { Processor } from 'bullmq';
import { secretsBox, SuiteStore } from '@ariadne/suites';
import { createNotifier } from './routes/suites.js';

// Joins this node to the cluster: heartbeat and leases (Membership), the admission
// queue that hands session requests to whichever node has a free slot, and — when
// the workers run in this process — the BullMQ workers (maintenance reaps dead nodes).

export interface ClusterNode {
  membership: Membership;
  admission: Admission;
  /** The BullMQ workers, when they run in this process (WORKER_MODE=inline). */
  workers: WorkerHost | null;
  nodeUrl: string;
  /** Stop taking session requests and running maintenance (first step of shutdown). */
  stopIntake(): Promise<void>;
  /** Leave the cluster: stop the heartbeat and remove the node record (last step). */
  leave(): Promise<void>;
}

export interface ClusterDeps {
  config: Config;
  redisUrl: string;
  redis: Redis;
  store: SessionStore;
  pool: BrowserPool;
  sessions: SessionManager;
  logger: Logger;
  nodeUrl: string;
  metrics: Metrics;
  /** Outbound HTTP for tenants (callbacks, tenant-chosen model URLs) through the egress policy. */
  egressFetch?: FetchLike;
  /** More queues this node's workers take jobs from (suite schedule ticks). */
  processors?: Record<string, { processor: Processor; concurrency: number }>;
}

export async function joinCluster(d: ClusterDeps): Promise<ClusterNode> {
  const { config, pool, sessions } = d;
  const prefix = config.redisPrefix;
  const membership = new Membership({
    redis: d.redis,
    prefix,
    nodeId: config.nodeId,
    url: d.nodeUrl,
    heartbeatMs: config.cluster.heartbeatMs,
    ttlMs: config.cluster.leaseTtlMs,
    local: () => ({
      capacity: pool.capacity,
      leased: pool.leasedCount,
      sessions: sessions.liveCount,
      leases: sessions.leases().map((l) => ({ ...l, node: config.nodeId })),
    }),
    logger: d.logger,
  });

  const admission = new Admission({
    redisUrl: d.redisUrl,
    redis: d.redis,
    redisPrefix: prefix,
    nodeId: config.nodeId,
    maxQueued: config.cluster.queueMax,
    maxQueuedFor: (tenant) => limitsFor(config.quotas, tenant).maxQueued,
    freeSlots: () => pool.capacity - pool.leasedCount,
    slotsSettled: () => sessions.quotaDecisionsSettled(),
    admit: (req) => sessions.create(req.tenant, req.body as never),
    logger: d.logger,
  });

  // Leases follow contexts: written when a context is leased, removed when it is
  // released. A write lost to a Redis outage is repaired by the next heartbeat.
  sessions.on('lease-acquired', (l) => {
    void membership.acquired({ ...l, node: config.nodeId }).catch(() => {});
  });
  sessions.on('lease-released', ({ id }) => {
    void membership.released(id).catch(() => {});
    admission.slotFreed();
  });

  await membership.start();
  await admission.start();

  // Flow runs execute here, on this node's pool, like any session.
  const box = secretsBox(config.suites.secretsKey);
  const runStore = new RunStore(d.redis, prefix, config.runs.retentionSeconds, box);
  const plannerDefaults = { planner: config.runs.planner, anthropic: config.runs.anthropic, openai: config.runs.openai };
  // Set at the start of shutdown: a run whose browser is closed under it then is handed back.
  let stopping = false;
  // Callbacks, suite notifications and GitHub statuses, sent by the node that ran the run.
  const notifier = createNotifier(
    { config, redis: d.redis, logger: d.logger, nodeUrl: d.nodeUrl, ...(d.egressFetch ? { egress: { fetch: d.egressFetch } as never } : {}) },
    new SuiteStore(d.redis, prefix, config.suites.secretsKey),
    runStore,
  );
  const runProcessor = createRunProcessor({
    notify: notifier,
    store: runStore,
    secretsBox: box,
    shuttingDown: () => stopping,
    sessions,
    nodeId: config.nodeId,
    runsDir: config.runs.dir,
    planners: (rec, secret) => plannerFor(rec, secret, plannerDefaults, { egressFetch: d.egressFetch }),
    ...(d.egressFetch ? { fetch: d.egressFetch } : {}),
    logger: d.logger,
    // Runs read email through the same inboxes as /v1/inboxes, when this service takes mail.
    ...(config.inbox.smtpPort !== null ? { mail: (tenant: string) => inboxFlowMail(new InboxStore(d.redis, prefix, config.inbox.domain), tenant, config.inbox.ttlSeconds) } : {}),
    settings: {
      ...DEFAULT_SETTINGS,
      actionTimeoutMs: config.timeouts.actionMs,
      navigationTimeoutMs: config.timeouts.navigationMs,
      snapshotTimeoutMs: config.timeouts.snapshotMs,
      describeWaitMs: config.timeouts.describeWaitMs,
      allowedSchemes: config.allowedSchemes,
      assertTimeoutMs: config.runs.assertTimeoutMs,
      limits: {
        maxStepsPerCase: config.runs.maxStepsPerCase,
        maxTurnsPerCase: config.runs.maxTurnsPerCase,
        maxTokensPerCase: config.runs.maxTokensPerCase,
        maxTokensPerRun: config.runs.maxTokensPerRun,
        caseTimeoutMs: config.runs.caseTimeoutMs,
        runTimeoutMs: config.runs.runTimeoutMs,
      },
    },
  });

  const workers = config.cluster.workerMode === 'inline'
    ? await startWorkers({
      redisUrl: d.redisUrl,
      redis: d.redis,
      redisPrefix: prefix,
      leaseTtlMs: config.cluster.leaseTtlMs,
      graceMs: config.cluster.heartbeatMs * 2,
      reapIntervalMs: config.cluster.reapIntervalMs,
      jobLockMs: config.cluster.jobLockMs,
      shutdownMs: config.timeouts.shutdownMs,
      logger: d.logger,
      processors: { ...d.processors, [QUEUES.runs]: { concurrency: config.runs.concurrency, processor: runProcessor as never } },
    })
    : null;
  // A run whose job BullMQ gives up on (stalled too often) is marked failed, never left running.
  workers?.workers.find((w) => w.name === QUEUES.runs)?.on('failed', (job, err) => {
    if (job) void markRunFailed(runStore, job.id ?? job.data?.runId, err?.message ?? 'failed').catch(() => {});
  });

  return {
    membership,
    admission,
    workers,
    nodeUrl: d.nodeUrl,
    async stopIntake() {
      stopping = true;
      await admission.close();
      await workers?.close();
      await notifier.idle();
    },
    async leave() {
      await membership.stop();
    },
  };
}
