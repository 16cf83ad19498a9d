import { createServer, type Server } from 'node:http';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startTestService, type Api, type TestService } from '../helpers/service.js';
import { rawRequest } from './attack.js';

// Issue 27, items 1 and 2, attacked as the review did. (1) Someone who has seen one signed
// GitHub deployment_status delivery (the repo's "Recent deliveries" page, a proxy log)
// sends the same bytes and signature again under a new X-GitHub-Delivery id, which the
// signature does not cover: nothing may start. A delivery signed long ago is refused too.
// (2) With PUBLIC_URL unset, a delivery (or a report-link request) sent with
// `Host: attacker.example` must not put a signed link to attacker.example in the commit
// status GitHub shows; /healthz says the links would be loopback-only.

const KEY = 'replay-key-0123456789abcdef';
const GH_SECRET = `gh-${randomBytes(8).toString('hex')}`;
const SHA = 'f0e1d2c3b4a5968778695a4b3c2d1e0f9a8b7c6d';

let svc: TestService;
let fx: FixtureServer;
let api: Api;
let fake: Server;
let fakeUrl: string;
let hookPath: string;
let suiteId: string;
const statuses: { body: any }[] = [];
let nextStatusId = 1000 + Math.floor(Math.random() * 1e6);

beforeAll(async () => {
  // A fake GitHub API: records the commit statuses the service posts.
  fake = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += chunk;
    if (req.url?.startsWith('/gh/')) statuses.push({ body: JSON.parse(body) });
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end('{}');
  });
  await new Promise<void>((r) => fake.listen(0, '127.0.0.1', r));
  fakeUrl = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KEY}:team`, SECRETS_KEY: randomBytes(32).toString('hex'), HOOK_REPLAY_WINDOW_SECONDS: '3600' }),
    startFixtureServer(),
  ]);
  api = svc.api.withToken(KEY);
  const created = await api.post('/v1/suites', {
    name: 'replayed',
    baseUrl: `${fx.url}/suites/`,
    plans: [{ name: 'heading', plan: '#Case 1: Heading\n- Verify "Vault" is visible', path: 'vault.html' }],
    secrets: { GITHUB_TOKEN: `ghp_${randomBytes(18).toString('hex')}` },
    options: { trace: false, screenshots: false },
    triggers: [{ type: 'github', secret: GH_SECRET }],
    github: { apiBase: `${fakeUrl}/gh` },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  suiteId = created.body.id;
  hookPath = new URL(created.body.triggers[0].url).pathname;
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  await new Promise((r) => fake?.close(r));
});

/** A deployment_status body as GitHub signs it: ids and times included. */
function deliveryBody(opts: { statusId?: number; at?: Date } = {}): string {
  const at = (opts.at ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return JSON.stringify({
    action: 'created',
    deployment_status: { id: opts.statusId ?? nextStatusId++, state: 'success', environment: 'staging', environment_url: `${fx.url}/suites/`, created_at: at, updated_at: at },
    deployment: { id: 42, sha: SHA, environment: 'staging', created_at: at, updated_at: at },
    repository: { full_name: 'acme/shop' },
  }, null, 2);
}

const sign = (body: string) => `sha256=${createHmac('sha256', GH_SECRET).update(body).digest('hex')}`;

function send(body: string, headers: Record<string, string> = {}, signature = sign(body)) {
  return rawRequest(svc.url, 'POST', hookPath, {
    'x-github-event': 'deployment_status', 'x-github-delivery': randomUUID(), 'x-hub-signature-256': signature, ...headers,
  }, body);
}

const suiteRuns = async () => (await api.get(`/v1/suites/${suiteId}/runs?limit=100`)).body.runs.length as number;

async function waitFor<T>(what: string, fn: () => T | Promise<T>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('item 1: a seen GitHub delivery cannot be replayed', () => {
  it('dedupes on the signed deployment_status id, whatever X-GitHub-Delivery says', async () => {
    const body = deliveryBody();
    const first = await send(body);
    expect(first.status, first.body).toBe(202);
    expect(first.json.status).toBe('accepted');
    const before = await suiteRuns();
    // The attack: the same bytes and signature, a fresh delivery id each time.
    for (let i = 0; i < 3; i++) {
      const replay = await send(body);
      expect(replay.status, replay.body).toBe(200);
      expect(replay.json).toMatchObject({ status: 'duplicate', suiteRun: first.json.suiteRun });
    }
    // Re-serialised differently (another signature over the same status id): still the same status.
    const compact = JSON.stringify(JSON.parse(body));
    expect((await send(compact)).json.status).toBe('duplicate');
    expect(await suiteRuns()).toBe(before);
  });

  it('refuses a delivery whose signed deployment_status time is older than the replay window', async () => {
    const before = await suiteRuns();
    const old = deliveryBody({ at: new Date(Date.now() - 2 * 3600_000) });
    const res = await send(old);
    expect(res.status, res.body).toBe(401);
    expect(res.json.error).toMatchObject({ code: 'signature_expired', details: { field: 'deployment_status.updated_at', windowSeconds: 3600 } });
    // The same body with a bad signature is a signature problem, not a time problem.
    expect((await send(old, {}, sign('other'))).json.error.code).toBe('invalid_signature');
    // A time in the future (GitHub's clock is not hours ahead) is refused as malformed.
    expect((await send(deliveryBody({ at: new Date(Date.now() + 3 * 3600_000) }))).status).toBe(400);
    expect(await suiteRuns()).toBe(before);
  });
});

describe('item 2: links that leave the service never come from the Host header', () => {
  it('a delivery sent with Host: attacker.example gets commit statuses linking to this node, not there', async () => {
    const res = await send(deliveryBody(), { host: 'attacker.example' });
    expect(res.status, res.body).toBe(202);
    const runId = res.json.runs[0] as string;
    // The "pending" status goes out when the run starts, with a signed report link.
    const pending = await waitFor('the pending status', () => statuses.find((s) => s.body.state === 'pending' && s.body.target_url.includes(runId)));
    const target = new URL(pending.body.target_url);
    expect(target.host).not.toContain('attacker');
    expect(target.origin).toBe(svc.url);
    expect(target.searchParams.get('sig')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('POST /v1/runs/:id/report-link answers a link on this node whatever Host says', async () => {
    const run = (await api.get('/v1/runs?limit=1')).body.runs[0];
    const link = await rawRequest(svc.url, 'POST', `/v1/runs/${run.id}/report-link`, { authorization: `Bearer ${KEY}`, host: 'attacker.example' }, '{}');
    expect(link.status, link.body).toBe(200);
    expect(new URL(link.json.url).origin).toBe(svc.url);
  });

  it('/healthz warns that links would point at loopback while PUBLIC_URL is unset', async () => {
    const health = await rawRequest(svc.url, 'GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.json.ok).toBe(true);
    expect(health.json.warnings).toEqual([expect.stringContaining('PUBLIC_URL')]);
    expect(health.json.warnings[0]).toContain(svc.url);
  });
});
