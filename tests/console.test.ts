import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { Api, startTestService, type TestService } from './helpers/service.js';

// The web console (issue 28) driven in a real Chromium: sign-in per tenant and what each
// tenant sees, running a suite and watching it finish, a failed run's report from the
// suite's strip, a live session's view, hostile strings (suite names, plan text, step
// names, page titles) rendered as text, CSRF refusals and sign-out revoking the cookie.

let svc: TestService;
let fx: FixtureServer;
let browser: Browser;
let alice: Api;
let bob: Api;
const KA = `alice-${randomBytes(12).toString('hex')}`;
const KB = `bob-${randomBytes(12).toString('hex')}`;
const EVIL_NAME = '<b id="xss-name">Evil</b> suite';
const EVIL_CASE = '<img src=x id=xss-plan onerror="window.__pwned=\'plan\'"> case';
const EVIL_STEP_TEXT = '<img src=x id=xss-step onerror=window.__pwned=1>';
const shopPlan = '#Case 1: Add an item\n- Click the "Add to cart" button\n- Verify "Added to cart" is visible';
const evilPlan = `#Case 1: ${EVIL_CASE}\n- Click the "Add to cart" button\n- Verify "${EVIL_STEP_TEXT}" is visible`;
let shopId: string;
let evilId: string;
let bobSuiteId: string;
let failedRunId: string;

async function waitForRun(api: Api, id: string, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/runs/${id}`);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function signIn(key: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${svc.url}/`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/console\/suites$/);
  return { context, page };
}

/** Markup a hostile string would have injected (ids set by the test's payloads). */
async function injected(page: Page): Promise<number> {
  return page.evaluate(() => document.querySelectorAll('#xss-name, #xss-plan, #xss-step, #xss-title, img[src="x"]').length + ((window as any).__pwned ? 100 : 0));
}

beforeAll(async () => {
  [svc, fx, browser] = await Promise.all([
    startTestService({ API_KEYS: `${KA}:alice,${KB}:bob`, SECRETS_KEY: randomBytes(32).toString('hex'), RUN_ASSERT_TIMEOUT_MS: '1000' }),
    startFixtureServer(),
    chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] }),
  ]);
  alice = svc.api.withToken(KA);
  bob = svc.api.withToken(KB);
  const base = `${fx.url}/console/`;
  const mk = async (api: Api, name: string, plan: string) => {
    const res = await api.post('/v1/suites', { name, baseUrl: base, plans: [{ name: 'main', plan, path: 'shop.html' }], options: { trace: false } });
    if (res.status !== 201) throw new Error(`suite: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.id as string;
  };
  [shopId, evilId, bobSuiteId] = await Promise.all([mk(alice, 'Shop checkout', shopPlan), mk(alice, EVIL_NAME, evilPlan), mk(bob, 'Bob only suite', shopPlan)]);
  // A failed suite run, for the strip and the report.
  const launched = await alice.post(`/v1/suites/${evilId}/runs`, {});
  failedRunId = launched.body.runs[0].runId;
  const done = await waitForRun(alice, failedRunId);
  expect(done.status).toBe('failed');
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await fx?.close();
});

describe('console sign-in and tenants', () => {
  it('shows the sign-in page without a cookie, and each key sees only its tenant\'s suites and runs', async () => {
    const anon = await fetch(`${svc.url}/console/suites`);
    expect(anon.status).toBe(401);
    expect(await anon.text()).toContain('Sign in to the Ariadne console');

    const a = await signIn(KA);
    await expect.poll(() => a.page.getByRole('link', { name: 'Shop checkout' }).count()).toBe(1);
    expect(await a.page.getByRole('link', { name: 'Bob only suite' }).count()).toBe(0);
    await a.page.getByRole('link', { name: 'Runs', exact: true }).click();
    await a.page.waitForURL(/\/console\/runs$/);
    expect(await a.page.locator('tbody tr').count()).toBeGreaterThanOrEqual(1);
    await a.context.close();

    const b = await signIn(KB);
    expect(await b.page.getByRole('link', { name: 'Bob only suite' }).count()).toBe(1);
    expect(await b.page.getByRole('link', { name: 'Shop checkout' }).count()).toBe(0);
    expect(await b.page.locator('main').innerText()).not.toContain('Evil');
    // Alice's suite and run by URL: not found for bob.
    const res = await b.page.goto(`${svc.url}/console/suites/${shopId}`);
    expect(res!.status()).toBe(404);
    const run = await b.page.goto(`${svc.url}/console/runs/${failedRunId}`);
    expect(run!.status()).toBe(404);
    await b.page.goto(`${svc.url}/console/runs`);
    expect(await b.page.locator('main').innerText()).toContain('No run matches');
    await b.context.close();
  });

  it('without a sign-in, every console route answers the sign-in page or a refusal, and does nothing', async () => {
    const sid = await alice.createSession();
    const suiteRuns = JSON.stringify((await alice.get(`/v1/suites/${shopId}/runs`)).body);
    const gets = ['/', '/console', '/console/suites', `/console/suites/${shopId}`, `/console/suites/${shopId}/runs/x`, '/console/runs', `/console/runs/${failedRunId}`, '/console/sessions', `/console/sessions/${sid}`, '/console/pressure'];
    for (const p of gets) {
      for (const cookie of [undefined, 'ariadne_console=forged-value-0123456789abcdef']) {
        const res = await fetch(`${svc.url}${p}`, { redirect: 'manual', headers: cookie ? { cookie } : {} });
        expect(res.status, p).toBe(401);
        const html = await res.text();
        expect(html, p).toContain('Sign in to the Ariadne console');
        expect(html, p).not.toContain('Shop checkout');
      }
    }
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    for (const p of [`/console/suites/${shopId}/run`, `/console/sessions/${sid}/end`, '/console/sign-out']) {
      const res = await fetch(`${svc.url}${p}`, { method: 'POST', redirect: 'manual', headers: form, body: '_csrf=x' });
      expect([303, 401, 403], p).toContain(res.status);
      if (res.status === 303) expect(res.headers.get('location')).toBe('/console/sign-in');
    }
    // A sign-in POST without the sign-in page's own token is refused, even with a good key.
    const forged = await fetch(`${svc.url}/console/sign-in`, { method: 'POST', redirect: 'manual', headers: form, body: new URLSearchParams({ key: KA, _csrf: 'x' }) });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('set-cookie')).toBeNull();
    expect(JSON.stringify((await alice.get(`/v1/suites/${shopId}/runs`)).body)).toBe(suiteRuns);
    expect((await alice.get(`/v1/sessions/${sid}`)).body.status).toBe('active');
    // The live view needs a key or a sign-in too.
    expect((await fetch(`${svc.url}/v1/sessions/${sid}/live`)).status).toBe(401);
    await alice.delete(`/v1/sessions/${sid}`);
  });

  it('refuses a wrong key and keeps the sign-in cookie httpOnly, SameSite=Strict, expiring; pages carry a strict CSP', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${svc.url}/console/sign-in`);
    await page.getByLabel('API key').fill('not-a-key-at-all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('not valid');
    await page.getByLabel('API key').fill(KA);
    const [resp] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/console/sign-in') && r.request().method() === 'POST'), page.getByRole('button', { name: 'Sign in' }).click()]);
    const setCookie = (await resp.headersArray()).filter((h) => h.name.toLowerCase() === 'set-cookie').map((h) => h.value).join('\n');
    expect(setCookie).toMatch(/ariadne_console=[\w-]{30,}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict/);
    expect(setCookie).not.toContain(KA);
    expect(setCookie).not.toMatch(/Secure/); // plain http here
    const cookie = (await context.cookies()).find((c) => c.name === 'ariadne_console')!;
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.expires).toBeGreaterThan(Date.now() / 1000);
    const suites = await page.goto(`${svc.url}/console/suites`);
    const headers = suites!.headers();
    expect(headers['referrer-policy']).toBe('no-referrer');
    const csp = headers['content-security-policy'];
    expect(csp).toMatch(/script-src 'nonce-[\w+/=]+'/);
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    // Every script on the page carries the nonce.
    expect(await page.evaluate(() => [...document.scripts].every((s) => s.nonce && s.nonce.length > 8))).toBe(true);
    // The key never reaches the page.
    expect(await page.content()).not.toContain(KA);
    await context.close();
  });

  it('marks the cookies Secure when the browser is on https (behind a TLS proxy)', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const form = await fetch(`${svc.url}/console/sign-in`, { headers: https });
    const pre = form.headers.get('set-cookie')!;
    expect(pre).toMatch(/; Secure$/);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1];
    const res = await fetch(`${svc.url}/console/sign-in`, {
      method: 'POST', redirect: 'manual',
      headers: { ...https, 'content-type': 'application/x-www-form-urlencoded', cookie: pre.split(';')[0] },
      body: new URLSearchParams({ key: KA, _csrf: csrf }),
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('set-cookie')).toMatch(/ariadne_console=[\w-]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Strict; Secure/);
  });
});

describe('console suites and runs', () => {
  it('runs a suite from the console and follows it live until it finishes', async () => {
    const { context, page } = await signIn(KA);
    await page.getByRole('link', { name: 'Shop checkout' }).click();
    await page.waitForURL(new RegExp(`/console/suites/${shopId}$`));
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.waitForURL(/\/console\/suites\/[^/]+\/runs\/[\w-]+$/);
    const firstStatus = await page.locator('#suite-run .badge').first().innerText();
    await page.evaluate(() => { (window as any).__same = true; });
    await expect.poll(() => page.locator('#suite-run .badge').first().innerText(), { timeout: 90_000, interval: 500 }).toMatch(/passed/i);
    // Followed in place: the page was not reloaded to get there.
    expect(await page.evaluate(() => (window as any).__same)).toBe(true);
    expect(['QUEUED', 'RUNNING', 'queued', 'running']).toContain(firstStatus);
    // The run's own page: its steps from the event stream and the latest screenshot.
    await page.getByRole('link', { name: 'main', exact: true }).click();
    await page.waitForURL(/\/console\/runs\/[\w-]+$/);
    await expect.poll(() => page.locator('ol.steps li').count()).toBeGreaterThanOrEqual(2);
    expect(await page.locator('ol.steps').innerText()).toContain('Verify "Added to cart" is visible');
    const img = page.getByRole('img', { name: /Screenshot after step/ });
    await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBeGreaterThan(0);
    await context.close();
  }, 120_000);

  it('shows a run in progress step by step as its events arrive', async () => {
    // A plan that takes a few seconds, so the page is surely open before the run ends.
    const slow = await alice.post('/v1/suites', { name: 'Slow checkout', baseUrl: `${fx.url}/console/`, options: { trace: false }, plans: [{ name: 'main', path: 'shop.html', plan: '#Case 1: Slowly\n- Click the "Add to cart" button\n- Wait for 3 seconds\n- Verify "Added to cart" is visible' }] });
    expect(slow.status).toBe(201);
    const { context, page } = await signIn(KA);
    const launched = await alice.post(`/v1/suites/${slow.body.id}/runs`, {});
    const runId = launched.body.runs[0].runId;
    await page.goto(`${svc.url}/console/runs/${runId}`);
    const first = await page.locator('#run-live .badge').first().innerText();
    await expect.poll(() => page.locator('#run-live .badge').first().innerText(), { timeout: 90_000, interval: 300 }).toMatch(/passed/i);
    expect(await page.locator('ol.steps li').count()).toBeGreaterThanOrEqual(2);
    // It was loaded before the end (else this test proves nothing about live updates).
    expect(first.toLowerCase()).toMatch(/queued|running/);
    await context.close();
  }, 120_000);

  it('opens a failed run\'s report from the suite\'s strip', async () => {
    const { context, page } = await signIn(KA);
    const strip = page.getByRole('list', { name: /Last \d+ runs of <b id="xss-name">Evil<\/b> suite/ });
    await strip.getByRole('link', { name: /^Suite run failed/ }).first().click();
    await page.waitForURL(/\/console\/suites\/[^/]+\/runs\/[\w-]+$/);
    expect(await page.locator('#suite-run .badge').first().innerText()).toMatch(/failed/i);
    await page.getByRole('link', { name: 'Report of main' }).click();
    await page.waitForURL(/\/v1\/runs\/[\w-]+\/report\?exp=\d+&sig=/);
    expect(await page.locator('h2').first().innerText()).toMatch(/^Failed/);
    expect(await injected(page)).toBe(0);
    await context.close();
  });

  it('filters runs by status, suite and step text, newest first, paginated', async () => {
    const { context, page } = await signIn(KA);
    await page.goto(`${svc.url}/console/runs`);
    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=failed/);
    const rows = page.locator('tbody tr');
    expect(await rows.count()).toBeGreaterThanOrEqual(1);
    for (const t of await rows.allInnerTexts()) expect(t.toLowerCase()).toContain('failed');
    await page.goto(`${svc.url}/console/runs?text=${encodeURIComponent('click the "ADD to cart"')}&suite=${evilId}`);
    expect(await rows.count()).toBeGreaterThanOrEqual(1);
    for (const t of await rows.allInnerTexts()) expect(t).toContain(`${EVIL_NAME} · main`);
    await page.goto(`${svc.url}/console/runs?text=${encodeURIComponent('Add to cart')}&suite=${bobSuiteId}`);
    expect(await page.locator('main').innerText()).toContain('No run matches');
    await page.goto(`${svc.url}/console/runs?text=no-step-says-this-${randomBytes(4).toString('hex')}`);
    expect(await page.locator('main').innerText()).toContain('No run matches');
    const bad = await page.goto(`${svc.url}/console/runs?page=0`);
    expect(bad!.status()).toBe(400);
    await context.close();
  });
});

describe('console sessions', () => {
  it('lists a live session and opens its live view beside the event log; ends it', async () => {
    const sid = await alice.createSession();
    const nav = await alice.action(sid, { action: 'navigate', url: `${fx.url}/console/hostile-title.html` });
    expect(nav.status).toBe(200);
    const { context, page } = await signIn(KA);
    await page.getByRole('link', { name: 'Sessions' }).click();
    await page.getByRole('link', { name: `Session ${sid.slice(0, 8)}` }).click();
    await page.waitForURL(new RegExp(`/console/sessions/${sid}$`));
    // The tab's title is markup from the page: shown as text.
    expect(await page.locator('main').innerText()).toContain('<img src=x id=xss-title');
    const frame = page.frameLocator('iframe.live');
    await expect.poll(() => frame.locator('#status').innerText(), { timeout: 20_000 }).toBe('live');
    await expect.poll(() => frame.locator('#frame').getAttribute('data-frames'), { timeout: 20_000 }).toMatch(/^[1-9]/);
    // What the agent does next shows up in the event log beside the screencast.
    expect((await alice.action(sid, { action: 'navigate', url: `${fx.url}/console/shop.html` })).status).toBe(200);
    await expect.poll(() => frame.locator('#events li').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    expect(await injected(page)).toBe(0);
    // Bob's sign-in cannot open alice's live view.
    const b = await signIn(KB);
    const live = await b.page.goto(`${svc.url}/v1/sessions/${sid}/live`);
    expect(live!.status()).toBe(404);
    await b.context.close();
    page.once('dialog', (d) => d.accept());
    await page.getByRole('button', { name: 'End session' }).click();
    await page.waitForURL(/\/console\/sessions$/);
    expect((await alice.get(`/v1/sessions/${sid}`)).body.status).not.toBe('active');
    await context.close();
  }, 60_000);
});

describe('console for keyboards, phones and dark schemes', () => {
  it('works by keyboard alone: skip link first, then Run now reached with Tab and pressed with Enter', async () => {
    const { context, page } = await signIn(KA);
    await page.goto(`${svc.url}/console/suites/${shopId}`);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    let reached = false;
    for (let i = 0; i < 12 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = await page.evaluate(() => document.activeElement?.textContent === 'Run now');
    }
    expect(reached).toBe(true);
    // The focused control shows it (an outline, not the browser default removed).
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/suites\/[^/]+\/runs\/[\w-]+$/);
    await expect.poll(() => page.locator('#suite-run .badge').first().innerText(), { timeout: 90_000, interval: 500 }).toBe('passed');
    await context.close();
  }, 120_000);

  it('fits a phone screen without sideways scrolling, and follows a dark scheme', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
    const page = await context.newPage();
    await page.goto(`${svc.url}/console/sign-in`);
    await page.getByLabel('API key').fill(KA);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/console\/suites$/);
    for (const p of ['/console/suites', `/console/suites/${evilId}`, '/console/runs', `/console/runs/${failedRunId}`, '/console/sessions', '/console/pressure']) {
      await page.goto(`${svc.url}${p}`);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), p).toBeLessThanOrEqual(390);
      // Dark background, light text.
      const [bg, fg] = await page.evaluate(() => [getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]);
      const lum = (c: string) => c.match(/\d+/g)!.slice(0, 3).map(Number).reduce((a, b) => a + b, 0);
      expect(lum(bg), p).toBeLessThan(150);
      expect(lum(fg), p).toBeGreaterThan(500);
    }
    await context.close();
  });
});

describe('console hostile strings', () => {
  it('renders hostile suite names, plan text and step names as text', async () => {
    const { context, page } = await signIn(KA);
    expect(await page.locator('main').innerText()).toContain(EVIL_NAME);
    expect(await injected(page)).toBe(0);
    await page.getByRole('link', { name: EVIL_NAME }).click();
    await page.waitForURL(new RegExp(`/console/suites/${evilId}$`));
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(`Suite ${EVIL_NAME}`);
    expect(await page.locator('pre').first().innerText()).toContain(EVIL_CASE);
    expect(await injected(page)).toBe(0);
    await page.goto(`${svc.url}/console/runs/${failedRunId}`);
    expect(await page.locator('ol.steps').innerText()).toContain(EVIL_STEP_TEXT);
    expect(await injected(page)).toBe(0);
    await context.close();
  });
});

describe('console CSRF and sign-out', () => {
  it('refuses state-changing requests without the sign-in\'s token or from another origin', async () => {
    const { context, page } = await signIn(KA);
    const cookie = (await context.cookies()).find((c) => c.name === 'ariadne_console')!;
    const runsBefore = (await alice.get(`/v1/suites/${shopId}/runs`)).body;
    // From the page itself, without the token, and with a made-up one.
    for (const body of ['', '_csrf=made-up-token']) {
      const status = await page.evaluate(async ([u, b]) => (await fetch(u, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: b })).status, [`${svc.url}/console/suites/${shopId}/run`, body] as const);
      expect(status === 400 || status === 403).toBe(true);
    }
    const token = await page.goto(`${svc.url}/console/suites/${shopId}`).then(() => page.locator('input[name=_csrf]').first().inputValue());
    // The right token from another origin.
    const cross = await fetch(`${svc.url}/console/suites/${shopId}/run`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `ariadne_console=${cookie.value}`, origin: 'https://evil.example' },
      body: new URLSearchParams({ _csrf: token }),
    });
    expect(cross.status).toBe(403);
    expect(await cross.text()).toContain('csrf_invalid');
    const missing = await fetch(`${svc.url}/console/suites/${shopId}/run`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `ariadne_console=${cookie.value}` },
      body: new URLSearchParams({ _csrf: 'x'.repeat(43) }),
    });
    expect(missing.status).toBe(403);
    // Nothing was started.
    const runsAfter = (await alice.get(`/v1/suites/${shopId}/runs`)).body;
    expect(JSON.stringify(runsAfter)).toBe(JSON.stringify(runsBefore));
    // Another sign-in's token does not work either.
    const other = await signIn(KA);
    const otherToken = await other.page.goto(`${svc.url}/console/suites/${shopId}`).then(() => other.page.locator('input[name=_csrf]').first().inputValue());
    expect(otherToken).not.toBe(token);
    const swapped = await fetch(`${svc.url}/console/sessions/nope/end`, {
      method: 'POST', redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: `ariadne_console=${cookie.value}` },
      body: new URLSearchParams({ _csrf: otherToken }),
    });
    expect(swapped.status).toBe(403);
    await other.context.close();
    await context.close();
  });

  it('signs out: the cookie is revoked server-side and stops working', async () => {
    const { context, page } = await signIn(KA);
    const cookie = (await context.cookies()).find((c) => c.name === 'ariadne_console')!;
    const replay = () => fetch(`${svc.url}/console/suites`, { headers: { cookie: `ariadne_console=${cookie.value}` } });
    expect((await replay()).status).toBe(200);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/console\/sign-in$/);
    const after = await replay();
    expect(after.status).toBe(401);
    expect(await after.text()).toContain('Sign in to the Ariadne console');
    // The live view no longer opens with it either.
    const sid = await alice.createSession();
    const live = await fetch(`${svc.url}/v1/sessions/${sid}/live`, { headers: { cookie: `ariadne_console=${cookie.value}` } });
    expect(live.status).toBe(401);
    await alice.delete(`/v1/sessions/${sid}`);
    await context.close();
  });
});
