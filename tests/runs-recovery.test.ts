import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { destroyServer, killPids, spawnServer, waitUntil, type ServerProcess } from './helpers/process.js';
import { startRedis, type TestRedis } from './helpers/redis-server.js';

// Runs survive their infrastructure: a server (whose inline worker runs the run) killed
// with SIGKILL mid-run gives the run back through BullMQ's stalled-job check, and
// another node runs it again to the end (attempts: 2) — never left "running"; runs and
// reports survive a Redis restart (AOF) and a restart of the server.

let redis: TestRedis;
let fx: FixtureServer;
const procs: ServerProcess[] = [];

const ENV = { HEARTBEAT_MS: '500', LEASE_TTL_MS: '2000', REAP_INTERVAL_MS: '500', RUN_ASSERT_TIMEOUT_MS: '3000', JOB_LOCK_MS: '4000' };

beforeAll(async () => {
  [redis, fx] = await Promise.all([startRedis(), startFixtureServer()]);
});
afterAll(async () => {
  await Promise.all(procs.map((p) => destroyServer(p)));
  await redis?.destroy();
  await fx?.close();
});

async function node(id: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const p = await spawnServer({ env: { ...ENV, REDIS_URL: redis.url, NODE_ID: id, ...env } });
  procs.push(p);
  return p;
}

describe('run recovery', () => {
  it('a run whose worker is killed mid-run is given back and finished by another node', async () => {
    const a = await node('runner-a');
    const res = await a.api.post('/v1/runs', {
      url: `${fx.url}/app/products.html`,
      plan: '#Case 1: slow\n- Wait 4 seconds\n- Verify "Products" is visible\n- Click "Add to cart" in the "Blue Mug" card\n- Verify "Added Blue Mug to the cart" is visible',
      options: { trace: false },
    });
    expect(res.status).toBe(202);
    const id = res.body.id;
    await waitUntil(async () => (await a.api.get(`/v1/runs/${id}`)).body.status === 'running', 20_000, 'the run to start on node A');
    const browsers = a.chromiumPids();
    a.child.kill('SIGKILL');
    await a.exited;
    killPids(browsers);

    // Node B: its worker finds the stalled job once A's lock expires, and runs it again.
    const b = await node('runner-b');
    const mid = await b.api.get(`/v1/runs/${id}`);
    expect(mid.body.status).toBe('running');
    const run = await waitUntil(async () => {
      const r = await b.api.get(`/v1/runs/${id}`);
      return ['queued', 'running'].includes(r.body.status) ? null : r.body;
    }, 75_000, 'the run to be finished by node B', 500);
    expect(run.status, JSON.stringify(run.report?.cases?.[0]?.steps?.filter((s: any) => s.error))).toBe('passed');
    expect(run.attempts).toBe(2);
    const events = (await b.api.get(`/v1/runs/${id}/events`)).body as string;
    expect(events).toContain('event: run_restarted');
    expect((await b.api.get('/v1/pool')).body.leased).toBe(0);
    // Its workers must not take the next test's runs.
    await destroyServer(b);
    procs.splice(procs.indexOf(b), 1);
  }, 100_000);

  it('runs and reports survive a Redis restart and a server restart; any node serves them', async () => {
    // d runs no workers: the run executes on c, and d answers for it (artifacts forwarded).
    let [c, d] = await Promise.all([node('keeper'), node('reader', { WORKER_MODE: 'off' })]);
    const res = await d.api.post('/v1/runs', { url: `${fx.url}/app/products.html`, plan: '- Verify "Products" is visible', options: { trace: false } });
    const id = res.body.id;
    await waitUntil(async () => (await d.api.get(`/v1/runs/${id}`)).body.status === 'passed', 30_000, 'the run to pass');
    expect((await d.api.get(`/v1/runs/${id}`)).body.report).toBeTruthy();
    const shot = (await d.api.get(`/v1/runs/${id}`)).body.report.cases[0].steps[0].screenshot;
    const img = await d.api.get(`/v1/runs/${id}/artifacts/${shot}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect((await d.api.get(`/v1/runs/${id}`)).body.report.cases[0].steps[0]).toBeTruthy();
    await redis.stop('SIGKILL');
    await redis.start();
    const after = await waitUntil(async () => {
      const r = await c.api.get(`/v1/runs/${id}`);
      return r.status === 200 ? r.body : null;
    }, 20_000, 'the run to be readable after the Redis restart');
    expect(after).toMatchObject({ status: 'passed', report: { totals: { cases: 1, passed: 1 } } });

    await destroyServer(c);
    // The node that ran it is gone, and its artifacts with it: said plainly (502 while its
    // node record still looks alive, 404 once it is known dead), never a 500.
    const gone = await d.api.get(`/v1/runs/${id}/artifacts/${shot}`);
    expect(gone.body.error, `status ${gone.status}`).toBeDefined();
    expect([[404, 'not_found'], [502, 'node_unreachable']]).toContainEqual([gone.status, gone.body.error.code]);
    c = await node('keeper-2');
    const again = await c.api.get(`/v1/runs/${id}`);
    expect(again.body).toMatchObject({ status: 'passed', report: { totals: { passed: 1 } } });
    expect((await c.api.get(`/v1/runs/${id}/junit`)).body).toContain('failures="0"');
    // And the new node takes new runs.
    const next = await c.api.post('/v1/runs', { url: `${fx.url}/app/products.html`, plan: '- Verify "Products" is visible', options: { trace: false } });
    await waitUntil(async () => (await c.api.get(`/v1/runs/${next.body.id}`)).body.status === 'passed', 30_000, 'a new run to pass');
  }, 90_000);
});
