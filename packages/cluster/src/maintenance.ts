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
