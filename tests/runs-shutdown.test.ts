import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '@ariadne/flows';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { destroyServer, spawnServer, waitUntil, type ServerProcess } from './helpers/process.js';
import { startRedis, type TestRedis } from './helpers/redis-server.js';

// A graceful shutdown (SIGTERM) in the middle of a run: the node waits its grace period,
// then ends its sessions; the run cut short that way is handed back, not failed (its
// record stays "running" with the partial report and a run_interrupted event), and the
// next node's worker takes it over and finishes it.

let redis: TestRedis;
let fx: FixtureServer;
const procs: ServerProcess[] = [];

beforeAll(async () => {
  [redis, fx] = await Promise.all([startRedis(), startFixtureServer()]);
});
// Each test's nodes go before the next test: a node left running would take its run.
afterEach(async () => {
  await Promise.all(procs.splice(0).map((p) => destroyServer(p)));
});
afterAll(async () => {
  await redis?.destroy();
  await fx?.close();
});

const ENV = { HEARTBEAT_MS: '500', LEASE_TTL_MS: '2000', REAP_INTERVAL_MS: '500', SHUTDOWN_TIMEOUT_MS: '1000' };

/** A second node takes the handed-back run over and it passes, on its second attempt. */
async function expectFinishedByAnotherNode(id: string, nodeId: string): Promise<void> {
  const b = await spawnServer({ env: { ...ENV, REDIS_URL: redis.url, NODE_ID: nodeId } });
  procs.push(b);
  const run = await waitUntil(async () => {
    const r = await b.api.get(`/v1/runs/${id}`);
    return ['queued', 'running'].includes(r.body.status) ? null : r.body;
  }, 75_000, 'node B to finish the run', 500);
  expect(run.status).toBe('passed');
  expect(run.attempts).toBe(2);
}

describe('graceful shutdown mid-run', () => {
  it('hands the run back, and another node finishes it', async () => {
    const a = await spawnServer({ env: { ...ENV, REDIS_URL: redis.url, NODE_ID: 'stopping-a' } });
    procs.push(a);
    const res = await a.api.post('/v1/runs', {
      url: `${fx.url}/app/products.html`,
      plan: '#Case 1: slow\n- Wait 3 seconds\n- Wait 3 seconds\n- Verify "Products" is visible',
      options: { trace: false },
    });
    const id = res.body.id;
    await waitUntil(async () => (await a.api.get(`/v1/runs/${id}`)).body.status === 'running', 20_000, 'the run to start');
    a.child.kill('SIGTERM');
    const exit = await a.exited;
    expect(exit.code).toBe(0);

    const client = new Redis(redis.url);
    try {
      const store = new RunStore(client, 'ariadne:', 600);
      const rec = await store.get(id);
      expect(rec?.status, JSON.stringify(rec?.report?.cases?.map((c) => [c.status, c.summary, c.error, c.steps.map((s) => [s.action, s.status, s.error?.code, s.error?.message])]))).toBe('running');
      expect((await store.events(id, 0)).map((e) => e.type)).toContain('run_interrupted');
    } finally {
      client.disconnect();
    }

    await expectFinishedByAnotherNode(id, 'taking-over-b');
  }, 100_000);

  it('hands the run back when the shutdown lands before its first step (during the start page)', async () => {
    const a = await spawnServer({ env: { ...ENV, REDIS_URL: redis.url, NODE_ID: 'stopping-early-a' } });
    procs.push(a);
    // The start page answers after 6 s: SIGTERM lands while the run opens it.
    const res = await a.api.post('/v1/runs', {
      url: `${fx.url}/slow?ms=6000&as=html`,
      plan: '#Case 1: slow start\n- Verify "Slow page" is visible',
      options: { trace: false },
    });
    const id = res.body.id;
    await waitUntil(async () => (await a.api.get(`/v1/runs/${id}`)).body.status === 'running', 20_000, 'the run to start');
    await new Promise((r) => setTimeout(r, 500));
    a.child.kill('SIGTERM');
    expect((await a.exited).code).toBe(0);

    const client = new Redis(redis.url);
    try {
      const rec = await new RunStore(client, 'ariadne:', 600).get(id);
      expect(rec?.status, JSON.stringify({ error: rec?.report?.error, cases: rec?.report?.cases?.map((c) => [c.status, c.summary]) })).toBe('running');
    } finally {
      client.disconnect();
    }
    await expectFinishedByAnotherNode(id, 'taking-over-early-b');
  }, 100_000);
});
