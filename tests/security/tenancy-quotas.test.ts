import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type Api, type TestService } from '../helpers/service.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { waitUntil } from '../helpers/process.js';

// Issue 10, item 6: one tenant must not hold every context and starve the others.
// Attacked over HTTP with three API keys, as a greedy tenant and its neighbours would.
// Pool: 8 contexts; the default per-tenant share is 75% of it (6 contexts).

const KEY_GREEDY = 'tenancy-quota-greedy-0123456789';
const KEY_OTHER = 'tenancy-quota-other-01234567890';
const KEY_RATED = 'tenancy-quota-rated-01234567890';

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({
      API_KEYS: `${KEY_GREEDY}:greedy:max_sessions=50,${KEY_OTHER}:other:max_queued=1:max_runs=1,${KEY_RATED}:rated:sessions_per_minute=2`,
      POOL_BROWSERS: '1',
      POOL_MAX_CONTEXTS: '8',
      POOL_MAX_CONTEXTS_PER_BROWSER: '8',
      POOL_WARM_CONTEXTS: '1',
      QUEUE_TIMEOUT_SECONDS: '0',
    }),
    startFixtureServer(),
  ]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const greedy = () => svc.api.withToken(KEY_GREEDY);
const other = () => svc.api.withToken(KEY_OTHER);
const rated = () => svc.api.withToken(KEY_RATED);

function expect429(res: { status: number; body: any; headers: Headers }, code: string, quota: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(429);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.details.quota).toBe(quota);
  const retry = Number(res.headers.get('retry-after'));
  expect(retry).toBeGreaterThanOrEqual(1);
  expect(retry).toBeLessThanOrEqual(60);
}

const held: { api: () => Api; id: string }[] = [];

describe('per-tenant quotas', () => {
  it('a greedy tenant cannot take another tenant\'s guaranteed share', async () => {
    // The greedy tenant grabs what it can, as fast as it can.
    const grabs = await Promise.all(Array.from({ length: 10 }, () => greedy().post('/v1/sessions', {})));
    const won = grabs.filter((r) => r.status === 201);
    expect(won).toHaveLength(6);
    for (const r of won) held.push({ api: greedy, id: r.body.id });
    for (const r of grabs.filter((x) => x.status !== 201)) expect429(r, 'quota_exceeded', 'max_contexts');
    // A two-role session counts two contexts.
    expect429(await greedy().post('/v1/sessions', { roles: [{ name: 'a' }, { name: 'b' }] }), 'quota_exceeded', 'max_contexts');
    // Nor can it add roles beyond its share.
    const addRole = await greedy().post(`/v1/sessions/${won[0].body.id}/roles`, { name: 'extra' });
    expect429(addRole, 'quota_exceeded', 'max_contexts');

    // The other tenant still gets the rest of the pool.
    for (let i = 0; i < 2; i++) {
      const r = await other().post('/v1/sessions', {});
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      held.push({ api: other, id: r.body.id });
    }
    const q = (await greedy().get('/v1/quota')).body;
    expect(q).toMatchObject({ tenant: 'greedy', limits: { max_contexts: 6, max_sessions: 50 }, usage: { sessions: 6, contexts: 6 } });
    expect((await other().get('/v1/quota')).body.usage).toMatchObject({ sessions: 2, contexts: 2 });
  });

  it('caps the requests one tenant may have waiting in the admission queue', async () => {
    // The pool is full (6 + 2). One request of "other" may wait; the second is refused at once.
    const waiting = other().post('/v1/sessions', { queueTimeoutSeconds: 30 });
    await waitUntil(async () => (await greedy().get('/v1/pressure')).body.queued === 1, 10_000, 'the request to queue');
    const t0 = Date.now();
    expect429(await other().post('/v1/sessions', { queueTimeoutSeconds: 30 }), 'quota_exceeded', 'max_queued');
    expect(Date.now() - t0).toBeLessThan(5000);
    // A slot frees: the queued request is admitted.
    const freed = held.shift()!;
    expect((await freed.api().delete(`/v1/sessions/${freed.id}`)).status).toBe(204);
    const admitted = await waiting;
    expect(admitted.status, JSON.stringify(admitted.body)).toBe(201);
    held.push({ api: other, id: admitted.body.id });
  });

  it('counts return to zero after deletes, and the share is free again', async () => {
    for (const h of held.splice(0)) expect((await h.api().delete(`/v1/sessions/${h.id}`)).status).toBe(204);
    for (const api of [greedy, other]) {
      expect((await api().get('/v1/quota')).body.usage).toMatchObject({ sessions: 0, contexts: 0 });
    }
    expect((await svc.api.withToken(KEY_GREEDY).get('/v1/pool')).body.leased).toBe(0);
    const again = await greedy().post('/v1/sessions', { roles: [{ name: 'a' }, { name: 'b' }] });
    expect(again.status).toBe(201);
    expect((await greedy().get('/v1/quota')).body.usage).toMatchObject({ sessions: 1, contexts: 2 });
    // Removing a role gives its context back.
    expect((await greedy().delete(`/v1/sessions/${again.body.id}/roles/b`)).status).toBe(200);
    expect((await greedy().get('/v1/quota')).body.usage).toMatchObject({ sessions: 1, contexts: 1 });
    expect((await greedy().delete(`/v1/sessions/${again.body.id}`)).status).toBe(204);
    expect((await greedy().get('/v1/quota')).body.usage).toMatchObject({ sessions: 0, contexts: 0 });
  });

  it('limits the rate of session creation per tenant (429 rate_limited with Retry-After)', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await rated().post('/v1/sessions', {});
      expect(r.status).toBe(201);
      expect((await rated().delete(`/v1/sessions/${r.body.id}`)).status).toBe(204);
    }
    const third = await rated().post('/v1/sessions', {});
    expect429(third, 'rate_limited', 'sessions_per_minute');
    // Another tenant is not slowed by it.
    const r = await greedy().post('/v1/sessions', {});
    expect(r.status).toBe(201);
    await greedy().delete(`/v1/sessions/${r.body.id}`);
  });

  it('caps flow runs queued or running per tenant', async () => {
    const body = { url: `${fx.url}/app/login.html`, plan: '#Case 1: open\n- Verify the page shows "Sign in"', options: { trace: false, screenshots: false } };
    const first = await other().post('/v1/runs', body);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect429(await other().post('/v1/runs', body), 'quota_exceeded', 'max_runs');
    await waitUntil(async () => {
      const r = await other().get(`/v1/runs/${first.body.id}`);
      return !['queued', 'running'].includes(r.body.status);
    }, 60_000, 'the first run to finish');
    const next = await other().post('/v1/runs', body);
    expect(next.status, JSON.stringify(next.body)).toBe(202);
    await waitUntil(async () => !['queued', 'running'].includes((await other().get(`/v1/runs/${next.body.id}`)).body.status), 60_000, 'the second run to finish');
  });
});
