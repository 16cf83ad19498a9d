import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressFetch, EgressPolicy, type FetchLike } from '@ariadne/egress';
import { deliver } from '@ariadne/suites';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startTestService, type TestService } from '../helpers/service.js';

// Issue 10, items 2 and 15: what the service itself sends out for a tenant. The
// operator's model keys only ever go to the operator's configured base URL; a base URL
// the tenant chose needs the tenant's key and obeys the egress policy; what such a URL
// answers is never copied into reports beyond a short labelled excerpt; callbacks obey
// the policy and time out. The service runs with API keys (strict egress default) and
// the test helper's EGRESS_ALLOW=127.0.0.1/32; 127.0.0.2 is an internal service.

const KEY = 'egress-outbound-key-0123456789';
const OPERATOR_OPENAI = 'sk-operator-openai-SECRET-1';
const OPERATOR_ANTHROPIC = 'sk-operator-anthropic-SECRET-2';
const LEAK = `INTERNAL-ONLY-${'x'.repeat(400)}-END-OF-INTERNAL`;

interface Catcher { url: string; port: number; connections: number; seen: { url: string; auth: string }[]; server: Server; close(): Promise<void> }

async function catcher(host: string, answer: (req: IncomingMessage, res: import('node:http').ServerResponse) => void): Promise<Catcher> {
  const server = createServer(async (req, res) => {
    for await (const _ of req) { /* drain */ }
    c.seen.push({ url: req.url ?? '', auth: String(req.headers.authorization ?? req.headers['x-api-key'] ?? '') });
    answer(req, res);
  });
  const c: Catcher = {
    url: '', port: 0, connections: 0, seen: [], server,
    close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
  server.on('connection', () => { c.connections++; });
  await new Promise<void>((r) => server.listen(0, host, () => r()));
  c.port = (server.address() as AddressInfo).port;
  c.url = `http://${host}:${c.port}`;
  return c;
}

let svc: TestService;
let fx: FixtureServer;
let operatorModel: Catcher;
let tenantModel: Catcher;
let internal: Catcher;
let redirector: Catcher;
let api: TestService['api'];

const json = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

beforeAll(async () => {
  [internal, operatorModel, tenantModel] = await Promise.all([
    catcher('127.0.0.2', (_q, res) => json(res, 200, { leaked: LEAK })),
    // The operator's model server: a 401 is enough to see which key arrived.
    catcher('127.0.0.1', (_q, res) => json(res, 401, { error: { type: 'authentication_error', message: 'no' } })),
    // A tenant-chosen "model" URL that answers with something that is not a planner reply.
    catcher('127.0.0.1', (req, res) => (req.url?.includes('404') ? json(res, 404, { error: { message: LEAK } }) : json(res, 200, { data: LEAK }))),
  ]);
  redirector = await catcher('127.0.0.1', (req, res) => { res.writeHead(307, { location: `${internal.url}${req.url}` }); res.end(); });
  fx = await startFixtureServer();
  svc = await startTestService({
    API_KEYS: `${KEY}:acme`,
    OPENAI_API_KEY: OPERATOR_OPENAI,
    ANTHROPIC_API_KEY: OPERATOR_ANTHROPIC,
    OPENAI_BASE_URL: `${operatorModel.url}/v1`,
    ANTHROPIC_BASE_URL: operatorModel.url,
  });
  api = svc.api.withToken(KEY);
});

afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  await Promise.all([operatorModel, tenantModel, internal, redirector].map((c) => c?.close()));
});

async function finished(id: string): Promise<any> {
  for (let i = 0; i < 240; i++) {
    const r = await api.get(`/v1/runs/${id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((x) => setTimeout(x, 250));
  }
  throw new Error(`run ${id} did not finish`);
}

const PLAN = '#Case 1: Look\n- Verify "Products" is visible';
/** Keys that arrived anywhere but at the operator's model server. */
const keysElsewhere = () => [...tenantModel.seen, ...internal.seen, ...redirector.seen].map((s) => s.auth).join(' ');

describe.each(['openai', 'anthropic'] as const)('%s planner: whose key goes where', (planner) => {
  it('refuses a tenant base URL without the tenant\'s own key (400) and sends the server key nowhere', async () => {
    const before = tenantModel.seen.length;
    const res = await api.post('/v1/runs', { url: `${fx.url}/products.html`, plan: PLAN, planner, baseUrl: `${tenantModel.url}/v1` });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', details: { field: 'apiKey' } });
    expect(tenantModel.seen.length).toBe(before);
    expect(keysElsewhere()).not.toContain('SECRET');
  });

  it('refuses a tenant base URL the egress policy denies (403 egress_denied)', async () => {
    for (const baseUrl of [internal.url, `http://2130706434:${internal.port}`, 'http://169.254.169.254/v1']) {
      const res = await api.post('/v1/runs', { url: `${fx.url}/products.html`, plan: PLAN, planner, apiKey: 'sk-tenant-own', baseUrl });
      expect(res.status, baseUrl).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'egress_denied', details: { field: 'baseUrl' } });
    }
    expect(internal.connections).toBe(0);
  });

  it('sends the server key to the server\'s base URL only', async () => {
    const before = operatorModel.seen.length;
    const res = await api.post('/v1/runs', { url: `${fx.url}/products.html`, plan: PLAN, planner, options: { trace: false } });
    expect(res.status).toBe(202);
    await finished(res.body.id);
    const got = operatorModel.seen.slice(before).map((s) => s.auth);
    expect(got.length).toBeGreaterThan(0);
    for (const a of got) expect(a).toContain(planner === 'openai' ? OPERATOR_OPENAI : OPERATOR_ANTHROPIC);
  });
});

describe('what a tenant-chosen model URL answers', () => {
  it('is never copied into the report beyond a short labelled excerpt', async () => {
    for (const [planner, path] of [['openai', '/v1'], ['openai', '/404/v1'], ['anthropic', ''], ['anthropic', '/404']] as const) {
      const res = await api.post('/v1/runs', { url: `${fx.url}/products.html`, plan: PLAN, planner, apiKey: 'sk-tenant-own', baseUrl: `${tenantModel.url}${path}`, options: { trace: false } });
      expect(res.status).toBe(202);
      const run = await finished(res.body.id);
      const text = JSON.stringify(run);
      expect(text, `${planner}${path}`).toContain('INTERNAL-ONLY-');
      expect(text).not.toContain('-END-OF-INTERNAL');
      expect(text.split('INTERNAL-ONLY-').length - 1).toBe(1);
      const err = run.report.cases[0].error;
      expect(err.code).toBe('model_error');
      expect(err.details.untrustedExcerpt).toMatch(/^model API answer/);
      expect(err.message).not.toContain('INTERNAL-ONLY');
    }
    // The tenant's URL got the tenant's key, never the operator's.
    expect(tenantModel.seen.every((s) => s.auth.includes('sk-tenant-own'))).toBe(true);
  });

  it('cannot redirect the model client to an internal address', async () => {
    const res = await api.post('/v1/runs', { url: `${fx.url}/products.html`, plan: PLAN, planner: 'openai', apiKey: 'sk-tenant-own', baseUrl: `${redirector.url}/v1`, options: { trace: false } });
    expect(res.status).toBe(202);
    const run = await finished(res.body.id);
    expect(run.report.cases[0].error).toMatchObject({ code: 'egress_denied', details: { host: '127.0.0.2' } });
    expect(internal.connections).toBe(0);
    expect(JSON.stringify(run)).not.toContain('INTERNAL-ONLY');
  });
});

describe('the start URL of a run', () => {
  it('is refused at once when the policy denies it (403 egress_denied, field url)', async () => {
    const res = await api.post('/v1/runs', { url: `http://0x7f000002:${internal.port}/`, plan: PLAN });
    expect(res.status).toBe(403);
    expect(res.body.error).toMatchObject({ code: 'egress_denied', details: { field: 'url', reason: 'loopback' } });
    expect(internal.connections).toBe(0);
  });
});

describe('callbacks (item 15)', () => {
  it('refuses a callbackUrl the policy denies, in every spelling (403 egress_denied)', async () => {
    for (const callbackUrl of [`${internal.url}/cb`, `http://127.2:${internal.port}/cb`, `http://[::ffff:127.0.0.2]:${internal.port}/cb`, `${svc.url}/v1/sessions`, 'http://169.254.169.254/latest/']) {
      const res = await api.post('/v1/runs', { url: `${fx.url}/products.html`, plan: PLAN, callbackUrl });
      expect(res.status, callbackUrl).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'egress_denied', details: { field: 'callbackUrl' } });
    }
    expect(internal.connections).toBe(0);
  });

  it('delivers through the policy at send time too, and gives up on a silent receiver', async () => {
    const body = JSON.stringify({ status: 'passed' });
    // The delivery every callback and suite notification goes through (packages/suites notify).
    const deliverCallback = async (url: string, _r: unknown, attempts: number, fetchFn: FetchLike) => {
      const res = await deliver(fetchFn, { url, body, event: 'run.finished', secret: 'a-signing-secret' }, { attempts, backoffMs: 100, timeoutMs: 5000 });
      return { ...res, attempts: res.attempts.length };
    };
    const report = null;
    const strict = new EgressPolicy({ mode: 'strict', allow: ['127.0.0.1/32'] });
    const f = createEgressFetch(strict);
    // Checked again when it is sent (the URL may resolve elsewhere by then): refused, not retried.
    const denied = await deliverCallback(`http://127.2:${internal.port}/cb`, report, 3, f);
    expect(denied).toMatchObject({ delivered: false, attempts: 1 });
    expect(denied.error).toMatch(/^egress_denied: .*127\.0\.0\.2/);
    // A redirect to an internal address is not followed.
    const redirected = await deliverCallback(`${redirector.url}/cb`, report, 1, f);
    expect(redirected).toMatchObject({ delivered: false, status: 307 });
    expect(internal.connections).toBe(0);
    // A receiver that never answers: each attempt times out, the whole delivery is bounded.
    const silent = createServer(() => { /* never answers */ });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const started = Date.now();
    const slow = await deliverCallback(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/cb`, report, 2, f);
    expect(slow).toMatchObject({ delivered: false, attempts: 2 });
    expect(slow.error).toMatch(/timeout/i);
    expect(Date.now() - started).toBeLessThan(15_000);
    silent.closeAllConnections();
    silent.close();
  });
});
