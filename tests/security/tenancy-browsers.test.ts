import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, startService } from '@ariadne/server';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestService, type TestService } from '../helpers/service.js';
import { browserProcesses, isAlive, processTable, waitUntil } from '../helpers/process.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';

// Issue 10, item 8: contexts of different tenants never share a Chromium process.
// Attacked over HTTP with two API keys, as two tenants would: each tenant's sessions
// report their browser, and /v1/pool and /proc say which process that is.

const KEY_A = 'tenancy-browsers-key-a-0123456789';
const KEY_B = 'tenancy-browsers-key-b-0123456789';

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({
      API_KEYS: `${KEY_A}:alpha,${KEY_B}:beta`,
      POOL_BROWSERS: '1',
      POOL_WARM_CONTEXTS: '1',
      POOL_TENANT_BROWSER_IDLE_SECONDS: '2',
    }),
    startFixtureServer(),
  ]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const apiA = () => svc.api.withToken(KEY_A);
const apiB = () => svc.api.withToken(KEY_B);

describe('tenant browser isolation', () => {
  it('places two tenants on different Chromium processes, and a tenant\'s sessions on its own', async () => {
    const a1 = await apiA().post('/v1/sessions', {});
    const b1 = await apiB().post('/v1/sessions', {});
    const a2 = await apiA().post('/v1/sessions', { roles: [{ name: 'admin' }, { name: 'guest', userAgent: 'AriadneTest/fresh' }] });
    expect(a1.status, JSON.stringify(a1.body)).toBe(201);
    expect(b1.status, JSON.stringify(b1.body)).toBe(201);
    expect(a2.status, JSON.stringify(a2.body)).toBe(201);

    const browserOfA = a1.body.roles[0].browserId;
    const browserOfB = b1.body.roles[0].browserId;
    expect(browserOfB).not.toBe(browserOfA);
    // Every context of tenant alpha is on alpha's browser, warm or fresh.
    for (const r of a2.body.roles) expect(r.browserId).toBe(browserOfA);

    const pool = (await svc.api.withToken(KEY_A).get('/v1/pool')).body;
    expect(pool.isolation).toBe('tenant');
    const pidOf = (id: string) => pool.browsers.find((b: any) => b.id === id)?.pid;
    expect(pidOf(browserOfA)).toBeGreaterThan(0);
    expect(pidOf(browserOfB)).toBeGreaterThan(0);
    expect(pidOf(browserOfA)).not.toBe(pidOf(browserOfB));
    for (const id of [browserOfA, browserOfB]) expect(pool.browsers.find((b: any) => b.id === id).dedicated).toBe(true);

    // Page side: each tenant's page runs in a renderer under its own browser process.
    expect((await apiA().action(a1.body.id, { action: 'navigate', url: `${fx.url}/index.html` })).status).toBe(200);
    expect((await apiB().action(b1.body.id, { action: 'navigate', url: `${fx.url}/index.html` })).status).toBe(200);
    const treeA = browserProcesses([browserOfA]);
    const treeB = browserProcesses([browserOfB]);
    expect(treeA.length).toBeGreaterThan(1);
    expect(treeB.length).toBeGreaterThan(1);
    expect(treeA.filter((p) => treeB.includes(p))).toEqual([]);
    const table = processTable();
    const renderers = (tree: number[]) => tree.filter((p) => table.get(p)?.cmdline.includes('--type=renderer'));
    expect(renderers(treeA).length).toBeGreaterThan(0);
    expect(renderers(treeB).length).toBeGreaterThan(0);

    for (const [api, id] of [[apiA(), a1.body.id], [apiA(), a2.body.id], [apiB(), b1.body.id]] as const) {
      expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    }

    // An idle tenant browser is closed (not handed to the other tenant), and its processes exit.
    const pidA = pidOf(browserOfA);
    await waitUntil(async () => {
      const p = (await apiA().get('/v1/pool')).body;
      return !p.browsers.some((b: any) => b.id === browserOfA || b.id === browserOfB);
    }, 20_000, 'the idle tenant browsers to close');
    await waitUntil(() => !isAlive(pidA), 10_000, "alpha's browser process to exit");

    // Tenant beta comes back: a browser of its own again, never alpha's old one.
    const b2 = await apiB().post('/v1/sessions', {});
    expect(b2.status).toBe(201);
    expect([browserOfA, browserOfB]).not.toContain(b2.body.roles[0].browserId);
    expect((await apiB().delete(`/v1/sessions/${b2.body.id}`)).status).toBe(204);

    // Bounded: the pool never kept more than a spare plus one browser per tenant here.
    const end = (await apiA().get('/v1/pool')).body;
    expect(end.browsers.length).toBeLessThanOrEqual(3);
    expect(end.leased).toBe(0);
  });

  it('reports whether Chromium runs sandboxed, and says why not as root', async () => {
    const pool = (await apiA().get('/v1/pool')).body;
    expect(typeof pool.sandbox).toBe('boolean');
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    if (root) expect(pool.sandbox).toBe(false);
    // The flag Chromium got matches what the pool reports.
    const main = pool.browsers[0];
    const cmd = processTable().get(main.pid)?.cmdline ?? '';
    expect(cmd.includes('--no-sandbox')).toBe(!pool.sandbox);
  });

  it('CHROMIUM_SANDBOX=on refuses to start where the sandbox cannot run (root)', async () => {
    const root = typeof process.getuid === 'function' && process.getuid() === 0;
    if (!root) return; // as a non-root user with user namespaces, "on" starts sandboxed
    const stateDir = mkdtempSync(path.join(tmpdir(), 'ariadne-test-'));
    try {
      const config = loadConfig({ PORT: '0', STATE_DIR: stateDir, LOG_LEVEL: 'silent', POOL_BROWSERS: '1', POOL_MAX_CONTEXTS: '2', POOL_WARM_CONTEXTS: '0', CHROMIUM_SANDBOX: 'on' });
      await expect(startService(config)).rejects.toThrow(/CHROMIUM_SANDBOX=on/);
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
