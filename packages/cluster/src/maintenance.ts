import { Queue, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { bullConnection, bullPrefix, QUEUES } from './queues.js';
import { LeaseRegistry } from './leases.js';
import { NodeRegistry } from './nodes.js';
import { SessionStore } from './session-store.js';

// Cluster housekeeping as a BullMQ job scheduler: every few seconds one worker
// (whichever is free, on any node) reaps leases whose node stopped renewing them,
// marks their sessions lost everywhere, and forgets dead nodes. BullMQ makes sure a
// run happens once, and hands it to another worker when one dies mid-run.

export interface ReapReport {
  reapedLeases: number;
  lostSessions: string[];
  deadNodes: string[];
}

export async function reapCluster(redis: Redis, prefix: string, ttlMs: number, graceMs: number, store: SessionStore): Promise<ReapReport> {
  const leases = new LeaseRegistry(redis, prefix, ttlMs);
  const nodes = new NodeRegistry(redis, prefix, ttlMs);
  // A little grace past expiry: a node that just got Redis back renews first.
  const expired = await leases.reapExpired(graceMs);
  const lost = new Set<string>();
  for (const l of expired) {
    const rec = await store.get(l.sessionId);
    if (rec && rec.status === 'active' && rec.node === l.node) {
      await store.end(rec, 'lost', 'node_lost');
      lost.add(rec.id);
    }
  }
  // Sessions whose node is gone but that held no lease (never fully created).
  const deadNodes = await nodes.reapDead(graceMs);
  for (const node of deadNodes) {
    for (const rec of await store.listByNode(node)) {
      await store.end(rec, 'lost', 'node_lost');
      lost.add(rec.id);
    }
  }
  return { reapedLeases: expired.length, lostSessions: [...lost], deadNodes };
}

export interface MaintenanceOptions {
  redisUrl: string;
  redis: Redis;
  prefix: string;
  ttlMs: number;
  graceMs: number;
  everyMs: number;
  store: SessionStore;
  onLost?: (ids: string[]) => void;
}

/** Registers the schedule (idempotent: every node may call it) and a worker for it. */
export class Maintenance {
  private readonly queue: Queue;
  private readonly worker: Worker;
  private readonly conns: Redis[] = [];

  constructor(private readonly opts: MaintenanceOptions) {
    const prefix = bullPrefix(opts.prefix);
    const conn = () => {
      const c = bullConnection(opts.redisUrl);
      this.conns.push(c);
      return c;
    };
    this.queue = new Queue(QUEUES.maintenance, { connection: conn(), prefix });
    this.worker = new Worker(
      QUEUES.maintenance,
      async (job: Job) => {
        const report = await reapCluster(opts.redis, opts.prefix, opts.ttlMs, opts.graceMs, opts.store);
        await job.updateProgress(100);
        if (report.lostSessions.length) opts.onLost?.(report.lostSessions);
        return report;
      },
      { connection: conn(), prefix, concurrency: 1, autorun: false },
    );
    this.queue.on('error', () => {});
    this.worker.on('error', () => {});
  }

  async start(): Promise<void> {
    await this.queue.upsertJobScheduler('reap', { every: this.opts.everyMs }, { name: 'reap', opts: { removeOnComplete: 50, removeOnFail: 50 } });
    void this.worker.run().catch(() => {});
  }

  async close(): Promise<void> {
    await this.worker.close().catch(() => {});
    await this.queue.close().catch(() => {});
    for (const c of this.conns) c.disconnect();
  }
}
