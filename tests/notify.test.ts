import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunStore } from '@ariadne/flows';
import { Notifier, SuiteStore, verifyAriadne } from '@ariadne/suites';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type Api, type TestService } from './helpers/service.js';

// Results back where people look (issue 13), against a running service, real Chromium
// and fixture pages: a GitHub deployment_status delivery starts a suite whose token is a
// suite secret, and a local fake GitHub API receives "pending" (its first try answered
// 500, so it is retried) then "failure" with the counts, context and report link; the
// suite's Slack and webhook targets get the failing case and step, signed; a plain run's
// callback is signed, retried, and every try is listed on the run; a case that fails
// once and passes on retry is "flaky" in the report, JUnit and the suite's status; a
// second notifier (another node) never notifies twice; no secret reaches any output.

const KEY = 'notify-key-0123456789abcdef';
const GH_TOKEN = `ghp_${randomBytes(18).toString('hex')}`;
const GH_HOOK_SECRET = `gh-${randomBytes(8).toString('hex')}`;
const ACCESS_CODE = `ac${randomBytes(10).toString('hex')}`;
const CALLBACK_SECRET = `cbs-${randomBytes(12).toString('hex')}`;
const SLACK_PATH = `/slack/services/T000/B000/${randomBytes(12).toString('hex')}`;
const PUBLIC_URL = 'https://ariadne.example.test';
const SHA = '0123456789abcdef0123456789abcdef01234567';

interface Hit { path: string; headers: IncomingMessage['headers']; body: string; status: number; at: number }

let svc: TestService;
let fx: FixtureServer;
let api: Api;
let fake: Server;
let fakeUrl: string;
const hits: Hit[] = [];
/** Per path: answers to give, in order (then 2xx). */
const script = new Map<string, number[]>();

beforeAll(async () => {
  fake = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    const path = req.url ?? '/';
    const planned = script.get(path);
    const status = planned?.length ? planned.shift()! : path.startsWith('/gh/') ? 201 : 200;
    hits.push({ path, headers: req.headers, body, status, at: Date.now() });
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(status < 300 ? '{"ok":true}' : '{"message":"try later"}');
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  [svc, fx] = await Promise.all([
    startTestService({
      API_KEYS: `${KEY}:team`,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      RUN_ASSERT_TIMEOUT_MS: '1500',
      NOTIFY_BACKOFF_MS: '100',
      PUBLIC_URL,
    }, { captureLogs: true }),
    startFixtureServer(),
  ]);
  api = svc.api.withToken(KEY);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  await new Promise((r) => fake?.close(r));
});

async function waitForRun(id: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/runs/${id}`);
    expect(res.status).toBe(200);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const unlock = ['#Case 1: Unlock the vault', '- Type Robin into "Name"', '- Type {{ACCESS_CODE}} into "Access code"', '- Click the "Unlock" button', '- Verify "Unlocked for Robin" is visible'].join('\n');
const twoCases = [
  '#Case 1: Heading is there', '- Verify "Vault" is visible',
  '#Case 2: The banner says hello', '- Verify "Hello from the banner" is visible',
].join('\n');

describe('a GitHub-triggered suite run', () => {
  let suite: any;
  let runIds: string[] = [];
  let suiteRunId: string;

  it('posts pending then failure to the GitHub API (a failed try retried), and the Slack and webhook targets get the failure, signed', async () => {
    const created = await api.post('/v1/suites', {
      name: 'checkout smoke',
      baseUrl: 'http://127.0.0.1:9/',
      plans: [{ name: 'unlock', plan: unlock, path: 'vault.html' }, { name: 'banner', plan: twoCases, path: 'vault.html' }],
      secrets: { ACCESS_CODE, GITHUB_TOKEN: GH_TOKEN },
      options: { trace: false },
      triggers: [{ type: 'github', secret: GH_HOOK_SECRET }],
      github: { apiBase: `${fakeUrl}/gh` },
      notify: [{ type: 'slack', url: `${fakeUrl}${SLACK_PATH}` }, { type: 'webhook', url: `${fakeUrl}/hook`, on: ['always'] }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    suite = created.body;
    // The notify secret was generated and is shown this once; the Slack URL never is.
    expect(suite.notifySecret).toMatch(/^whsec_/);
    expect(suite.notify).toEqual([{ type: 'slack', on: ['failure'], url: `${fakeUrl}/…` }, { type: 'webhook', on: ['always'], url: `${fakeUrl}/hook` }]);
    const again = await api.get(`/v1/suites/${suite.id}`);
    expect(again.body.notifySecret).toBeUndefined();
    expect(JSON.stringify(again.body)).not.toContain(SLACK_PATH);

    const statusPath = `/gh/repos/acme/shop/statuses/${SHA}`;
    script.set(statusPath, [500]);
    const body = Buffer.from(JSON.stringify({
      action: 'created',
      deployment_status: { state: 'success', environment: 'staging', environment_url: `${fx.url}/suites/` },
      deployment: { sha: SHA, environment: 'staging' },
      repository: { full_name: 'acme/shop' },
    }));
    const hookUrl = suite.triggers[0].url.replace(/^http:\/\/[^/]+/, svc.url);
    const res = await fetch(hookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'deployment_status', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': `sha256=${createHmac('sha256', GH_HOOK_SECRET).update(body).digest('hex')}` },
      body,
    });
    expect(res.status).toBe(202);
    const accepted = await res.json();
    runIds = accepted.runs;
    suiteRunId = accepted.suiteRun;
    const runs = await Promise.all(runIds.map((id) => waitForRun(id)));
    expect(runs.map((r) => r.status)).toEqual(['passed', 'failed']);

    const statuses = await waitFor('3 status calls', () => {
      const s = hits.filter((h) => h.path === statusPath);
      return s.length >= 3 && s;
    });
    // Exactly these calls, in this order: pending (answered 500), pending again, failure.
    await new Promise((r) => setTimeout(r, 500));
    expect(hits.filter((h) => h.path === statusPath)).toHaveLength(3);
    expect(statuses.map((h) => [JSON.parse(h.body).state, h.status])).toEqual([['pending', 500], ['pending', 201], ['failure', 201]]);
    for (const h of statuses) {
      expect(h.headers.authorization).toBe(`Bearer ${GH_TOKEN}`);
      expect(JSON.parse(h.body).context).toBe('ariadne/checkout smoke');
    }
    const final = JSON.parse(statuses[2].body);
    expect(final.description).toBe('2/3 cases passed');
    // The report of the failing run (the banner plan), at the public URL, as a signed link
    // that opens without an API key (whoever clicks it on GitHub has none).
    expect(final.target_url).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/v1/runs/${runIds[1]}/report\\?exp=\\d+&sig=[0-9a-f]+$`));
    const page = await fetch(final.target_url.replace(PUBLIC_URL, svc.url));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(await page.text()).toContain('Hello from the banner');

    const slack = await waitFor('the Slack message', () => hits.find((h) => h.path === SLACK_PATH));
    const msg = JSON.parse(slack.body);
    expect(msg.text).toContain('checkout smoke');
    expect(msg.text).toContain('Case 2: The banner says hello');
    expect(msg.text).toContain('Step: Verify "Hello from the banner" is visible');
    expect(msg.text).toMatch(/Error: .*Hello from the banner/);
    expect(msg.text).toContain(final.target_url);
    expect(Array.isArray(msg.blocks)).toBe(true);
    const hook = await waitFor('the webhook', () => hits.find((h) => h.path === '/hook'));
    expect(JSON.parse(hook.body)).toMatchObject({ event: 'suite_run.finished', suite: { id: suite.id, name: 'checkout smoke' }, suiteRun: { id: suiteRunId, status: 'failed' }, cases: 3, passed: 2 });
    // Both signed with the suite's notify secret (and not with anything else).
    for (const h of [slack, hook]) {
      expect(verifyAriadne(suite.notifySecret, Buffer.from(h.body), h.headers['x-ariadne-signature'] as string).ok).toBe(true);
      expect(verifyAriadne('another-secret-entirely', Buffer.from(h.body), h.headers['x-ariadne-signature'] as string).ok).toBe(false);
    }
  }, 180_000);

  it('refuses notify targets and a GitHub API base the egress policy denies, when saved', async () => {
    const bad = await api.post('/v1/suites', { name: 'x', baseUrl: `${fx.url}/`, plans: [{ name: 'p', plan: '#Case 1: a\n- Verify "a" is visible' }], notify: [{ type: 'webhook', url: 'http://169.254.169.254/latest/' }] });
    expect(bad.status).toBe(403);
    expect(bad.body.error).toMatchObject({ code: 'egress_denied', details: { field: 'notify.0.url' } });
    const ghe = await api.post('/v1/suites', { name: 'x', baseUrl: `${fx.url}/`, plans: [{ name: 'p', plan: '#Case 1: a\n- Verify "a" is visible' }], github: { apiBase: 'http://10.1.2.3/api/v3' } });
    expect(ghe.status).toBe(403);
    expect(ghe.body.error.details.field).toBe('github.apiBase');
  });

  it('lists every delivery and each of its tries on the runs, without a token or secret', async () => {
    const run = await waitFor('deliveries on the run', async () => {
      const r = (await api.get(`/v1/runs/${runIds[1]}`)).body;
      return r.deliveries?.length >= 4 && r;
    });
    const gh = run.deliveries.filter((d: any) => d.kind === 'github_status');
    expect(gh.map((d: any) => [d.state, d.delivered, d.attempts.map((a: any) => a.status)])).toEqual([['pending', true, [500, 201]], ['failure', true, [201]]]);
    expect(gh[0].attempts[0]).toMatchObject({ at: expect.any(String), durationMs: expect.any(Number) });
    expect(run.deliveries.find((d: any) => d.kind === 'slack')).toMatchObject({ delivered: true, url: `${fakeUrl}/…`, suiteRun: suiteRunId });
    expect(run.deliveries.find((d: any) => d.kind === 'webhook')).toMatchObject({ delivered: true, url: `${fakeUrl}/hook` });
    const suiteRuns = await api.get(`/v1/suites/${suite.id}/runs`);
    expect(suiteRuns.body.status).toBe('failed');

    const outputs = [JSON.stringify(run), JSON.stringify((await api.get(`/v1/runs/${runIds[0]}`)).body), (await api.get(`/v1/runs/${runIds[1]}/junit`)).body, JSON.stringify(suiteRuns.body), svc.logs.join('\n')];
    for (const secret of [GH_TOKEN, suite.notifySecret, GH_HOOK_SECRET, ACCESS_CODE, SLACK_PATH]) {
      for (const out of outputs) expect(out.includes(secret), `a secret in ${out.slice(0, 80)}`).toBe(false);
    }
  });

  it('a run started by hand with repo and sha posts the same statuses', async () => {
    const sha2 = 'fedcba9876543210fedcba9876543210fedcba98';
    const started = await api.post(`/v1/suites/${suite.id}/runs`, { baseUrl: `${fx.url}/suites/`, repo: 'acme/shop', sha: sha2 });
    expect(started.status).toBe(202);
    await Promise.all(started.body.runs.map((r: any) => waitForRun(r.runId)));
    const calls = await waitFor('2 status calls', () => {
      const c = hits.filter((h) => h.path === `/gh/repos/acme/shop/statuses/${sha2}`);
      return c.length >= 2 && c;
    });
    expect(calls.map((h) => JSON.parse(h.body).state)).toEqual(['pending', 'failure']);
    expect(JSON.parse(calls[1].body).target_url).toContain(`${PUBLIC_URL}/v1/runs/${started.body.runs[1].runId}/report?exp=`);
    expect((await api.post(`/v1/suites/${suite.id}/runs`, { repo: 'not a repo', sha: sha2 })).status).toBe(400);
  }, 180_000);

  it('notifies once per suite run, whichever of two nodes checks first (SET NX)', async () => {
    const redis = (svc.service as any).redis;
    const prefix = (svc.service as any).config.redisPrefix;
    const runs = new RunStore(redis, prefix, 3600);
    const suites = new SuiteStore(redis, prefix, (svc.service as any).config.suites.secretsKey);
    const node = () => new Notifier({ runs, suites, fetch, retry: { attempts: 1, backoffMs: 0 }, publicUrl: PUBLIC_URL, fallbackOrigin: svc.url });
    const run = (await suites.suiteRun(suiteRunId))!;
    const webhookCount = () => hits.filter((h) => h.path === '/hook').length;
    const before = webhookCount();
    // Already notified: nothing more.
    const [a, b] = [node(), node()];
    a.launched(run);
    b.launched(run);
    await Promise.all([a.idle(), b.idle()]);
    expect(webhookCount()).toBe(before);
    // As if never notified: two nodes at once send one notification between them.
    await redis.del(suites.flagKey(suiteRunId, 'notified'));
    const [c, d] = [node(), node()];
    c.launched(run);
    d.launched(run);
    await Promise.all([c.idle(), d.idle()]);
    expect(webhookCount()).toBe(before + 1);
  });
});

describe('signed run callbacks', () => {
  it('signs the callback with the run\'s callbackSecret, retries a failed try, and lists every try on the run', async () => {
    script.set('/cb/one', [503]);
    const res = await api.post('/v1/runs', { url: `${fx.url}/suites/vault.html`, plan: '#Case 1: Heading\n- Verify "Vault" is visible', callbackUrl: `${fakeUrl}/cb/one`, callbackSecret: CALLBACK_SECRET, options: { trace: false } });
    expect(res.status).toBe(202);
    expect(res.body.callbackSecret).toBeUndefined();
    const run = await waitForRun(res.body.id);
    expect(run.status).toBe('passed');
    const tries = hits.filter((h) => h.path === '/cb/one');
    expect(tries.map((h) => h.status)).toEqual([503, 200]);
    for (const h of tries) {
      expect(verifyAriadne(CALLBACK_SECRET, Buffer.from(h.body), h.headers['x-ariadne-signature'] as string).ok).toBe(true);
      expect(JSON.parse(h.body)).toMatchObject({ runId: run.id, status: 'passed' });
    }
    // The same delivery id on both tries: a receiver can drop a duplicate.
    expect(tries[0].headers['x-ariadne-delivery']).toBe(tries[1].headers['x-ariadne-delivery']);
    expect(run.report.callback).toMatchObject({ delivered: true, attempts: 2, status: 200 });
    expect(run.deliveries).toEqual([expect.objectContaining({ kind: 'callback', event: 'run.finished', url: `${fakeUrl}/cb/one`, delivered: true, attempts: [expect.objectContaining({ status: 503 }), expect.objectContaining({ status: 200 })] })]);
    expect(JSON.stringify(run)).not.toContain(CALLBACK_SECRET);
    expect(svc.logs.join('\n')).not.toContain(CALLBACK_SECRET);
  }, 120_000);

  it('generates a callback secret when none is given and answers it once; an unreachable receiver is tried NOTIFY_ATTEMPTS times', async () => {
    const res = await api.post('/v1/runs', { url: `${fx.url}/suites/vault.html`, plan: '#Case 1: Heading\n- Verify "Vault" is visible', callbackUrl: `${fakeUrl}/cb/two`, options: { trace: false } });
    expect(res.status).toBe(202);
    const secret = res.body.callbackSecret;
    expect(secret).toMatch(/^whsec_/);
    const run = await waitForRun(res.body.id);
    const hit = hits.find((h) => h.path === '/cb/two')!;
    expect(verifyAriadne(secret, Buffer.from(hit.body), hit.headers['x-ariadne-signature'] as string).ok).toBe(true);
    expect(JSON.stringify(run)).not.toContain(secret);

    script.set('/cb/down', [500, 500, 500, 500, 500]);
    const down = await api.post('/v1/runs', { url: `${fx.url}/suites/vault.html`, plan: '#Case 1: Heading\n- Verify "Vault" is visible', callbackUrl: `${fakeUrl}/cb/down`, callbackSecret: CALLBACK_SECRET, options: { trace: false } });
    const failed = await waitForRun(down.body.id);
    // The run's own result stands; the callback is recorded as undelivered after 4 tries.
    expect(failed.status).toBe('passed');
    expect(failed.report.callback).toMatchObject({ delivered: false, attempts: 4, status: 500 });
    const d = failed.deliveries[0];
    expect(d.attempts.map((a: any) => a.status)).toEqual([500, 500, 500, 500]);
    // Backoff: each wait at least doubles (100, 200, 400 ms).
    const at = d.attempts.map((a: any) => Date.parse(a.at));
    expect(at[3] - at[2]).toBeGreaterThanOrEqual(400);
    expect(at[1] - at[0]).toBeGreaterThanOrEqual(100);
  }, 120_000);
});

describe('retries and flaky cases', () => {
  it('a case that fails, then passes in a fresh context, is flaky (report, totals, JUnit, suite status), with both attempts kept', async () => {
    const key = `k${randomBytes(6).toString('hex')}`;
    const created = await api.post('/v1/suites', {
      name: 'flaky one',
      baseUrl: `${fx.url}/`,
      plans: [{ name: 'ready', plan: '#Case 1: The service is ready\n- Verify "Status: ready" is visible', path: `flaky/${key}` }],
      retries: 1,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.retries).toBe(1);
    const started = await api.post(`/v1/suites/${created.body.id}/runs`, {});
    expect(started.status).toBe(202);
    const run = await waitForRun(started.body.runs[0].runId);
    expect(run.status).toBe('passed');
    const c = run.report.cases[0];
    expect(c.status).toBe('flaky');
    expect(run.report.totals).toMatchObject({ cases: 1, passed: 0, flaky: 1, failed: 0 });
    expect(c.attempts.map((a: any) => a.status)).toEqual(['failed', 'passed']);
    expect(c.attempts[0].assertions[0]).toMatchObject({ passed: false });
    expect(c.attempts[0].summary).toMatch(/Status: ready/);
    // The retry's own steps are the case's, with screenshots named apart.
    expect(c.steps[0]).toMatchObject({ status: 'passed' });
    expect(c.steps[0].screenshot).toMatch(/^c1-r2-s1\.jpg$/);
    expect(c.attempts[0].steps[0].screenshot).toMatch(/^c1-s1\.jpg$/);
    const junit = (await api.get(`/v1/runs/${run.id}/junit`)).body as string;
    expect(junit).toContain('<property name="flaky" value="true"/>');
    expect(junit).toContain('FLAKY: passed on attempt 2');
    expect(junit).not.toContain('<failure');
    const history = await api.get(`/v1/suites/${created.body.id}/runs`);
    expect(history.body.status).toBe('flaky');
    expect(history.body.runs[0].status).toBe('flaky');
  }, 120_000);

  it('a retry starts from the cookies and URL its case began with (a login from case 1 holds), in new contexts', async () => {
    const key = `k${randomBytes(6).toString('hex')}`;
    const plan = [
      '#Case 1: Sign in', '- Type alice into "Username"', '- Type secret into "Password"', '- Click the "Sign in" button', '- Verify "Logged in as alice" is visible',
      '#Case 2: Ready while signed in', `- Go to ${fx.url}/flaky/${key}`, '- Verify "Status: ready" is visible', `- Go to ${fx.url}/account`, '- Verify "Logged in as alice" is visible',
    ].join('\n');
    const res = await api.post('/v1/runs', { url: `${fx.url}/login.html`, plan, options: { retries: 2, trace: false } });
    expect(res.status).toBe(202);
    const run = await waitForRun(res.body.id);
    const [one, two] = run.report.cases;
    expect(one.status).toBe('passed');
    expect(one.attempts).toBeUndefined();
    expect(two.status, JSON.stringify(two.attempts)).toBe('flaky');
    // Two tries, not three: it stopped retrying once it passed.
    expect(two.attempts.map((a: any) => a.attempt)).toEqual([1, 2]);
    // The retry began where case 2 had begun (the account page), signed in.
    expect(two.steps[two.steps.length - 1]).toMatchObject({ status: 'passed', action: 'assert' });
    expect(run.report.totals).toMatchObject({ cases: 2, passed: 1, flaky: 1, failed: 0 });
    expect(run.status).toBe('passed');
    const events = (await api.get(`/v1/runs/${run.id}/events`)).body as string;
    expect(events).toContain('event: case_retry');
    // Nothing is left leased: the first try's contexts were closed when the retry began.
    expect((await api.get('/v1/pool')).body.leased).toBe(0);
  }, 120_000);

  it('without retries the same page fails; retries are bounded', async () => {
    const key = `k${randomBytes(6).toString('hex')}`;
    const res = await api.post('/v1/runs', { url: `${fx.url}/flaky/${key}`, plan: '#Case 1: Ready\n- Verify "Status: ready" is visible', options: { trace: false } });
    const run = await waitForRun(res.body.id);
    expect(run.status).toBe('failed');
    expect(run.report.cases[0].attempts).toBeUndefined();
    const tooMany = await api.post('/v1/runs', { url: `${fx.url}/flaky/${key}`, plan: '#Case 1: Ready\n- Verify "Status: ready" is visible', options: { retries: 4 } });
    expect(tooMany.status).toBe(400);
  }, 120_000);
});
