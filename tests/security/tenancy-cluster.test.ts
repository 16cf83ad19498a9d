import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api, startTestService, type TestService } from '../helpers/service.js';
import { destroyServer, spawnServer, waitUntil, type ServerProcess } from '../helpers/process.js';
import { startRedis, type TestRedis } from '../helpers/redis-server.js';

// Issue 10, item 6: quotas hold cluster-wide. Two nodes share one Redis; a tenant's
// limit counts its sessions on both, and the holds of a node that dies (SIGKILL, no
// cleanup) lapse with its heartbeat, so the tenant is not locked out for good.

const KEY = 'tenancy-cluster-key-acme-0123456789';
const KEY_B = 'tenancy-cluster-key-beta-0123456789';
const ENV = {
  API_KEYS: `${KEY}:acme:max_sessions=2,${KEY_B}:beta`,
  LEASE_TTL_MS: '2000',
  HEARTBEAT_MS: '500',
  REAP_INTERVAL_MS: '500',
  POOL_BROWSERS: '1',
  POOL_MAX_CONTEXTS: '4',
  POOL_MAX_CONTEXTS_PER_BROWSER: '4',
  POOL_WARM_CONTEXTS: '0',
  QUEUE_TIMEOUT_SECONDS: '0',
};

let redis: TestRedis;
let nodeA: TestService;
let nodeB: ServerProcess;

beforeAll(async () => {
  redis = await startRedis();
  [nodeA, nodeB] = await Promise.all([
    startTestService({ ...ENV, REDIS_URL: redis.url, NODE_ID: 'tenancy-a' }),
    spawnServer({ env: { ...ENV, REDIS_URL: redis.url, NODE_ID: 'tenancy-b' } }),
  ]);
});
afterAll(async () => {
  await nodeA?.stop();
  if (nodeB) await destroyServer(nodeB);
  await redis?.destroy();
});

describe('cluster-wide quotas', () => {
  it('counts a tenant\'s sessions on every node, and frees a dead node\'s share', async () => {
    const a = nodeA.api.withToken(KEY);
    const b = new Api(nodeB.url, KEY);
    const onA = await a.post('/v1/sessions', {});
    const onB = await b.post('/v1/sessions', {});
    expect(onA.status, JSON.stringify(onA.body)).toBe(201);
    expect(onB.status, JSON.stringify(onB.body)).toBe(201);
    expect(onA.body.node).toBe('tenancy-a');
    expect(onB.body.node).toBe('tenancy-b');

    // Two held across the cluster: a third is refused on either node.
    for (const api of [a, b]) {
      const r = await api.post('/v1/sessions', {});
      expect(r.status, JSON.stringify(r.body)).toBe(429);
      expect(r.body.error).toMatchObject({ code: 'quota_exceeded', details: { quota: 'max_sessions', limit: 2, current: 2 } });
      expect(r.headers.get('retry-after')).toBeTruthy();
    }
    expect((await a.get('/v1/quota')).body.usage.sessions).toBe(2);
    // Another tenant is not affected.
    const beta = await nodeA.api.withToken(KEY_B).post('/v1/sessions', {});
    expect(beta.status).toBe(201);

    // Node B dies without a word: its session's hold lapses with its heartbeat.
    nodeB.child.kill('SIGKILL');
    await nodeB.exited;
    await waitUntil(async () => (await a.get('/v1/quota')).body.usage.sessions === 1, 15_000, "the dead node's hold to lapse");
    const after = await a.post('/v1/sessions', {});
    expect(after.status, JSON.stringify(after.body)).toBe(201);

    // Deletes bring the count to zero.
    for (const id of [onA.body.id, after.body.id]) expect((await a.delete(`/v1/sessions/${id}`)).status).toBe(204);
    expect((await a.get('/v1/quota')).body.usage).toMatchObject({ sessions: 0, contexts: 0 });
    await nodeA.api.withToken(KEY_B).delete(`/v1/sessions/${beta.body.id}`);
  });
});
