import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// Runs as a service: POST /v1/runs queues a BullMQ job that a worker of the (real,
// in-process) service runs with its own leases; status, JSON and JUnit reports,
// artifacts, listing, cancellation, callbacks, and the 4xx answers to bad input.

let svc: TestService;
let fx: FixtureServer;
let hook: Server;
let hookUrl: string;
const received: { path: string; body: any }[] = [];

const plan = (name: string) => readFileSync(path.join(FIXTURES_DIR, 'app/plans', name), 'utf8');

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ RUN_ASSERT_TIMEOUT_MS: '2000', NOTIFY_BACKOFF_MS: '200' }), startFixtureServer()]);
  // A callback receiver: /ok answers 204, /broken always 500.
  hook = createServer(async (req, res) => {
    let body = '';
    for await (const c of req) body += c;
    received.push({ path: req.url ?? '', body: JSON.parse(body || 'null') });
    res.writeHead(req.url === '/ok' ? 204 : 500).end();
  });
  await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
  hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}`;
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  await new Promise((r) => hook?.close(r));
});

async function waitForRun(id: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await svc.api.get(`/v1/runs/${id}`);
    expect(res.status).toBe(200);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('POST /v1/runs', () => {
  it('runs a plan as a job and reports it as JSON and JUnit, with artifacts', async () => {
    const res = await svc.api.post('/v1/runs', {
      url: `${fx.url}/app/login.html`,
      plan: plan('shop.md'),
      variables: { USER: 'alice', PASSWORD: 'secret' },
      callbackUrl: `${hookUrl}/ok`,
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ status: 'queued', planner: 'rules', variables: ['USER', 'PASSWORD'] });
    expect(JSON.stringify(res.body)).not.toContain('secret');
    const run = await waitForRun(res.body.id);
    expect(run.status, JSON.stringify(run.report?.cases?.map((c: any) => c.steps.filter((s: any) => s.error)))).toBe('passed');
    expect(run.attempts).toBe(1);
    const report = run.report;
    expect(report.totals).toMatchObject({ cases: 4, passed: 4, failed: 0 });
    expect(report.cases[1].steps[0]).toMatchObject({ action: 'click', status: 'passed', locator: { verified: true } });
    expect(report.callback).toMatchObject({ delivered: true, attempts: 1, status: 204 });
    expect(received.find((r) => r.path === '/ok')?.body).toMatchObject({ runId: run.id, status: 'passed' });

    const junit = await svc.api.get(`/v1/runs/${run.id}/junit`);
    expect(junit.status).toBe(200);
    expect(junit.headers.get('content-type')).toContain('application/xml');
    expect(junit.body).toContain('<testsuite name="ariadne run');
    expect(junit.body).toContain('tests="4" failures="0"');
    expect(junit.body).toContain('name="Case 3: Check out with the one-time code"');

    const shot = report.cases[0].steps[0].screenshot;
    const img = await svc.api.get(`/v1/runs/${run.id}/artifacts/${shot}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect((img.body as Buffer).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const trace = await fetch(`${svc.url}/v1/runs/${run.id}/artifacts/${report.cases[0].trace}`);
    expect(trace.status).toBe(200);
    expect(Buffer.from(await trace.arrayBuffer()).subarray(0, 2).toString()).toBe('PK');
    expect((await svc.api.get(`/v1/runs/${run.id}/artifacts/..%2F..%2Fetc%2Fpasswd`)).status).toBe(404);

    // No session or context is left behind by the run.
    const pool = await svc.api.get('/v1/pool');
    expect(pool.body.leased).toBe(0);
  });

  it('fails a wrong expected text, in JSON and JUnit; a failing callback is retried and recorded, never fails the run', async () => {
    const res = await svc.api.post('/v1/runs', { url: `${fx.url}/app/login.html`, plan: plan('wrong-text.md'), callbackUrl: `${hookUrl}/broken` });
    const run = await waitForRun(res.body.id);
    expect(run.status).toBe('failed');
    expect(run.report.totals).toMatchObject({ cases: 2, passed: 1, failed: 1, failedAssertions: 1 });
    expect(run.report.callback).toMatchObject({ delivered: false, attempts: 4, status: 500 });
    expect(received.filter((r) => r.path === '/broken')).toHaveLength(4);
    const junit = await svc.api.get(`/v1/runs/${run.id}/junit`);
    expect(junit.body).toContain('failures="1"');
    expect(junit.body).toMatch(/<failure message="Expected &quot;Welcome back, Bob&quot; is visible; closest text on the page: [^"]*Welcome, alice/);

    const failed = await svc.api.get('/v1/runs?status=failed');
    expect(failed.body.runs.map((r: any) => r.id)).toContain(run.id);
    expect(failed.body.runs.every((r: any) => r.status === 'failed')).toBe(true);
    const all = await svc.api.get('/v1/runs?limit=1');
    expect(all.body.runs).toHaveLength(1);
  });

  it('answers bad input with a 400 that names the field or the plan line', async () => {
    const post = (body: unknown) => svc.api.post('/v1/runs', body);
    const url = `${fx.url}/app/login.html`;
    let r = await post({ url, plan: '#Case 1: a\n- click "x"\n- type {{NOPE}} into "y"' });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ code: 'invalid_request', details: { field: 'plan', line: 3 } });
    expect(r.body.error.message).toContain('line 3');
    r = await post({ url, plan: '#Case 1: empty\n#Case 2: x\n- click "y"' });
    expect(r.body.error.details).toMatchObject({ line: 1 });
    r = await post({ url: 'file:///etc/passwd', plan: '- click "x"' });
    expect(r.status).toBe(400);
    expect(r.body.error.details.field).toBe('url');
    r = await post({ url, plan: 'click "x"', callbackUrl: 'ftp://example.com/x' });
    expect(r.body.error.details.field).toBe('callbackUrl');
    r = await post({ url, plan: 'click "x"', planner: 'anthropic' });
    expect(r.body.error.details.field).toBe('apiKey');
    r = await post({ url, plan: 'click "x"', planner: 'gpt' });
    expect(r.body.error.details.field).toBe('planner');
    r = await post({ url, plan: 'click "x"', bogus: 1 });
    expect(r.body.error.details.field).toBe('bogus');
    r = await post({ plan: 'click "x"' });
    expect(r.body.error.details.field).toBe('url');
    r = await post({ url, plan: 'click "x"', roles: [{ name: 'admin' }] });
    expect(r.body.error.details.field).toBe('roles.0.name');
    expect((await svc.api.get('/v1/runs/nope')).body.error.code).toBe('run_not_found');
    expect((await svc.api.get('/v1/runs?limit=1000')).status).toBe(400);
    expect((await post({ replayOf: 'nope' })).status).toBe(404);
  });

  it('cancels a running run: it stops at its next step and is marked cancelled', async () => {
    const res = await svc.api.post('/v1/runs', {
      url: `${fx.url}/app/products.html`,
      plan: '#Case 1: slow\n- Wait 20 seconds\n- Verify "Products" is visible\n#Case 2: never\n- Verify "Products" is visible',
    });
    const id = res.body.id;
    const deadline = Date.now() + 30_000;
    while ((await svc.api.get(`/v1/runs/${id}`)).body.status !== 'running') {
      if (Date.now() > deadline) throw new Error('never started');
      await new Promise((r) => setTimeout(r, 100));
    }
    const del = await svc.api.delete(`/v1/runs/${id}`);
    expect(del.status).toBe(202);
    const t0 = Date.now();
    const run = await waitForRun(id, 30_000);
    expect(run.status).toBe('cancelled');
    // wait_for of 20 s: cancellation does not wait it out... but the step itself is
    // bounded by the action timeout (5 s here); what matters is the run ends promptly.
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect(run.report.cases.map((c: any) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect((await svc.api.delete(`/v1/runs/${id}`)).body.error.code).toBe('run_finished');
    expect((await svc.api.get('/v1/pool')).body.leased).toBe(0);
  });

  it('never leaves a run "running" when its job is gone: it is marked failed with its partial report', async () => {
    const { RunStore } = await import('@ariadne/flows');
    const store = new RunStore(svc.service.redis, svc.service.config.redisPrefix, 600);
    const id = `orphan-${Date.now()}`;
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    const partial = {
      runId: id, url: fx.url, planner: 'rules', status: 'running', startedAt: old, durationMs: 0,
      cases: [{ index: 1, name: 'half done', status: 'passed', completed: true, summary: '', steps: [], assertions: [], missingAssertions: [], startedAt: old, durationMs: 10, usage: { turns: 0, inputTokens: 0, outputTokens: 0 } }],
      totals: { cases: 1, passed: 1, failed: 0, skipped: 0, cancelled: 0, steps: 0, assertions: 0, failedAssertions: 0 },
      usage: { turns: 0, inputTokens: 0, outputTokens: 0 },
    };
    // A run some worker started (its record says so) and whose job no longer exists.
    await store.create({ id, tenant: 'local', status: 'running', createdAt: old, startedAt: old, updatedAt: old, node: 'gone-node', attempts: 1, request: { url: fx.url, plan: '- Verify "x" is visible', planner: 'rules' }, report: partial as never });
    const r = await svc.api.get(`/v1/runs/${id}`);
    expect(r.body).toMatchObject({ status: 'error', error: { code: 'worker_lost' } });
    expect(r.body.report.cases[0].name).toBe('half done');
    const events = await svc.api.get(`/v1/runs/${id}/events`);
    expect(events.body).toContain('event: run_finished');
  });

  it('keeps runs per tenant', async () => {
    const res = await svc.api.post('/v1/runs', { url: `${fx.url}/app/products.html`, plan: '- Verify "Products" is visible' });
    const run = await waitForRun(res.body.id);
    expect(run.status).toBe('passed');
    // Same id under another tenant: not found (open mode has one tenant, so check the store directly).
    const { RunStore } = await import('@ariadne/flows');
    const store = new RunStore(svc.service.redis, svc.service.config.redisPrefix, 60);
    await expect(store.getFor('someone-else', run.id)).rejects.toMatchObject({ code: 'run_not_found' });
  });
});
