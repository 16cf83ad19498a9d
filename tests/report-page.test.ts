import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ReportLinks } from '@ariadne/server';
import { RunStore } from '@ariadne/flows';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// The human report page (GET /v1/runs/:id/report), opened in a real headless Chromium
// against a keyed service: it renders, the failing step and its diagnostics are on the
// first screen of a 1280×800 viewport, every screenshot loads, with the key header and
// with a signed link; without either it is 401; expired, tampered and other-run links
// are refused; markup in plan text and page text stays text.

const KEY = 'report-key-aaaaaaaaaaaaaaaa';
const OTHER = 'report-key-bbbbbbbbbbbbbbbb';
const XSS_CASE = 'Buy <img src=x onerror="window.__xss=\'case\'"><script>window.__xss=\'script\'</script>';
const XSS_STEP = 'Click the "Pay now <img src=x onerror=window.__xss=1>" button';

let svc: TestService;
let fx: FixtureServer;
let browser: Browser;
let failedRun: any;
let passedRun: any;

const api = () => svc.api.withToken(KEY);

async function waitForRun(id: string, timeoutMs = 90_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api().get(`/v1/runs/${id}`);
    expect(res.status).toBe(200);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KEY}:tenant-a,${OTHER}:tenant-b`, RUN_ASSERT_TIMEOUT_MS: '2000' }, { captureLogs: true }),
    startFixtureServer(),
  ]);
  const url = `${fx.url}/report/shop.html`;
  const failing = await api().post('/v1/runs', {
    url,
    plan: [
      `#Case 1: ${XSS_CASE}`,
      '- Go to /report/shop.html',
      '- Click the "Add to cart" button',
      '- Verify "Cart: 1" is visible',
      `- ${XSS_STEP}`,
      '',
      '#Case 2: The shop still shows its name',
      '- Verify "Report shop" is visible',
    ].join('\n'),
    options: { trace: true },
  });
  expect(failing.status, JSON.stringify(failing.body)).toBe(202);
  const passing = await api().post('/v1/runs', {
    url,
    plan: '#Case 1: Add to the cart\n- Click the "Add to cart" button\n- Verify "Cart: 1" is visible',
    options: { trace: false },
  });
  expect(passing.status).toBe(202);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  failedRun = await waitForRun(failing.body.id);
  passedRun = await waitForRun(passing.body.id);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await fx?.close();
}, 120_000);

interface Opened {
  page: Page;
  status: number;
  csp: string | undefined;
  problems: string[];
  close(): Promise<void>;
}

/** Open a report URL in a fresh 1280×800 context (optionally with the key header), collecting CSP and load problems. */
async function open(url: string, headers?: Record<string, string>): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...(headers ? { extraHTTPHeaders: headers } : {}) });
  const page = await context.newPage();
  const problems: string[] = [];
  // (The browser's own /favicon.ico request is not the page's: a 404/401 for it is no problem.)
  page.on('console', (m) => { if (m.type() === 'error' && !m.location().url.endsWith('/favicon.ico')) problems.push(`${m.text()} (${m.location().url})`); });
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('requestfailed', (r) => problems.push(`failed ${r.url()}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  const res = await page.goto(url);
  return { page, status: res?.status() ?? 0, csp: res?.headers()['content-security-policy'], problems, close: () => context.close() };
}

/** Scroll every <img> into view (they are lazy) and report the ones that did not load. */
async function brokenImages(page: Page): Promise<{ count: number; broken: string[] }> {
  const imgs = page.locator('img');
  const count = await imgs.count();
  for (let i = 0; i < count; i++) {
    await imgs.nth(i).scrollIntoViewIfNeeded();
    await expect.poll(() => imgs.nth(i).evaluate((el: HTMLImageElement) => el.complete), { timeout: 10_000 }).toBe(true);
  }
  const broken = await page.$$eval('img', (els) => (els as HTMLImageElement[]).filter((e) => !(e.naturalWidth > 0)).map((e) => e.src));
  return { count, broken };
}

/** The failing step's text and its error are on the first screen, before any scrolling. */
async function expectFailureOnFirstScreen(page: Page): Promise<void> {
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const summary = page.locator('#summary');
  await expect.poll(() => summary.textContent()).toContain('Pay now');
  for (const sel of ['#summary .failing-step', '#summary .err', '#summary .cands']) {
    const box = await page.locator(sel).first().boundingBox();
    expect(box, sel).not.toBeNull();
    expect(box!.y, sel).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height, sel).toBeLessThanOrEqual(800);
  }
  const text = (await summary.textContent()) ?? '';
  expect(text).toContain('target_not_found');
  expect(text).toContain('Buy <img src=x'); // the case name, as text
  // The nearest candidates name the button the page has.
  expect(await page.locator('#summary .cands').textContent()).toContain('Check out');
}

async function expectInert(page: Page): Promise<void> {
  expect(await page.evaluate(() => (window as { __xss?: unknown }).__xss)).toBeUndefined();
  expect(await page.locator('script').count()).toBe(0);
  expect(await page.locator('img[src="x"]').count()).toBe(0);
  // The markup is on the page as text.
  expect(await page.locator('h2', { hasText: 'Buy <img src=x onerror=' }).count()).toBeGreaterThan(0);
  expect(await page.locator('.asked', { hasText: 'Pay now <img src=x onerror=window.__xss=1>' }).count()).toBeGreaterThan(0);
}

describe('GET /v1/runs/:id/report', () => {
  it('a failed run: the failing step and its diagnostics on the first screen, screenshots loaded, markup inert (key header)', async () => {
    expect(failedRun.status).toBe('failed');
    const failingStep = failedRun.report.cases[0].steps.find((s: any) => s.status === 'failed');
    expect(failingStep.error.code).toBe('target_not_found');
    expect(failingStep.screenshot).toBeTruthy();

    expect(failedRun.links.report).toBe(`${svc.url}/v1/runs/${failedRun.id}/report`);
    const o = await open(failedRun.links.report, { authorization: `Bearer ${KEY}` });
    try {
      expect(o.status).toBe(200);
      expect(o.csp).toContain("default-src 'none'");
      if (process.env.REPORT_PAGE_SHOT) await o.page.screenshot({ path: process.env.REPORT_PAGE_SHOT });
      await expectFailureOnFirstScreen(o.page);
      await expectInert(o.page);
      // Header: run facts; links to JSON, JUnit, spec (case 2 passed) and trace.
      const header = await o.page.locator('header.top nav').textContent();
      for (const l of ['JSON report', 'JUnit', 'Playwright spec', 'trace']) expect(header).toContain(l);
      const facts = (await o.page.locator('dl.facts').textContent()) ?? '';
      expect(facts).toContain(`${fx.url}/report/shop.html`);
      expect(facts).toMatch(/Started\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/);
      expect(facts).toContain('1/2 cases passed');
      // Steps: what was asked, what was done, the verified locator, why, the timing.
      const click = o.page.locator('li.step', { hasText: 'Click the "Add to cart" button' });
      expect(await click.locator('.loc code').textContent()).toContain("getByRole('button', { name: 'Add to cart'");
      expect(await click.locator('.ok').textContent()).toBe('verified');
      expect(await click.locator('.why').textContent()).toContain('resolved by');
      expect(await click.locator('.time').textContent()).toMatch(/^\d+(\.\d+)? m?s$/);
      // Every screenshot loads (scrolled into view: they are lazy), nothing was blocked.
      const imgs = await brokenImages(o.page);
      const shots = failedRun.report.cases.flatMap((c: any) => c.steps.filter((s: any) => s.screenshot)).length;
      expect(imgs.count).toBeGreaterThanOrEqual(shots);
      expect(imgs.broken).toEqual([]);
      expect(o.problems).toEqual([]);
      if (process.env.REPORT_PAGE_SHOT) await o.page.screenshot({ path: process.env.REPORT_PAGE_SHOT.replace(/\.png$/, '-full.png'), fullPage: true });
    } finally {
      await o.close();
    }
  });

  it('a passed run says so at the top and loads its screenshots', async () => {
    expect(passedRun.status).toBe('passed');
    const o = await open(`${svc.url}/v1/runs/${passedRun.id}/report`, { authorization: `Bearer ${KEY}` });
    try {
      expect(o.status).toBe(200);
      expect(await o.page.locator('#summary h2').textContent()).toBe('All 1 case passed');
      expect(await o.page.locator('#summary.passed').isVisible()).toBe(true);
      const imgs = await brokenImages(o.page);
      expect(imgs.count).toBe(2);
      expect(imgs.broken).toEqual([]);
      expect(o.problems).toEqual([]);
    } finally {
      await o.close();
    }
  });

  it('opens with a signed link and no key; the same page without either is 401', async () => {
    const link = await api().post(`/v1/runs/${failedRun.id}/report-link`, { ttlSeconds: 3600 });
    expect(link.status).toBe(200);
    expect(link.body.url).toMatch(new RegExp(`^${svc.url}/v1/runs/${failedRun.id}/report\\?exp=\\d+&sig=[0-9a-f]{64}$`));
    expect(Math.abs(Date.parse(link.body.expiresAt) - Date.now() - 3600_000)).toBeLessThan(10_000);

    const o = await open(link.body.url);
    try {
      expect(o.status).toBe(200);
      await expectFailureOnFirstScreen(o.page);
      await expectInert(o.page);
      const imgs = await brokenImages(o.page);
      expect(imgs.count).toBeGreaterThan(3);
      expect(imgs.broken).toEqual([]);
      expect(o.problems).toEqual([]);
      expect(await o.page.locator('.foot').textContent()).toContain('signed link');
    } finally {
      await o.close();
    }

    const bare = await open(`${svc.url}/v1/runs/${failedRun.id}/report`);
    try {
      expect(bare.status).toBe(401);
      expect(JSON.parse((await bare.page.locator('body').textContent()) ?? '{}').error.code).toBe('unauthorized');
    } finally {
      await bare.close();
    }
    // The signature never reaches a log line.
    const sig = new URL(link.body.url).searchParams.get('sig')!;
    await new Promise((r) => setTimeout(r, 200));
    const logs = svc.logs.join('\n');
    expect(logs).toContain('/report?exp=');
    expect(logs).toContain('sig=[redacted]');
    expect(logs).not.toContain(sig);
  });

  it('refuses expired, tampered and other-run links, and a link opens nothing but its page and screenshots', async () => {
    const link = (await api().post(`/v1/runs/${failedRun.id}/report-link`)).body;
    const u = new URL(link.url);
    const exp = Number(u.searchParams.get('exp'));
    const sig = u.searchParams.get('sig')!;
    // Default: 7 days.
    expect(exp - Date.now() / 1000).toBeGreaterThan(7 * 86400 - 60);
    const get = (p: string) => fetch(`${svc.url}${p}`).then(async (r) => ({ status: r.status, body: await r.json().catch(() => null) }));
    const report = `/v1/runs/${failedRun.id}/report`;

    // The service's key is shared through Redis: sign an already expired link with it.
    const links = new ReportLinks(svc.service.redis, svc.service.config.redisPrefix, null);
    const past = Math.floor(Date.now() / 1000) - 5;
    const expired = await get(`${report}?${await links.query('report', failedRun.id, 'tenant-a', past)}`);
    expect(expired).toEqual({ status: 401, body: { error: { code: 'signature_expired', message: expect.stringContaining('expired'), details: expect.any(Object) } } });
    // Tampered: one hex digit changed, or exp moved.
    const flipped = sig.slice(0, -1) + (sig.endsWith('0') ? '1' : '0');
    for (const q of [`exp=${exp}&sig=${flipped}`, `exp=${exp + 1}&sig=${sig}`, `exp=${exp}&sig=${sig.slice(0, 40)}`, `exp=abc&sig=${sig}`]) {
      const r = await get(`${report}?${q}`);
      expect(r.status, q).toBe(401);
      expect(r.body.error.code, q).toBe('invalid_signature');
    }
    // Another run's link on this run, and a link signed for another tenant.
    const mine = new URL((await api().post(`/v1/runs/${passedRun.id}/report-link`)).body.url);
    expect((await get(`${report}?${mine.search.slice(1)}`)).body.error.code).toBe('invalid_signature');
    const forged = await links.query('report', failedRun.id, 'tenant-b', exp);
    expect((await get(`${report}?${forged}`)).body.error.code).toBe('invalid_signature');
    // The page link opens neither the JSON report, the JUnit, the spec, nor an artifact.
    for (const p of [`/v1/runs/${failedRun.id}`, `/v1/runs/${failedRun.id}/junit`, `/v1/runs/${failedRun.id}/spec`]) {
      expect((await get(`${p}?exp=${exp}&sig=${sig}`)).status, p).toBe(401);
    }
    const shot = failedRun.report.cases[0].steps[0].screenshot;
    const other = failedRun.report.cases[0].steps[1].screenshot;
    expect((await get(`/v1/runs/${failedRun.id}/artifacts/${shot}?exp=${exp}&sig=${sig}`)).body.error.code).toBe('invalid_signature');
    // A screenshot's signature opens that screenshot only (not another, not the trace).
    const shotQuery = await links.query(`artifact:${shot}`, failedRun.id, 'tenant-a', exp);
    const img = await fetch(`${svc.url}/v1/runs/${failedRun.id}/artifacts/${shot}?${shotQuery}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect((await get(`/v1/runs/${failedRun.id}/artifacts/${other}?${shotQuery}`)).body.error.code).toBe('invalid_signature');
    expect((await get(`/v1/runs/${failedRun.id}/artifacts/${failedRun.report.cases[0].trace}?${shotQuery}`)).body.error.code).toBe('invalid_signature');
    // The trace still opens with the key.
    expect((await fetch(`${svc.url}/v1/runs/${failedRun.id}/artifacts/${failedRun.report.cases[0].trace}`, { headers: { authorization: `Bearer ${KEY}` } })).status).toBe(200);
  });

  it('report-link is tenant-scoped, authenticated and bounded', async () => {
    expect((await svc.api.post(`/v1/runs/${failedRun.id}/report-link`)).status).toBe(401);
    const other = await svc.api.withToken(OTHER).post(`/v1/runs/${failedRun.id}/report-link`);
    expect(other.status).toBe(404);
    expect(other.body.error.code).toBe('run_not_found');
    expect((await svc.api.withToken(OTHER).get(`/v1/runs/${failedRun.id}/report`)).status).toBe(404);
    for (const ttlSeconds of [0, 59, 31 * 86400, 'week']) {
      const r = await api().post(`/v1/runs/${failedRun.id}/report-link`, { ttlSeconds });
      expect(r.status, String(ttlSeconds)).toBe(400);
      expect(r.body.error.code).toBe('invalid_request');
    }
    expect((await api().post('/v1/runs/run_nope/report-link')).status).toBe(404);
  });
});

describe('ReportLinks keys', () => {
  it('derives the key from SECRETS_KEY when there is one (no Redis needed; another SECRETS_KEY signs differently)', async () => {
    const a = new ReportLinks(null as never, 'p:', Buffer.alloc(32, 1));
    const b = new ReportLinks(null as never, 'q:', Buffer.alloc(32, 1));
    const c = new ReportLinks(null as never, 'p:', Buffer.alloc(32, 2));
    const sig = await a.sign('report', 'run_x', 't', 2_000_000_000);
    expect(sig).toMatch(/^[0-9a-f]{64}$/);
    expect(await b.sign('report', 'run_x', 't', 2_000_000_000)).toBe(sig);
    expect(await c.sign('report', 'run_x', 't', 2_000_000_000)).not.toBe(sig);
    expect(await a.matches('report', 'run_x', 't', 2_000_000_000, sig)).toBe(true);
    expect(await a.matches('artifact:c1-s1.jpg', 'run_x', 't', 2_000_000_000, sig)).toBe(false);
    expect(await a.matches('report', 'run_x', 't2', 2_000_000_000, sig)).toBe(false);
  });
});

describe('reportPage (rendering of fields that retries and suites add)', () => {
  const step = (n: number, status: 'passed' | 'failed', extra: Record<string, unknown> = {}) => ({
    n, asked: `Step ${n} <b>asked</b>`, role: 'default', action: 'click', status, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 120 * n, ...extra,
  });
  const kase = (index: number, status: string, steps: unknown[], extra: Record<string, unknown> = {}) => ({
    index, name: `Case ${index}`, status, completed: true, summary: '', steps, assertions: [], missingAssertions: [],
    startedAt: '2026-01-01T00:00:00.000Z', durationMs: 1000, usage: { turns: 0, inputTokens: 0, outputTokens: 0 }, ...extra,
  });
  const record = (cases: unknown[], status = 'passed') => ({
    id: 'run_1', tenant: 't', status, createdAt: '2026-01-01T00:00:00.000Z', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:03.000Z',
    updatedAt: '2026-01-01T00:00:03.000Z', attempts: 1,
    request: { url: 'https://shop.example/', plan: '', planner: 'rules', suite: { id: 'suite_1', plan: 'Checkout <i>flow</i>', trigger: { type: 'github', sha: '0123456789abcdef0123', environment: 'production', repo: 'acme/shop' } } },
    report: { runId: 'run_1', url: 'https://shop.example/', planner: 'rules', status, startedAt: '2026-01-01T00:00:00.000Z', durationMs: 3000, cases, totals: { cases: cases.length, passed: 0, failed: 0, skipped: 0, cancelled: 0, steps: 0, assertions: 0, failedAssertions: 0 }, usage: { turns: 0, inputTokens: 0, outputTokens: 0 } },
  });
  const links = { screenshot: (n: string) => `/s/${n}`, trace: (n: string) => `/t/${n}`, junit: '/j', spec: '/sp', json: '/js' };

  it('marks flaky cases, shows attempts when present and healed steps, and the suite, commit and environment', async () => {
    const { reportPage } = await import('@ariadne/server');
    const html = reportPage(record([
      kase(1, 'flaky', [step(1, 'passed')], { attempts: 2 }),
      kase(2, 'passed', [step(1, 'passed', { healed: true })], { healedSteps: [1] }),
      kase(3, 'passed', [step(1, 'passed')]),
    ]) as never, links);
    expect(html).toContain('<span class="badge flaky"');
    expect(html).toContain('2 attempts');
    expect(html).toMatch(/All 3 cases passed, 1 flaky/);
    expect(html).toContain('<span class="badge healed"');
    expect(html).toContain('1 healed');
    expect(html).toContain('Checkout &lt;i&gt;flow&lt;/i&gt;');
    expect(html).toContain('<code>0123456789ab</code> acme/shop');
    expect(html).toContain('production');
    expect(html).toContain('Step 1 &lt;b&gt;asked&lt;/b&gt;');
    // Case 3 has no attempts field: nothing is said about attempts there.
    expect(html.split('id="case-3"')[1]).not.toContain('attempt');
    expect(html).not.toMatch(/<(script|b|i)>/);
  });

  it('renders a queued run with no report, reloading itself', async () => {
    const { reportPage } = await import('@ariadne/server');
    const rec = { ...record([]), status: 'queued', report: undefined, startedAt: undefined, finishedAt: undefined };
    const html = reportPage(rec as never, links);
    expect(html).toContain('<meta http-equiv="refresh" content="5">');
    expect(html).toContain('No case has started yet.');
  });
});

describe('open mode (no API keys)', () => {
  it('serves the page without a key, with plain screenshot URLs; a link still works', async () => {
    const open = await startTestService();
    try {
      const store = new RunStore(open.service.redis, open.service.config.redisPrefix, 60);
      const now = new Date().toISOString();
      await store.create({
        id: `run_open_${Date.now()}`, tenant: 'local', status: 'failed', createdAt: now, startedAt: now, finishedAt: now, updatedAt: now, attempts: 1,
        request: { url: 'https://shop.example/', plan: '', planner: 'rules' },
        report: {
          runId: 'x', url: 'https://shop.example/', planner: 'rules', status: 'failed', startedAt: now, durationMs: 10,
          cases: [{ index: 1, name: 'One', status: 'failed', completed: true, summary: '', assertions: [], missingAssertions: [], startedAt: now, durationMs: 10, usage: { turns: 0, inputTokens: 0, outputTokens: 0 },
            steps: [{ n: 1, asked: 'Click "Go"', role: 'default', action: 'click', status: 'failed', startedAt: now, durationMs: 5, screenshot: 'c1-s1.jpg', error: { code: 'target_not_found', message: 'No "Go".' } }] }],
          totals: { cases: 1, passed: 0, failed: 1, skipped: 0, cancelled: 0, steps: 1, assertions: 0, failedAssertions: 0 }, usage: { turns: 0, inputTokens: 0, outputTokens: 0 },
        },
      } as never);
      const id = (await open.api.get('/v1/runs')).body.runs[0].id;
      const page = await fetch(`${open.url}/v1/runs/${id}/report`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`src="/v1/runs/${id}/artifacts/c1-s1.jpg"`);
      expect(html).toContain('Click &quot;Go&quot;');
      const link = await open.api.post(`/v1/runs/${id}/report-link`);
      expect(link.status).toBe(200);
      expect((await fetch(link.body.url)).status).toBe(200);
    } finally {
      await open.stop();
    }
  }, 120_000);
});
