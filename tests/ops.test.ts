import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { destroyServer, spawnServer, waitUntil } from './helpers/process.js';
import { startRedis } from './helpers/redis-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// Operations: health, readiness, backpressure for load balancers, Prometheus metrics,
// and the standalone worker process.

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ POOL_MAX_CONTEXTS: '1', POOL_MAX_CONTEXTS_PER_BROWSER: '1', POOL_WARM_CONTEXTS: '0' }),
    startFixtureServer(),
  ]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

describe('health and pressure', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await svc.api.get('/healthz')).body).toMatchObject({ ok: true });
    expect((await svc.api.get('/readyz')).body).toMatchObject({ ready: true, redis: true });
  });

  it('says when the node cannot take work, in JSON and in plain text for load balancers', async () => {
    const free = await svc.api.get('/v1/pressure');
    expect(free.status).toBe(200);
    expect(free.body).toMatchObject({ available: true, capacity: 1, leased: 0, queued: 0, clusterCapacity: 1, nodes: 1 });
    expect(typeof free.body.cpu).toBe('number');
    const text = await svc.api.get('/v1/pressure?format=text');
    expect(text.status).toBe(200);
    expect(text.body).toMatch(/^ok /);

    const id = await svc.api.createSession();
    const full = await svc.api.get('/v1/pressure');
    expect(full.status).toBe(503);
    expect(full.body).toMatchObject({ available: false, reason: 'no_free_slots', leased: 1, clusterLeased: 1 });
    const busy = await svc.api.get('/v1/pressure?format=text');
    expect(busy.status).toBe(503);
    expect(busy.body).toMatch(/^busy: no_free_slots/);
    await svc.api.delete(`/v1/sessions/${id}`);
    expect((await svc.api.get('/v1/pressure')).status).toBe(200);
  });
});

describe('metrics', () => {
  it('exposes sessions, leases, queue, op latency histograms and errors by code', async () => {
    const id = await svc.api.createSession();
    await svc.api.action(id, { action: 'navigate', url: `${fx.url}/products.html` });
    await svc.api.snapshot(id);
    await svc.api.action(id, { action: 'click', ref: 'e99999' });
    const res = await svc.api.get('/metrics');
    expect(res.status).toBe(200);
    const text = res.body as string;
    expect(metric(text, 'ariadne_sessions')).toBe(1);
    expect(metric(text, 'ariadne_leases')).toBe(1);
    expect(metric(text, 'ariadne_cluster_leases')).toBe(1);
    expect(metric(text, 'ariadne_queue_depth')).toBe(0);
    expect(metric(text, 'ariadne_op_duration_seconds_count', { op: 'snapshot', outcome: 'ok' })).toBe(1);
    expect(metric(text, 'ariadne_op_duration_seconds_count', { op: 'action', outcome: 'ok' })).toBe(1);
    expect(metric(text, 'ariadne_op_duration_seconds_count', { op: 'action', outcome: 'ref_not_found' })).toBe(1);
    expect(metric(text, 'ariadne_errors_total', { code: 'ref_not_found' })).toBe(1);
    expect(metric(text, 'ariadne_queue_wait_seconds_count', { queued: 'false' })).toBeGreaterThan(0);
    expect(metric(text, 'ariadne_browser_restarts')).toBe(0);
    expect(text).toMatch(/^# TYPE ariadne_op_duration_seconds histogram$/m);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('standalone worker', () => {
  it('reaps a killed node\'s sessions when the workers run in their own process, and stops cleanly', async () => {
    const redis = await startRedis();
    const node = await spawnServer({ env: { REDIS_URL: redis.url, WORKER_MODE: 'off', LEASE_TTL_MS: '2000', HEARTBEAT_MS: '500', NODE_ID: 'solo' } });
    const workerMain = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/worker/dist/main.js');
    const worker = spawn(process.execPath, [workerMain], {
      env: { ...process.env, REDIS_URL: redis.url, LEASE_TTL_MS: '2000', HEARTBEAT_MS: '500', REAP_INTERVAL_MS: '500', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    worker.stdout!.on('data', (d) => { out += d; });
    worker.stderr!.on('data', (d) => { out += d; });
    const exited = new Promise<number | null>((r) => worker.once('exit', (code) => r(code)));
    try {
      await waitUntil(() => out.includes('worker ready'), 20_000, 'the worker to start');
      const id = await node.api.createSession();
      const client = redis.client();
      const status = async () => JSON.parse((await client.get(`ariadne:session:${id}`)) ?? '{}').status;
      expect(await status()).toBe('active');
      // The node dies without a word; only the standalone worker can reap it.
      const browsers = node.chromiumPids();
      node.child.kill('SIGKILL');
      await node.exited;
      await waitUntil(async () => (await status()) === 'lost', 15_000, 'the session to be marked lost');
      for (const pid of browsers) {
        try { process.kill(pid, 'SIGKILL'); } catch { /* Chromium exits by itself when its parent dies */ }
      }
      worker.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (worker.exitCode === null) worker.kill('SIGKILL');
      await destroyServer(node);
      await redis.destroy();
    }
  });
});

/** The value of one Prometheus sample, matching the given labels (any order). */
function metric(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return undefined;
}
