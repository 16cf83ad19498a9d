import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { Admission, type AdmissionRequest } from '@ariadne/cluster';
import { AppError } from '@ariadne/schema';

// The admission queue on a real Redis (BullMQ), with a stand-in for the node's pool: a
// slot counter, and an admit() that keeps the contract SessionManager.create keeps (its
// slots are held before its first await), then takes a while to finish (the tenant's
// quota in Redis, a context to open). The HTTP-level tests are in cluster.test.ts.

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

interface FakeNode {
  admission: Admission;
  redis: Redis;
  leased: number;
  admitted: string[];
  refused: string[];
}

const nodes: FakeNode[] = [];
afterEach(async () => {
  for (const n of nodes.splice(0)) {
    await n.admission.close();
    n.redis.disconnect();
  }
});

async function startNode(capacity: number, admitDelayMs: number): Promise<FakeNode> {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  const node: FakeNode = { redis, leased: capacity, admitted: [], refused: [] } as FakeNode;
  node.admission = new Admission({
    redisUrl: REDIS_URL,
    redis,
    redisPrefix: `test:adm:${randomUUID()}:`,
    nodeId: 'n1',
    maxQueued: 10,
    freeSlots: () => capacity - node.leased,
    admit: async (req: AdmissionRequest) => {
      const label = (req.body as { label: string }).label;
      if (node.leased + req.slots > capacity) {
        node.refused.push(label);
        throw new AppError('capacity_exhausted', `All ${capacity} browser contexts are in use.`);
      }
      node.leased += req.slots;
      await new Promise((r) => setTimeout(r, admitDelayMs));
      node.admitted.push(label);
      return { label };
    },
  });
  await node.admission.start();
  nodes.push(node);
  return node;
}

describe('admission queue', () => {
  it('admits one queued request per freed slot, however long admit() takes to lease', async () => {
    const node = await startNode(1, 300);
    const answers: { label: string; ok: boolean; code?: string }[] = [];
    const ask = (label: string, tenant: string) => node.admission
      .request({ tenant, slots: 1, body: { label } }, 20_000)
      .then(() => answers.push({ label, ok: true }), (err: AppError) => answers.push({ label, ok: false, code: err.code }));
    const pending = [ask('a1', 'a')];
    await new Promise((r) => setTimeout(r, 100));
    pending.push(ask('a2', 'a'));
    await new Promise((r) => setTimeout(r, 100));
    pending.push(ask('b1', 'b'));
    await expect.poll(() => node.admission.queued(), { timeout: 5000 }).toBe(3);

    // One slot frees: exactly one request is admitted, none is refused for a slot that
    // another admission in progress had already been promised.
    node.leased -= 1;
    node.admission.slotFreed();
    await expect.poll(() => answers.length, { timeout: 5000 }).toBe(1);
    await new Promise((r) => setTimeout(r, 1500));
    expect(answers).toEqual([{ label: 'a1', ok: true }]);
    expect(node.refused).toEqual([]);

    // Two more frees: tenant b's first request goes ahead of tenant a's second.
    for (const n of [2, 3]) {
      node.leased -= 1;
      node.admission.slotFreed();
      await expect.poll(() => answers.length, { timeout: 5000 }).toBe(n);
    }
    await Promise.all(pending);
    expect(answers.map((a) => a.label)).toEqual(['a1', 'b1', 'a2']);
    expect(answers.every((a) => a.ok)).toBe(true);
    expect(node.refused).toEqual([]);
  });

  it('does not overshoot when requests arrive together with room for some of them', async () => {
    const node = await startNode(2, 200);
    node.leased = 0;
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map((i) => node.admission.request({ tenant: 'a', slots: 1, body: { label: `r${i}` } }, 1500)),
    );
    expect(node.refused).toEqual([]);
    expect(node.leased).toBe(2);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect((r.reason as AppError).code).toBe('queue_timeout');
    }
  });
});
