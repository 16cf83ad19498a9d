import { Queue, QueueEvents, Worker, type Job, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullConnection, bullPrefix, QUEUES, reapCluster, SessionStore } from '@ariadne/cluster';

// The BullMQ workers of the service. They run inside the server process by default
// (WORKER_MODE=inline) or on their own (`node apps/worker/dist/main.js`), same code.
// Shutdown lets running jobs finish for a grace period, then closes hard: a job cut
// off that way is "stalled" and BullMQ hands it to another worker.

export interface WorkerHostOptions {
  redisUrl: string;
  /** A fail-fast client for the job code's own Redis calls. */
  redis: Redis;
  redisPrefix: string;
  leaseTtlMs: number;
  graceMs: number;
  reapIntervalMs: number;
  /** A worker's lock on a job; a job whose worker died is noticed within half of it after it lapses. */
  jobLockMs?: number;
  shutdownMs: number;
  /** Extra processors by queue name (flow runs are added by the flows package). */
  processors?: Partial<Record<string, { processor: Processor; concurrency: number }>>;
  logger?: { info(o: object, m?: string): void; warn(o: object, m?: string): void };
}

export interface WorkerHost {
  workers: Worker[];
  events(queue: string): QueueEvents;
  close(): Promise<void>;
}

export async function startWorkers(opts: WorkerHostOptions): Promise<WorkerHost> {
  const prefix = bullPrefix(opts.redisPrefix);
  const conns: Redis[] = [];
  const conn = () => {
    const c = bullConnection(opts.redisUrl);
    conns.push(c);
    return c;
  };
  const store = new SessionStore(opts.redis, { prefix: opts.redisPrefix });
  const processors: Record<string, { processor: Processor; concurrency: number }> = {
    [QUEUES.maintenance]: {
      concurrency: 1,
      processor: async (job: Job) => {
        const report = await reapCluster(opts.redis, opts.redisPrefix, opts.leaseTtlMs, opts.graceMs, store);
        await job.updateProgress(100);
        if (report.lostSessions.length) opts.logger?.warn({ sessions: report.lostSessions }, 'sessions of a dead node marked lost');
        return report;
      },
    },
    ...(opts.processors as Record<string, { processor: Processor; concurrency: number }>),
  };
  const workers = Object.entries(processors).map(([name, p]) => {
    const w = new Worker(name, p.processor, {
      connection: conn(),
      prefix,
      concurrency: p.concurrency,
      // A job whose worker died keeps its lock until it lapses, is noticed as stalled within
      // half a lock more, and is retried elsewhere.
      lockDuration: opts.jobLockMs ?? 30_000,
      stalledInterval: Math.round((opts.jobLockMs ?? 30_000) / 2),
      maxStalledCount: 2,
      autorun: true,
    });
    // A Redis outage makes every reconnect attempt an error: log at most one a minute.
    let lastLogged = 0;
    w.on('error', (err) => {
      if (Date.now() - lastLogged < 60_000) return;
      lastLogged = Date.now();
      opts.logger?.warn({ queue: name, err: String(err) }, 'worker error');
    });
    return w;
  });

  // The reap schedule: idempotent, so every host may (re)declare it.
  const maintenance = new Queue(QUEUES.maintenance, { connection: conn(), prefix });
  maintenance.on('error', () => {});
  await maintenance.upsertJobScheduler('reap', { every: opts.reapIntervalMs }, { name: 'reap', opts: { removeOnComplete: 50, removeOnFail: 50 } });
  await maintenance.close();

  const events = new Map<string, QueueEvents>();
  return {
    workers,
    events(queue: string) {
      let e = events.get(queue);
      if (!e) {
        e = new QueueEvents(queue, { connection: conn(), prefix });
        e.on('error', () => {});
        events.set(queue, e);
      }
      return e;
    },
    async close() {
      // Let running jobs finish, but not forever.
      const graceful = Promise.all(workers.map((w) => w.close()));
      const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), opts.shutdownMs).unref());
      if ((await Promise.race([graceful, timeout])) === 'timeout') {
        opts.logger?.warn({}, 'jobs still running at shutdown: closing hard, they will be retried elsewhere');
        await Promise.all(workers.map((w) => w.close(true)));
      }
      await Promise.all([...events.values()].map((e) => e.close()));
      for (const c of conns) c.disconnect();
    },
  };
}
