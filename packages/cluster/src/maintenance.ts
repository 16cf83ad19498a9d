import type { Redis } from 'ioredis';
import { LeaseRegistry } from './leases.js';
import { NodeRegistry } from './nodes.js';
import { SessionStore } from './session-store.js';

// Cluster housekeeping, run as a BullMQ scheduled job (apps/worker): one worker at a
// time, on any node, reaps leases whose node stopped renewing them, marks their
// sessions lost everywhere, and forgets dead nodes.

export interface ReapReport {
  reapedLeases: number;
  lostSessions: string[];
  deadNodes: string[];
  /** Set when the round judged nothing, and why. */
  skipped?: 'redis_recently_started';
}

/** How long Redis has been up, in ms (a restarted Redis reloads its AOF at uptime 0). */
async function redisUptimeMs(redis: Redis): Promise<number> {
  const info = await redis.info('server');
  const m = /uptime_in_seconds:(\d+)/.exec(info);
  return m ? Number(m[1]) * 1000 : Number.POSITIVE_INFINITY;
}

export async function reapCluster(redis: Redis, prefix: string, ttlMs: number, graceMs: number, store: SessionStore): Promise<ReapReport> {
  // Expiry scores are wall-clock times written by heartbeats. While Redis was down no
  // node could renew, so right after a restart every lease looks expired: wait until
  // Redis has been up for a TTL plus the grace, so live nodes have renewed by then.
  if ((await redisUptimeMs(redis)) < ttlMs + graceMs) return { reapedLeases: 0, lostSessions: [], deadNodes: [], skipped: 'redis_recently_started' };
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
