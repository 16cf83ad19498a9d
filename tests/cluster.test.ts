import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { destroyServer, killPids, spawnServer, waitUntil, type ServerProcess } from './helpers/process.js';
import { startRedis, type TestRedis } from './helpers/redis-server.js';
import { Api, refOf, startTestService, type TestService } from './helpers/service.js';
import { StreamClient } from './helpers/ws-client.js';

// Several real server processes on one real Redis: forwarding, cluster-wide listing,
// leases that expire with their node, the admission queue, and a Redis restart.

let fx: FixtureServer;
beforeAll(async () => { fx = await startFixtureServer(); });
afterAll(async () => { await fx?.close(); });

const CLUSTER_ENV = {
  LEASE_TTL_MS: '3000',
  HEARTBEAT_MS: '1000',
  REAP_INTERVAL_MS: '1000',
  POOL_MAX_CONTEXTS: '4',
  POOL_MAX_CONTEXTS_PER_BROWSER: '4',
};

/** The Redis lease count equals the contexts live on the live nodes. */
async function slotCounts(nodes: Api[]): Promise<{ redis: number; live: number }> {
  const pressure = await nodes[0].get('/v1/pressure');
  const pools = await Promise.all(nodes.map((n) => n.get('/v1/pool')));
  return { redis: pressure.body.clusterLeased, live: pools.reduce((s, p) => s + p.body.leased, 0) };
}

describe('two nodes, one Redis', () => {
  let redis: TestRedis;
  let a: ServerProcess;
  let b: ServerProcess;

  beforeAll(async () => {
    redis = await startRedis();
    [a, b] = await Promise.all([
      spawnServer({ env: { ...CLUSTER_ENV, REDIS_URL: redis.url, NODE_ID: 'node-a' } }),
      spawnServer({ env: { ...CLUSTER_ENV, REDIS_URL: redis.url, NODE_ID: 'node-b' } }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([a && destroyServer(a), b && destroyServer(b)]);
    await redis?.destroy();
  });

  it('uses and deletes through node B a session created on node A', async () => {
    const id = await a.api.createSession({ roles: [{ name: 'admin' }, { name: 'customer' }] });
    const viaB = await b.api.get(`/v1/sessions/${id}`);
    expect(viaB.status).toBe(200);
    expect(viaB.body.node).toBe('node-a');
    expect(viaB.body.roles.map((r: any) => r.name)).toEqual(['admin', 'customer']);

    const nav = await b.api.action(id, { action: 'navigate', url: `${fx.url}/products.html` }, 'admin');
    expect(nav.status).toBe(200);
    // The request id follows the request to the owning node.
    const rid = 'trace-' + Date.now();
    const snap = await b.api.request('GET', `/v1/sessions/${id}/roles/admin/snapshot`, undefined, { 'x-request-id': rid });
    expect(snap.headers.get('x-request-id')).toBe(rid);
    const ref = refOf(snap.body.snapshot, 'button', 'Add to Cart');
    expect((await b.api.action(id, { action: 'click', ref }, 'admin')).body.target.ref).toBe(ref);
    // Errors come back from the owner unchanged.
    expect((await b.api.action(id, { action: 'click', ref: 'e99999' }, 'admin')).body.error.code).toBe('ref_not_found');
    expect(a.output()).toContain(rid);

    expect((await a.api.get('/v1/pool')).body.leased).toBe(2);
    expect((await b.api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    expect((await a.api.get('/v1/pool')).body.leased).toBe(0);
    expect((await b.api.get(`/v1/sessions/${id}`)).body.error.code).toBe('session_closed');
    expect((await a.api.get(`/v1/sessions/${id}`)).body.error.code).toBe('session_closed');
  });

  it("lists both nodes' sessions from either node", async () => {
    const onA = await a.api.createSession();
    const onB = await b.api.createSession();
    for (const node of [a, b]) {
      const list = await node.api.get('/v1/sessions');
      const ids = list.body.sessions.map((s: any) => s.id);
      expect(ids).toEqual(expect.arrayContaining([onA, onB]));
      expect(new Set(list.body.sessions.map((s: any) => s.node))).toEqual(new Set(['node-a', 'node-b']));
    }
    await a.api.delete(`/v1/sessions/${onB}`);
    await b.api.delete(`/v1/sessions/${onA}`);
    expect((await a.api.get('/v1/sessions')).body.total).toBe(0);
  });

  it('streams a session of node A through node B', async () => {
    const id = await a.api.createSession();
    const c = StreamClient.connect(b.url, id);
    await c.waitFor((m) => m.event === 'hello');
    const nav = await c.call('action', { action: 'navigate', url: `${fx.url}/login.html` });
    expect(nav.result.ok).toBe(true);
    await c.waitFor((m) => m.event === 'navigation' && m.data.url.endsWith('/login.html'));
    expect((await c.call('snapshot', {})).result.snapshot).toContain('Welcome back');
    await a.api.delete(`/v1/sessions/${id}`);
    expect((await c.closed).code).toBe(4410);
  });

  it('keeps the Redis slot count equal to the live contexts, and loses a killed node\'s sessions', async () => {
    const mine = [await a.api.createSession(), await a.api.createSession({ roles: [{ name: 'x' }, { name: 'y' }] })];
    const theirs = await b.api.createSession();
    // A queued create that times out, a delete, a bad request: none may leak a slot.
    await b.api.post('/v1/sessions', { roles: [{ name: 'bad name!' }] });
    await a.api.delete(`/v1/sessions/${mine[0]}`);
    await waitUntil(async () => { const c = await slotCounts([a.api, b.api]); return c.redis === c.live && c.live === 3; }, 10_000, 'slot counts to agree');

    // Kill node A outright: no goodbye, no lease release.
    const browsers = a.chromiumPids();
    a.child.kill('SIGKILL');
    await a.exited;
    const killedAt = Date.now();
    await waitUntil(async () => (await b.api.get(`/v1/sessions/${mine[1]}`)).body.error?.code === 'session_lost', 15_000, 'A\'s session to be lost');
    const lostAfter = Date.now() - killedAt;
    // TTL (3 s) + grace (2 heartbeats) + one reap interval.
    expect(lostAfter).toBeLessThan(3000 + 2000 + 1000 + 2000);
    expect((await b.api.action(mine[1], { action: 'reload' }, 'x')).body.error.code).toBe('session_lost');
    // Its slots returned to the cluster count; B's session is untouched.
    await waitUntil(async () => { const c = await slotCounts([b.api]); return c.redis === c.live && c.live === 1; }, 10_000, 'A\'s slots to be freed');
    expect((await b.api.snapshot(theirs)).status).toBe(200);
    expect((await b.api.get('/v1/sessions')).body.sessions.map((s: any) => s.id)).toEqual([theirs]);
    killPids(browsers);
    await b.api.delete(`/v1/sessions/${theirs}`);
  });
});

describe('admission queue', () => {
  let svc: TestService;
  const KEY_A = 'tenant-a-key-0123456789';
  const KEY_B = 'tenant-b-key-0123456789';

  beforeAll(async () => {
    svc = await startTestService({
      POOL_MAX_CONTEXTS: '2', POOL_MAX_CONTEXTS_PER_BROWSER: '2', POOL_WARM_CONTEXTS: '0', QUEUE_MAX: '3',
      API_KEYS: `${KEY_A}:a,${KEY_B}:b`,
      // This file tests the shared queue itself: no per-tenant shares (tests/security/tenancy-*).
      TENANT_MAX_CONTEXTS: '0', TENANT_MAX_QUEUED: '0',
    });
  });
  afterAll(async () => { await svc?.stop(); });

  const apiA = () => svc.api.withToken(KEY_A);
  const apiB = () => svc.api.withToken(KEY_B);
  const queued = async () => (await apiA().get('/v1/pressure')).body.queued;

  it('admits two, queues three in order, rejects one with 429, then times out the rest', async () => {
    const results: { i: number; status: number; id?: string; at: number; retryAfter?: string | null; error?: unknown }[] = [];
    const fire = (i: number) => apiA().post('/v1/sessions', { queueTimeoutSeconds: 60, metadata: { i: String(i) } }).then((r) => {
      results.push({ i, status: r.status, id: r.body.id, at: Date.now(), retryAfter: r.headers.get('retry-after'), error: r.body.error });
      return r;
    });
    const pending: Promise<unknown>[] = [];
    for (let i = 1; i <= 6; i++) {
      pending.push(fire(i));
      await new Promise((r) => setTimeout(r, 150));
    }
    await waitUntil(() => results.length >= 3, 15_000, 'two admitted and one rejected');
    // The first two are admitted at once (they may finish in either order).
    expect(results.filter((r) => r.status === 201).map((r) => r.i).sort(), JSON.stringify(results)).toEqual([1, 2]);
    const rejected = results.filter((r) => r.status === 429);
    expect(rejected.map((r) => r.i)).toEqual([6]);
    expect(Number(rejected[0].retryAfter)).toBeGreaterThan(0);
    expect(await queued()).toBe(3);

    // Free one slot at a time: the queued ones are admitted in the order they came.
    for (const expected of [3, 4, 5]) {
      const admitted = results.filter((r) => r.status === 201);
      await apiA().delete(`/v1/sessions/${admitted[0].id}`);
      results.splice(results.indexOf(admitted[0]), 1);
      await waitUntil(() => results.some((r) => r.i === expected), 15_000, `request ${expected} to be admitted`);
      expect(results.find((r) => r.i === expected)!.status, JSON.stringify(results)).toBe(201);
    }
    await Promise.all(pending);
    expect(await queued()).toBe(0);

    // Full again, and nothing frees: queued requests time out with 503.
    const t0 = Date.now();
    const late = await Promise.all([1, 2].map(() => apiA().post('/v1/sessions', { queueTimeoutSeconds: 2 })));
    for (const r of late) expect(r.body.error.code).toBe('queue_timeout');
    expect(late[0].status).toBe(503);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1900);
    expect(await queued()).toBe(0);
    for (const r of results.filter((x) => x.status === 201)) await apiA().delete(`/v1/sessions/${r.id}`);
    expect((await apiA().get('/v1/pool')).body.leased).toBe(0);
  });

  it('promises a free slot once: concurrent creates beyond capacity queue, none fails for a slot taken meanwhile', async () => {
    // Each create checks the tenant's quota in Redis before it opens a context; the slot
    // must be held from the moment it is counted, or a second create is let in for it.
    const answers = await Promise.all([1, 2, 3, 4].map(() => apiA().post('/v1/sessions', { queueTimeoutSeconds: 2 })));
    const codes = answers.map((r) => (r.status === 201 ? 'created' : r.body.error.code)).sort();
    expect(codes, JSON.stringify(answers.map((r) => r.body))).toEqual(['created', 'created', 'queue_timeout', 'queue_timeout']);
    for (const r of answers.filter((x) => x.status === 201)) await apiA().delete(`/v1/sessions/${r.body.id}`);
    await waitUntil(async () => (await apiA().get('/v1/pool')).body.leased === 0, 10_000, 'the contexts to close');
  });

  it('takes a request that disconnects out of the queue', async () => {
    const held = [await apiA().createSession(), await apiA().createSession()];
    const abort = new AbortController();
    const gone = fetch(`${svc.url}/v1/sessions`, {
      method: 'POST', signal: abort.signal,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY_A}` },
      body: JSON.stringify({ queueTimeoutSeconds: 60 }),
    }).catch((e) => e);
    await waitUntil(async () => (await queued()) === 1, 5000, 'the request to queue');
    abort.abort();
    await gone;
    await waitUntil(async () => (await queued()) === 0, 5000, 'the request to leave the queue');
    await apiA().delete(`/v1/sessions/${held[0]}`);
    await new Promise((r) => setTimeout(r, 1500));
    // Nobody was admitted for the client that left.
    expect((await apiA().get('/v1/sessions')).body.total).toBe(1);
    await apiA().delete(`/v1/sessions/${held[1]}`);
  });

  // Known regression after the wave-2 merges (browser per tenant, bounded DELETE): with
  // POOL_ISOLATION=tenant a freed context is taken by the next request of the same tenant
  // (a2) before the other tenant's first request (b1), which needs a browser of its own.
  // Filed as an issue; re-enable with the fix.
  it('is fair across tenants: one tenant cannot starve another', async () => {
    const held = [await apiA().createSession(), await apiA().createSession()];
    const order: string[] = [];
    const sessions: { api: Api; id: string }[] = [];
    const fire = (api: Api, label: string) => api.post('/v1/sessions', { queueTimeoutSeconds: 60 }).then((r) => {
      order.push(label);
      sessions.push({ api, id: r.body.id });
    });
    const pending = [fire(apiA(), 'a1')];
    await new Promise((r) => setTimeout(r, 150));
    pending.push(fire(apiA(), 'a2'));
    await new Promise((r) => setTimeout(r, 150));
    pending.push(fire(apiB(), 'b1'));
    await waitUntil(async () => (await queued()) === 3, 5000, 'three queued');
    for (let i = 0; i < 3; i++) {
      const next = i < 2 ? { api: apiA(), id: held[i] } : sessions.shift()!;
      await next.api.delete(`/v1/sessions/${next.id}`);
      await waitUntil(() => order.length === i + 1, 15_000, 'the next admission');
    }
    // b1 came after a2 but is tenant b's first request: it goes ahead of a2.
    expect(order).toEqual(['a1', 'b1', 'a2']);
    await Promise.all(pending);
    for (const s of sessions) await s.api.delete(`/v1/sessions/${s.id}`);
  });
});

describe('Redis restarted under load', () => {
  let redis: TestRedis;
  let svc: TestService;

  beforeAll(async () => {
    redis = await startRedis();
    svc = await startTestService({ REDIS_URL: redis.url, ...CLUSTER_ENV });
  });
  afterAll(async () => {
    await svc?.stop();
    await redis?.destroy();
  });

  it('answers 503 while Redis is down, recovers by itself, and corrupts nothing', async () => {
    const ids = [await svc.api.createSession(), await svc.api.createSession({ roles: [{ name: 'r1' }, { name: 'r2' }] })];
    await svc.api.action(ids[0], { action: 'navigate', url: `${fx.url}/products.html` });

    // Load: a loop of snapshots and listings running through the whole restart.
    const statuses = new Map<number, number>();
    let stop = false;
    const load = (async () => {
      while (!stop) {
        const [s, l] = await Promise.all([svc.api.snapshot(ids[0]), svc.api.get('/v1/sessions')]);
        for (const r of [s, l]) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    })();

    await new Promise((r) => setTimeout(r, 500));
    await redis.stop('SIGKILL');
    const down = await svc.api.get('/v1/sessions');
    expect(down.status).toBe(503);
    expect(down.body.error.code).toBe('redis_unavailable');
    expect((await svc.api.post('/v1/sessions', {})).body.error.code).toBe('redis_unavailable');
    expect((await svc.api.get('/readyz')).status).toBe(503);
    // A live session keeps working: its browsers are here, not in Redis.
    expect((await svc.api.snapshot(ids[0])).status).toBe(200);
    await new Promise((r) => setTimeout(r, 1500));

    await redis.start();
    await waitUntil(async () => (await svc.api.get('/v1/sessions')).status === 200, 20_000, 'the service to recover');
    stop = true;
    await load;
    // Only 200s and 503s: never a 500, never a hang.
    expect([...statuses.keys()].every((s) => s === 200 || s === 503)).toBe(true);
    expect(statuses.get(503)).toBeGreaterThan(0);

    const list = await svc.api.get('/v1/sessions');
    expect(list.body.sessions.map((s: any) => s.id).sort()).toEqual([...ids].sort());
    expect(list.body.sessions.every((s: any) => s.status === 'active')).toBe(true);
    await waitUntil(async () => { const c = await slotCounts([svc.api]); return c.redis === c.live && c.live === 3; }, 10_000, 'slot counts to agree');
    expect((await svc.api.get('/readyz')).status).toBe(200);
    const fresh = await svc.api.createSession();
    await waitUntil(async () => { const c = await slotCounts([svc.api]); return c.redis === 4 && c.live === 4; }, 10_000, 'the new lease to count');
    for (const id of [...ids, fresh]) expect((await svc.api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    await waitUntil(async () => { const c = await slotCounts([svc.api]); return c.redis === 0 && c.live === 0; }, 10_000, 'all slots free');
  });
});
