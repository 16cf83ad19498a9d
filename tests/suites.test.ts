import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '@ariadne/server';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { Api, startTestService, type TestService } from './helpers/service.js';

// Saved suites (issue 13) against a running service: CRUD and tenant isolation,
// write-only secrets (encrypted at rest, never in any route's answer, refused without
// SECRETS_KEY), "run it now" as ordinary runs, and a secret whose NAME does not look
// secret kept out of every output of its runs (report, events, JUnit, spec, logs).

let svc: TestService;
let fx: FixtureServer;
let alice: Api;
let bob: Api;
const KA = 'alice-key-0123456789abcdef';
const KB = 'bob-key-0123456789abcdef';
const SECRET = `zq${randomBytes(12).toString('hex')}`;
const HOOK_SECRET = `hk${randomBytes(12).toString('hex')}`;

const unlockPlan = [
  '#Case 1: Unlock the vault',
  '- Type {{WHO}} into "Name"',
  '- Type {{ACCESS_CODE}} into "Access code"',
  '- Click the "Unlock" button',
  '- Verify "Unlocked for {{WHO}}" is visible',
].join('\n');
// Fails on purpose: its failure diagnostics must not carry the secret either.
const failingPlan = [
  '#Case 1: Show the code',
  '- Type {{ACCESS_CODE}} into "Access code"',
  '- Verify "{{ACCESS_CODE}}" is visible',
].join('\n');

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KA}:alice,${KB}:bob`, SECRETS_KEY: randomBytes(32).toString('hex'), RUN_ASSERT_TIMEOUT_MS: '1500' }, { captureLogs: true }),
    startFixtureServer(),
  ]);
  alice = svc.api.withToken(KA);
  bob = svc.api.withToken(KB);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function waitForRun(id: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await alice.get(`/v1/runs/${id}`);
    expect(res.status).toBe(200);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

const suiteBody = () => ({
  name: 'vault',
  baseUrl: `${fx.url}/suites/`,
  plans: [{ name: 'unlock', plan: unlockPlan, path: 'vault.html' }],
  variables: { WHO: 'Dana' },
  secrets: { ACCESS_CODE: SECRET },
  triggers: [{ type: 'generic', secret: HOOK_SECRET }],
});

describe('suites CRUD', () => {
  it('creates, reads, lists, updates and deletes a suite; secret values are never returned', async () => {
    const created = await alice.post('/v1/suites', suiteBody());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'vault', secrets: ['ACCESS_CODE'], variables: { WHO: 'Dana' }, latest: null });
    expect(created.body.triggers).toHaveLength(1);
    expect(created.body.triggers[0].url).toMatch(/\/v1\/hooks\/[0-9a-f]{32}$/);
    const id = created.body.id;
    const got = await alice.get(`/v1/suites/${id}`);
    expect(got.status).toBe(200);
    const list = await alice.get('/v1/suites');
    expect(list.body.suites.map((s: any) => s.id)).toContain(id);
    const patched = await alice.request('PATCH', `/v1/suites/${id}`, { name: 'vault 2', triggers: [{ id: created.body.triggers[0].id, type: 'generic' }] });
    expect(patched.status).toBe(200);
    expect(patched.body.name).toBe('vault 2');
    // The trigger kept its URL (and its secret, which was not given again).
    expect(patched.body.triggers[0].url).toBe(created.body.triggers[0].url);
    for (const r of [created, got, list, patched]) {
      const text = JSON.stringify(r.body);
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(HOOK_SECRET);
    }
    // At rest: the record in Redis holds neither value in clear.
    const keys = await svc.service.redis.keys('*suite*');
    for (const k of keys) {
      const type = await svc.service.redis.type(k);
      // (BullMQ's keys of the suite-schedules queue match too: hashes and streams.)
      const raw = type === 'string' ? await svc.service.redis.get(k) : JSON.stringify(type === 'list' ? await svc.service.redis.lrange(k, 0, -1) : type === 'hash' ? await svc.service.redis.hgetall(k) : type === 'stream' ? await svc.service.redis.xrange(k, '-', '+') : await svc.service.redis.zrange(k, 0, -1));
      expect(raw ?? '').not.toContain(SECRET);
      expect(raw ?? '').not.toContain(HOOK_SECRET);
    }
    expect((await alice.delete(`/v1/suites/${id}`)).status).toBe(204);
    const gone = await alice.get(`/v1/suites/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('suite_not_found');
    // Its hook URL stops working.
    const hook = await fetch(created.body.triggers[0].url.replace(/^http:\/\/[^/]+/, svc.url), { method: 'POST', body: '{}' });
    expect(hook.status).toBe(404);
    expect((await hook.json()).error.code).toBe('hook_not_found');
  });

  it("another tenant's suite is 404 suite_not_found for every route", async () => {
    const created = await alice.post('/v1/suites', { ...suiteBody(), triggers: [] });
    const id = created.body.id;
    for (const res of [
      await bob.get(`/v1/suites/${id}`),
      await bob.request('PATCH', `/v1/suites/${id}`, { name: 'mine' }),
      await bob.post(`/v1/suites/${id}/runs`, {}),
      await bob.get(`/v1/suites/${id}/runs`),
      await bob.delete(`/v1/suites/${id}`),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('suite_not_found');
    }
    expect((await bob.get('/v1/suites')).body.suites.map((s: any) => s.id)).not.toContain(id);
    expect((await alice.get(`/v1/suites/${id}`)).body.name).toBe('vault');
    expect((await svc.api.get('/v1/suites')).status).toBe(401);
  });

  it('refuses bad suites with clear 4xx answers', async () => {
    const badPlan = await alice.post('/v1/suites', { ...suiteBody(), plans: [{ name: 'p', plan: '- Type {{NOPE}} into "Name"' }] });
    expect(badPlan.status).toBe(400);
    expect(badPlan.body.error.message).toContain('NOPE');
    const badUrl = await alice.post('/v1/suites', { ...suiteBody(), baseUrl: 'file:///etc/passwd' });
    expect(badUrl.status).toBe(400);
    expect(badUrl.body.error.details.field).toBe('baseUrl');
    const extra = await alice.post('/v1/suites', { ...suiteBody(), schedule: '* * * * *' });
    expect(extra.status).toBe(400);
    const noSecret = await alice.post('/v1/suites', { ...suiteBody(), triggers: [{ type: 'github' }] });
    expect(noSecret.status).toBe(400);
    expect(noSecret.body.error.details.field).toBe('triggers.0.secret');
  });

  it('refuses to store secrets when no SECRETS_KEY is configured (secret-less suites still work)', async () => {
    const s = svc.service;
    const app = await buildApp({ config: { ...s.config, suites: { ...s.config.suites, secretsKey: null } }, sessions: s.sessions, pool: s.pool, redis: s.redis });
    try {
      const auth = { authorization: `Bearer ${KA}`, 'content-type': 'application/json' };
      const withSecrets = await app.inject({ method: 'POST', url: '/v1/suites', headers: auth, payload: suiteBody() });
      expect(withSecrets.statusCode).toBe(409);
      expect(withSecrets.json().error.code).toBe('secrets_key_missing');
      expect(withSecrets.body).not.toContain(SECRET);
      const plain = await app.inject({ method: 'POST', url: '/v1/suites', headers: auth, payload: { ...suiteBody(), secrets: undefined, variables: { WHO: 'Dana', ACCESS_CODE: 'not-secret' }, triggers: [] } });
      expect(plain.statusCode).toBe(201);
    } finally {
      await app.close();
    }
  });
});

describe('running a suite', () => {
  it('runs one ordinary run per plan; the secret is in no output of its runs, nor in the logs', async () => {
    const created = await alice.post('/v1/suites', {
      ...suiteBody(),
      plans: [{ name: 'unlock', plan: unlockPlan, path: 'vault.html' }, { name: 'show', plan: failingPlan, path: '/suites/vault.html' }],
      options: { trace: false },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const started = await alice.post(`/v1/suites/${id}/runs`, { sha: 'abc123', environment: 'staging' });
    expect(started.status).toBe(202);
    expect(started.body.trigger).toMatchObject({ type: 'manual', sha: 'abc123', environment: 'staging' });
    expect(started.body.runs.map((r: any) => r.plan)).toEqual(['unlock', 'show']);
    const [unlock, show] = await Promise.all(started.body.runs.map((r: any) => waitForRun(r.runId)));
    expect(unlock.status).toBe('passed');
    expect(unlock.url).toBe(`${fx.url}/suites/vault.html`);
    expect(show.status).toBe('failed');
    // The secret was really typed (the page said so) and is listed by name only.
    expect(unlock.variables).toEqual(expect.arrayContaining(['WHO', 'ACCESS_CODE']));

    const outputs: string[] = [];
    for (const run of [unlock, show]) {
      outputs.push(JSON.stringify(run));
      const events = await fetch(`${svc.url}/v1/runs/${run.id}/events`, { headers: { authorization: `Bearer ${KA}` } });
      const text = await events.text();
      expect(text).toContain('run_finished');
      outputs.push(text);
      outputs.push((await alice.get(`/v1/runs/${run.id}/junit`)).body);
    }
    const spec = await alice.get(`/v1/runs/${unlock.id}/spec`);
    expect(spec.status).toBe(200);
    expect(spec.body).toContain("env('ACCESS_CODE')");
    outputs.push(spec.body);
    outputs.push(JSON.stringify((await alice.get('/v1/runs?limit=100')).body));
    const history = await alice.get(`/v1/suites/${id}/runs`);
    expect(history.status).toBe(200);
    expect(history.body.status).toBe('failed');
    expect(history.body.runs[0]).toMatchObject({ id: started.body.id, status: 'failed' });
    outputs.push(JSON.stringify(history.body));
    const suite = await alice.get(`/v1/suites/${id}`);
    expect(suite.body.latest).toMatchObject({ id: started.body.id, status: 'failed' });
    outputs.push(JSON.stringify(suite.body));
    outputs.push(svc.logs.join('\n'));
    for (const o of outputs) expect(o).not.toContain(SECRET);
    // The unlock step's recorded value is the placeholder.
    expect(JSON.stringify(unlock.report)).toContain('{{ACCESS_CODE}}');
  }, 240_000);

  it('runs against an overriding baseUrl; history is newest first and bounded by ?limit', async () => {
    const created = await alice.post('/v1/suites', { ...suiteBody(), baseUrl: 'http://127.0.0.1:9/nowhere/', triggers: [] });
    const id = created.body.id;
    const a = await alice.post(`/v1/suites/${id}/runs`, { baseUrl: `${fx.url}/suites/` });
    const b = await alice.post(`/v1/suites/${id}/runs`, { baseUrl: `${fx.url}/suites/` });
    expect(a.status).toBe(202);
    const runB = await waitForRun(b.body.runs[0].runId);
    expect(runB.url).toBe(`${fx.url}/suites/vault.html`);
    expect(runB.status).toBe('passed');
    const one = await alice.get(`/v1/suites/${id}/runs?limit=1`);
    expect(one.body.runs.map((r: any) => r.id)).toEqual([b.body.id]);
    const both = await alice.get(`/v1/suites/${id}/runs`);
    expect(both.body.runs.map((r: any) => r.id)).toEqual([b.body.id, a.body.id]);
    const bad = await alice.post(`/v1/suites/${id}/runs`, { baseUrl: 'javascript:alert(1)' });
    expect(bad.status).toBe(400);
    await waitForRun(a.body.runs[0].runId);
  }, 240_000);
});
