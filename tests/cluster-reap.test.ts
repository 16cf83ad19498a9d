import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LeaseRegistry, reapCluster, SessionStore } from '@ariadne/cluster';
import { startRedis, type TestRedis } from './helpers/redis-server.js';
import { waitUntil } from './helpers/process.js';

// The reaper judges a lease dead when its node has not renewed it for a TTL. While
// Redis itself was down nobody could renew anything: right after a Redis restart the
// leases loaded from the AOF look expired, and reaping them would mark every live
// session lost (seen in tests/cluster.test.ts under load). The reaper waits until
// Redis has been up long enough for every live node to have renewed.

const TTL = 1000;
const GRACE = 500;

describe('reaper after a Redis restart', () => {
  let redis: TestRedis;
  beforeAll(async () => { redis = await startRedis(); });
  afterAll(async () => { await redis?.destroy(); });

  it('does not reap leases that only look expired because Redis was down', async () => {
    const prefix = 'reaptest:';
    const client = redis.client();
    const leases = new LeaseRegistry(client, prefix, TTL);
    await leases.add({ id: 'l1', node: 'n1', sessionId: 's1', role: 'default', tenant: 't' });
    await redis.stop('SIGKILL');
    // Longer than TTL + grace: the lease's expiry passes while Redis is down.
    await new Promise((r) => setTimeout(r, TTL + GRACE + 500));
    await redis.start();
    await waitUntil(async () => (await client.ping().catch(() => '')) === 'PONG', 10_000, 'the client to reconnect');
    const store = new SessionStore(client, prefix);

    const early = await reapCluster(client, prefix, TTL, GRACE, store);
    expect(early.reapedLeases).toBe(0);
    expect(early.skipped).toBe('redis_recently_started');
    expect(await leases.count()).toBe(0); // expired by score, but still held in the set
    expect((await leases.all()).map((l) => l.id)).toEqual(['l1']);

    // A node that is really gone still gets reaped once Redis has been up a while.
    await waitUntil(async () => (await reapCluster(client, prefix, TTL, GRACE, store)).reapedLeases === 1, 10_000, 'the dead lease to be reaped');
    expect(await leases.all()).toEqual([]);
  });
});
