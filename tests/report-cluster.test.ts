import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { destroyServer, spawnServer, type ServerProcess } from './helpers/process.js';
import { startRedis, type TestRedis } from './helpers/redis-server.js';

// A signed report link given out by one node opens on any node of the cluster (the
// signing key is shared through Redis when there is no SECRETS_KEY), and the page's
// signed screenshots load from a node that did not run the run (forwarded to the node
// that keeps them, signature and all).

const KEY = 'report-cluster-key-aaaaaaaaaaaa';

describe('report links across two nodes', () => {
  let redis: TestRedis;
  let fx: FixtureServer;
  let a: ServerProcess;
  let b: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    [redis, fx] = await Promise.all([startRedis(), startFixtureServer()]);
    const env = { REDIS_URL: redis.url, API_KEYS: `${KEY}:tenant-a`, EGRESS_ALLOW: '127.0.0.1/32', RUN_ASSERT_TIMEOUT_MS: '2000' };
    [a, b] = await Promise.all([
      spawnServer({ env: { ...env, NODE_ID: 'node-a' }, readyTimeoutMs: 150_000 }),
      spawnServer({ env: { ...env, NODE_ID: 'node-b' }, readyTimeoutMs: 150_000 }),
    ]);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  }, 200_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([a && destroyServer(a), b && destroyServer(b)]);
    await redis?.destroy();
    await fx?.close();
  });

  it('a link from node A opens the page and its screenshots on both nodes', async () => {
    const api = a.api.withToken(KEY);
    const res = await api.post('/v1/runs', {
      url: `${fx.url}/report/shop.html`,
      plan: '#Case 1: Add to the cart\n- Click the "Add to cart" button\n- Verify "Cart: 9" is visible',
      options: { trace: false },
    });
    expect(res.status).toBe(202);
    let run: any;
    for (const deadline = Date.now() + 90_000; ;) {
      run = (await api.get(`/v1/runs/${res.body.id}`)).body;
      if (!['queued', 'running'].includes(run.status)) break;
      if (Date.now() > deadline) throw new Error(`run still ${run.status}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(run.status).toBe('failed');
    const link = await api.post(`/v1/runs/${run.id}/report-link`, { ttlSeconds: 600 });
    expect(link.status).toBe(200);
    const query = new URL(link.body.url).search;

    for (const node of [a, b]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const page = await context.newPage();
        const failed: string[] = [];
        page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
        const nav = await page.goto(`${node.url}/v1/runs/${run.id}/report${query}`);
        expect(nav?.status(), node.url).toBe(200);
        expect(await page.locator('#summary .failing-step').textContent()).toContain('Verify "Cart: 9" is visible');
        const imgs = page.locator('img');
        const count = await imgs.count();
        expect(count).toBeGreaterThanOrEqual(2);
        for (let i = 0; i < count; i++) {
          await imgs.nth(i).scrollIntoViewIfNeeded();
          await expect.poll(() => imgs.nth(i).evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), { timeout: 15_000 }).toBe(true);
        }
        expect(failed).toEqual([]);
      } finally {
        await context.close();
      }
    }
  });
});
