// Screenshots of every console page for the docs (docs/images/console-*.png): a service
// with an API key, two suites on the fixture shop (one passing, one failing) run a few
// times for real, a live session on a fixture page, then each page in Chromium, light
// scheme at desktop width, plus the suites page in the dark scheme and at phone width.
//   node scripts/console-screenshots.mjs   (after npx tsc -b)
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startBenchService, startStaticServer } from '../bench/lib.mjs';

const OUT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/images');
const KEY = `docs-${randomBytes(12).toString('hex')}`;

async function api(url, method, p, body) {
  const res = await fetch(url + p, { method, headers: { authorization: `Bearer ${KEY}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const json = await res.json().catch(() => null);
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

async function settle(url, runIds) {
  for (const id of runIds) {
    for (;;) {
      const r = await api(url, 'GET', `/v1/runs/${id}`);
      if (!['queued', 'running'].includes(r.status)) break;
      await new Promise((res) => setTimeout(res, 300));
    }
  }
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const [h, fx] = await Promise.all([startBenchService({ API_KEYS: `${KEY}:acme`, SECRETS_KEY: randomBytes(32).toString('hex'), EGRESS_ALLOW: '127.0.0.1/32', RUN_ASSERT_TIMEOUT_MS: '1000' }), startStaticServer()]);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const base = `${fx.url}/console/`;
    const good = await api(h.url, 'POST', '/v1/suites', {
      name: 'Checkout smoke', baseUrl: base, options: { trace: false },
      plans: [{ name: 'add to cart', path: 'shop.html', plan: '#Case 1: Add an item\n- Click the "Add to cart" button\n- Verify "Added to cart" is visible' }],
      schedule: { cron: '*/30 * * * *' },
      triggers: [{ type: 'github', secret: randomBytes(16).toString('hex'), environments: ['staging'] }],
    });
    const bad = await api(h.url, 'POST', '/v1/suites', {
      name: 'Order history', baseUrl: base, options: { trace: false },
      plans: [{ name: 'history', path: 'shop.html', plan: '#Case 1: See past orders\n- Click the "Add to cart" button\n- Verify "Your orders" is visible' }],
    });
    const runIds = [];
    for (let i = 0; i < 4; i++) {
      const a = await api(h.url, 'POST', `/v1/suites/${good.id}/runs`, { environment: 'staging', sha: randomBytes(20).toString('hex'), repo: 'acme/shop' });
      runIds.push(...a.runs.map((r) => r.runId));
      await settle(h.url, runIds);
    }
    const failed = await api(h.url, 'POST', `/v1/suites/${bad.id}/runs`, {});
    runIds.push(...failed.runs.map((r) => r.runId));
    await settle(h.url, runIds);
    const session = await api(h.url, 'POST', '/v1/sessions', { roles: [{ name: 'admin' }, { name: 'customer' }] });
    await api(h.url, 'POST', `/v1/sessions/${session.id}/roles/customer/actions`, { action: 'navigate', url: `${base}shop.html` });

    const shoot = async (name, p, opts = {}) => {
      const context = await browser.newContext({ viewport: opts.viewport ?? { width: 1280, height: 800 }, colorScheme: opts.scheme ?? 'light', timezoneId: 'Europe/Paris', locale: 'en-GB' });
      const page = await context.newPage();
      if (p !== '/console/sign-in') {
        await page.goto(`${h.url}/console/sign-in`);
        await page.getByLabel('API key').fill(KEY);
        await page.getByRole('button', { name: 'Sign in' }).click();
        await page.waitForURL(/\/console\/suites/);
      }
      await page.goto(h.url + p);
      if (opts.wait) await opts.wait(page);
      await page.screenshot({ path: path.join(OUT, `console-${name}.png`), fullPage: !opts.viewportOnly });
      await context.close();
      console.log(`docs/images/console-${name}.png`);
    };
    await shoot('sign-in', '/console/sign-in');
    await shoot('suites', '/console/suites');
    await shoot('suites-dark', '/console/suites', { scheme: 'dark' });
    await shoot('suites-phone', '/console/suites', { viewport: { width: 390, height: 844 } });
    await shoot('suite', `/console/suites/${good.id}`);
    await shoot('suite-run', `/console/suites/${bad.id}/runs/${failed.id}`);
    await shoot('runs', '/console/runs');
    await shoot('run', `/console/runs/${runIds[0]}`, { wait: (page) => page.getByRole('img', { name: /Screenshot/ }).evaluate((img) => img.decode()) });
    await shoot('sessions', '/console/sessions');
    await shoot('session', `/console/sessions/${session.id}`, {
      viewportOnly: true,
      wait: async (page) => {
        const frame = page.frameLocator('iframe.live');
        await frame.getByRole('combobox', { name: 'Role' }).selectOption('customer');
        await frame.locator('#frame[data-frames]').waitFor({ timeout: 15_000 });
      },
    });
    await shoot('pressure', '/console/pressure');
  } finally {
    await browser.close();
    await h.stop();
    await fx.close();
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
