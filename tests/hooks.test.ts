import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type Api, type TestService } from './helpers/service.js';

// Deploy webhooks (issue 13) sent to a running service as the platforms send them:
// GitHub deployment_status deliveries (payloads written for this test in GitHub's
// format, signed with X-Hub-Signature-256 over the raw bytes) start the suite's runs
// against environment_url; redeliveries are dropped; ping, other events and states are
// answered without starting anything; the generic t=,v1= scheme refuses stale
// timestamps; bad signatures, unknown hooks, malformed and oversized bodies queue nothing.

const KEY = 'hooks-key-0123456789abcdef';
const GH_SECRET = `gh-${randomBytes(8).toString('hex')}`;
const GEN_SECRET = `ci-${randomBytes(8).toString('hex')}`;
let svc: TestService;
let fx: FixtureServer;
let api: Api;
let suiteId: string;
let ghUrl: string;
let genUrl: string;

const plan = ['#Case 1: Unlock', '- Type {{WHO}} into "Name"', '- Type {{ACCESS_CODE}} into "Access code"', '- Click the "Unlock" button', '- Verify "Unlocked for {{WHO}}" is visible'].join('\n');

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KEY}:team`, SECRETS_KEY: randomBytes(32).toString('base64') }),
    startFixtureServer(),
  ]);
  api = svc.api.withToken(KEY);
  const created = await api.post('/v1/suites', {
    name: 'deploy smoke',
    // Nothing listens here: a run that reaches the page proves it used the deployment's URL.
    baseUrl: 'http://127.0.0.1:9/',
    plans: [{ name: 'unlock', plan, path: 'vault.html' }],
    variables: { WHO: 'Robin' },
    secrets: { ACCESS_CODE: 'open-sesame-42' },
    options: { trace: false },
    triggers: [{ type: 'github', secret: GH_SECRET, environments: ['staging'] }, { type: 'generic', secret: GEN_SECRET }],
  });
  expect(created.status).toBe(201);
  suiteId = created.body.id;
  const local = (u: string) => u.replace(/^http:\/\/[^/]+/, svc.url);
  ghUrl = local(created.body.triggers[0].url);
  genUrl = local(created.body.triggers[1].url);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

/** A deployment_status payload shaped like GitHub's (trimmed to the fields a receiver reads, plus noise). */
function deploymentStatus(state: string, environment: string, environmentUrl: string, sha = 'f0e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d') {
  // Signed times inside the replay window (HOOK_REPLAY_WINDOW_SECONDS): GitHub's are "now".
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    action: 'created',
    deployment_status: {
      url: 'https://api.github.com/repos/acme/shop/deployments/42/statuses/7', id: 7, node_id: 'DES_kwDO', state,
      creator: { login: 'vercel[bot]', id: 35613825, type: 'Bot' }, description: 'Deployment finished — “ok” ✓',
      environment, target_url: 'https://vercel.com/acme/shop/logs', created_at: at, updated_at: at,
      environment_url: environmentUrl, log_url: 'https://vercel.com/acme/shop/logs',
    },
    deployment: {
      url: 'https://api.github.com/repos/acme/shop/deployments/42', id: 42, node_id: 'DE_kwDO', sha, ref: 'main', task: 'deploy',
      payload: {}, original_environment: environment, environment, description: null, creator: { login: 'vercel[bot]' },
      created_at: at, updated_at: at, transient_environment: false, production_environment: false,
    },
    repository: { id: 1, node_id: 'R_kgDO', name: 'shop', full_name: 'acme/shop', private: true, owner: { login: 'acme' } },
    sender: { login: 'vercel[bot]', id: 35613825 },
  };
}

// GitHub's bytes: keep them exactly (pretty-printed, with non-ASCII) so a receiver that
// re-serialises the JSON before checking would fail.
const githubBody = (payload: unknown) => Buffer.from(JSON.stringify(payload, null, 2), 'utf8');
const ghSign = (body: Buffer, secret = GH_SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

async function deliver(url: string, body: Buffer | string, headers: Record<string, string>) {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'user-agent': 'GitHub-Hookshot/abc', ...headers }, body });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const github = (body: Buffer, event: string, delivery = randomUUID(), signature = ghSign(body)) =>
  deliver(ghUrl, body, { 'x-github-event': event, 'x-github-delivery': delivery, 'x-hub-signature-256': signature });

async function suiteRunCount(): Promise<number> {
  const res = await api.get(`/v1/suites/${suiteId}/runs?limit=100`);
  return res.body.runs.length;
}
async function runCount(): Promise<number> {
  return (await api.get('/v1/runs?limit=100')).body.total;
}

async function waitForRun(id: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/v1/runs/${id}`);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

describe('GitHub deployment_status webhooks', () => {
  it('answers ping, starts runs against environment_url for a successful deployment, and drops the redelivery', async () => {
    const ping = await github(githubBody({ zen: 'Keep it logically awesome.', hook_id: 1, hook: { type: 'Repository', events: ['deployment_status'] } }), 'ping');
    expect(ping).toMatchObject({ status: 200, body: { status: 'pong' } });

    const body = githubBody(deploymentStatus('success', 'staging', `${fx.url}/suites/`));
    const delivery = randomUUID();
    const first = await github(body, 'deployment_status', delivery);
    expect(first.status).toBe(202);
    expect(first.body.status).toBe('accepted');
    expect(first.body.runs).toHaveLength(1);
    const run = await waitForRun(first.body.runs[0]);
    expect(run.url).toBe(`${fx.url}/suites/vault.html`);
    expect(run.status).toBe('passed');
    // The run itself records the deploy that started it.
    expect(run.suite).toMatchObject({ id: suiteId, plan: 'unlock', trigger: { type: 'github', repo: 'acme/shop', sha: 'f0e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d', environment: 'staging', delivery, suiteRun: first.body.suiteRun } });

    const history = await api.get(`/v1/suites/${suiteId}/runs`);
    expect(history.body.runs[0]).toMatchObject({
      id: first.body.suiteRun,
      baseUrl: `${fx.url}/suites/`,
      trigger: { type: 'github', repo: 'acme/shop', sha: 'f0e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d', environment: 'staging', delivery },
      status: 'passed',
    });

    // GitHub's "Redeliver" sends the same delivery id: nothing new starts, and the answer says so.
    const before = [await suiteRunCount(), await runCount()];
    const again = await github(body, 'deployment_status', delivery);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'duplicate', suiteRun: first.body.suiteRun });
    expect([await suiteRunCount(), await runCount()]).toEqual(before);
  }, 240_000);

  it('ignores other events, other states and other environments, with the reason', async () => {
    const before = [await suiteRunCount(), await runCount()];
    const push = await github(githubBody({ ref: 'refs/heads/main', after: 'abc' }), 'push');
    expect(push.status).toBe(202);
    expect(push.body.status).toBe('ignored');
    expect(push.body.reason).toContain('push');
    const pending = await github(githubBody(deploymentStatus('in_progress', 'staging', `${fx.url}/suites/`)), 'deployment_status');
    expect(pending).toMatchObject({ status: 202, body: { status: 'ignored' } });
    expect(pending.body.reason).toContain('in_progress');
    const prod = await github(githubBody(deploymentStatus('success', 'production', `${fx.url}/suites/`)), 'deployment_status');
    expect(prod).toMatchObject({ status: 202, body: { status: 'ignored' } });
    expect(prod.body.reason).toContain('production');
    expect([await suiteRunCount(), await runCount()]).toEqual(before);
  });

  it('refuses bad signatures, unknown hooks, malformed and oversized bodies, queueing nothing', async () => {
    const before = [await suiteRunCount(), await runCount()];
    const body = githubBody(deploymentStatus('success', 'staging', `${fx.url}/suites/`));
    const wrongSecret = await github(body, 'deployment_status', randomUUID(), ghSign(body, 'not-the-secret'));
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.body.error.code).toBe('invalid_signature');
    // Signed over the pretty-printed bytes; the same JSON re-serialised does not verify.
    const compact = Buffer.from(JSON.stringify(JSON.parse(body.toString('utf8'))));
    const reserialised = await github(compact, 'deployment_status', randomUUID(), ghSign(body));
    expect(reserialised.status).toBe(401);
    const unsigned = await deliver(ghUrl, body, { 'x-github-event': 'deployment_status', 'x-github-delivery': randomUUID() });
    expect(unsigned.body.error.code).toBe('invalid_signature');
    const malformedSig = await github(body, 'deployment_status', randomUUID(), 'sha1=abcdef');
    expect(malformedSig.body.error.code).toBe('invalid_signature');
    const unknown = await deliver(`${svc.url}/v1/hooks/${randomBytes(16).toString('hex')}`, body, { 'x-github-event': 'deployment_status', 'x-hub-signature-256': ghSign(body) });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('hook_not_found');
    const notJson = Buffer.from('{"deployment_status": ');
    const malformed = await github(notJson, 'deployment_status');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('invalid_payload');
    const huge = Buffer.alloc(2 * 1024 * 1024, 'a');
    const oversized = await github(huge, 'deployment_status');
    expect(oversized.status).toBe(413);
    expect(oversized.body.error.code).toBe('payload_too_large');
    const badUrl = githubBody(deploymentStatus('success', 'staging', 'file:///etc/passwd'));
    const refused = await github(badUrl, 'deployment_status');
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('invalid_payload');
    expect([await suiteRunCount(), await runCount()]).toEqual(before);
    // The service is still up and the hook still works.
    expect((await github(githubBody({ zen: 'ok' }), 'ping')).status).toBe(200);
  });
});

describe('generic signed webhooks', () => {
  const sign = (body: string, t = Math.floor(Date.now() / 1000), secret = GEN_SECRET) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;

  it('starts runs for a fresh signature, once per idempotency key; refuses stale timestamps and tampered bodies', async () => {
    const body = JSON.stringify({ baseUrl: `${fx.url}/suites/`, sha: 'c0ffee', environment: 'preview' });
    const key = randomUUID();
    const ok = await deliver(genUrl, body, { 'x-ariadne-signature': sign(body), 'idempotency-key': key });
    expect(ok.status).toBe(202);
    expect(ok.body.status).toBe('accepted');
    const again = await deliver(genUrl, body, { 'x-ariadne-signature': sign(body), 'idempotency-key': key });
    expect(again).toMatchObject({ status: 200, body: { status: 'duplicate', suiteRun: ok.body.suiteRun } });
    const history = await api.get(`/v1/suites/${suiteId}/runs`);
    expect(history.body.runs[0]).toMatchObject({ id: ok.body.suiteRun, trigger: { type: 'generic', sha: 'c0ffee', environment: 'preview', delivery: key } });

    const before = [await suiteRunCount(), await runCount()];
    const stale = await deliver(genUrl, body, { 'x-ariadne-signature': sign(body, Math.floor(Date.now() / 1000) - 600) });
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe('signature_expired');
    const tampered = await deliver(genUrl, body.replace('c0ffee', 'evil'), { 'x-ariadne-signature': sign(body) });
    expect(tampered.status).toBe(401);
    expect(tampered.body.error.code).toBe('invalid_signature');
    const garbled = await deliver(genUrl, body, { 'x-ariadne-signature': 'v1=abc' });
    expect(garbled.body.error.code).toBe('invalid_signature');
    const otherSecret = await deliver(genUrl, body, { 'x-ariadne-signature': sign(body, undefined, GH_SECRET) });
    expect(otherSecret.body.error.code).toBe('invalid_signature');
    const notObject = '[1,2]';
    const arr = await deliver(genUrl, notObject, { 'x-ariadne-signature': sign(notObject) });
    expect(arr.status).toBe(400);
    expect(arr.body.error.code).toBe('invalid_payload');
    expect([await suiteRunCount(), await runCount()]).toEqual(before);
    await waitForRun(ok.body.runs[0]);
  }, 240_000);
});

describe('Vercel and Netlify webhooks', () => {
  const VERCEL_SECRET = `vc-${randomBytes(8).toString('hex')}`;
  const NETLIFY_SECRET = `nf-${randomBytes(8).toString('hex')}`;
  let vercelUrl: string;
  let netlifyUrl: string;
  let otherSuite: string;

  beforeAll(async () => {
    const created = await api.post('/v1/suites', {
      name: 'platform smoke',
      baseUrl: 'http://127.0.0.1:9/',
      plans: [{ name: 'unlock', plan, path: 'vault.html' }],
      variables: { WHO: 'Sam', ACCESS_CODE: 'x1' },
      options: { trace: false },
      triggers: [{ type: 'vercel', secret: VERCEL_SECRET, environments: ['production', 'preview'] }, { type: 'netlify', secret: NETLIFY_SECRET }],
    });
    expect(created.status).toBe(201);
    otherSuite = created.body.id;
    vercelUrl = created.body.triggers[0].url.replace(/^http:\/\/[^/]+/, svc.url);
    netlifyUrl = created.body.triggers[1].url.replace(/^http:\/\/[^/]+/, svc.url);
  });

  const vercelEvent = (type: string, id = `evt_${randomBytes(6).toString('hex')}`) => Buffer.from(JSON.stringify({
    id, type, createdAt: Date.now(), region: 'iad1',
    payload: {
      team: { id: 'team_1' }, user: { id: 'user_1' }, project: { id: 'prj_1' }, target: 'production',
      deployment: { id: 'dpl_1', name: 'shop', url: `${fx.url}/suites/`, inspectorUrl: 'https://vercel.com/acme/shop/dpl_1', meta: { githubCommitSha: 'beefcafe', githubCommitOrg: 'acme', githubCommitRepo: 'shop' } },
      links: { deployment: 'https://vercel.com/acme/shop/dpl_1', project: 'https://vercel.com/acme/shop' },
    },
  }));
  const vercelSign = (b: Buffer, secret = VERCEL_SECRET) => createHmac('sha1', secret).update(b).digest('hex');

  const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const jwt = (body: Buffer, opts: { secret?: string; alg?: string; iss?: string } = {}) => {
    const head = b64({ alg: opts.alg ?? 'HS256', typ: 'JWT' });
    const claims = b64({ iss: opts.iss ?? 'netlify', sha256: createHash('sha256').update(body).digest('hex') });
    const sig = createHmac('sha256', opts.secret ?? NETLIFY_SECRET).update(`${head}.${claims}`).digest('base64url');
    return `${head}.${claims}.${opts.alg === 'none' ? '' : sig}`;
  };
  const netlifyDeploy = (state: string, id = randomBytes(12).toString('hex')) => Buffer.from(JSON.stringify({
    id, site_id: 'site-1', build_id: 'b1', state, name: 'shop', url: 'http://shop.netlify.app', ssl_url: 'https://shop.netlify.app',
    deploy_url: `${fx.url}/suites/`, deploy_ssl_url: `${fx.url}/suites/`, commit_ref: 'ab12cd', branch: 'main', context: 'production',
    error_message: null, created_at: '2026-11-24T10:00:00.000Z', published_at: null,
  }));

  it('Vercel: deployment.succeeded starts runs on the deployment URL (once per event id); other events are ignored; bad signatures refused', async () => {
    const evt = vercelEvent('deployment.succeeded');
    const first = await deliver(vercelUrl, evt, { 'x-vercel-signature': vercelSign(evt) });
    expect(first.status).toBe(202);
    expect(first.body.status).toBe('accepted');
    const again = await deliver(vercelUrl, evt, { 'x-vercel-signature': vercelSign(evt) });
    expect(again.body).toMatchObject({ status: 'duplicate', suiteRun: first.body.suiteRun });
    const history = await api.get(`/v1/suites/${otherSuite}/runs`);
    expect(history.body.runs[0]).toMatchObject({ id: first.body.suiteRun, trigger: { type: 'vercel', repo: 'acme/shop', sha: 'beefcafe', environment: 'production' } });
    const before = [(await api.get(`/v1/suites/${otherSuite}/runs`)).body.runs.length, await runCount()];
    const created = vercelEvent('deployment.created');
    expect((await deliver(vercelUrl, created, { 'x-vercel-signature': vercelSign(created) })).body.status).toBe('ignored');
    const forged = await deliver(vercelUrl, evt, { 'x-vercel-signature': vercelSign(evt, 'wrong') });
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('invalid_signature');
    expect([(await api.get(`/v1/suites/${otherSuite}/runs`)).body.runs.length, await runCount()]).toEqual(before);
    const run = await waitForRun(first.body.runs[0]);
    expect(run.url).toBe(`${fx.url}/suites/vault.html`);
  }, 240_000);

  it('Netlify: a ready deploy starts runs (once per deploy id); other states are ignored; forged or unsigned JWTs refused', async () => {
    const deploy = netlifyDeploy('ready');
    const first = await deliver(netlifyUrl, deploy, { 'x-webhook-signature': jwt(deploy) });
    expect(first.status).toBe(202);
    expect(first.body.status).toBe('accepted');
    expect((await deliver(netlifyUrl, deploy, { 'x-webhook-signature': jwt(deploy) })).body.status).toBe('duplicate');
    const history = await api.get(`/v1/suites/${otherSuite}/runs`);
    expect(history.body.runs[0]).toMatchObject({ id: first.body.suiteRun, baseUrl: `${fx.url}/suites/`, trigger: { type: 'netlify', sha: 'ab12cd', environment: 'production' } });
    const before = [history.body.runs.length, await runCount()];
    const building = netlifyDeploy('building');
    expect((await deliver(netlifyUrl, building, { 'x-webhook-signature': jwt(building) })).body.status).toBe('ignored');
    for (const sig of [jwt(deploy, { alg: 'none' }), jwt(deploy, { secret: 'wrong' }), jwt(deploy, { iss: 'someone' }), jwt(netlifyDeploy('ready')), 'not.a-jwt']) {
      const res = await deliver(netlifyUrl, deploy, { 'x-webhook-signature': sig });
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('invalid_signature');
    }
    expect([(await api.get(`/v1/suites/${otherSuite}/runs`)).body.runs.length, await runCount()]).toEqual(before);
    await waitForRun(first.body.runs[0]);
  }, 240_000);
});
