import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startTestService, type Api, type TestService } from '../helpers/service.js';

// Issue 27, also: a plain run's variables named like secrets (PASSWORD, TOKEN, ...) were
// stored in clear in Redis while a suite's secrets were sealed; and a run had no way to
// mark a variable secret whatever its name. Looked at as someone who can read Redis (a
// backup, a shared instance) and as the API caller: the values appear in neither, nor in
// the report or the events, and the run still uses them.

const KEY = 'run-secrets-key-0123456789abcdef';
const PASSWORD = `pw-${randomBytes(8).toString('hex')}`;
const MEMBER_CODE = `mc-${randomBytes(8).toString('hex')}`;

let svc: TestService;
let fx: FixtureServer;
let api: Api;

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KEY}:team`, SECRETS_KEY: randomBytes(32).toString('hex') }),
    startFixtureServer(),
  ]);
  api = svc.api.withToken(KEY);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function waitForRun(id: string): Promise<any> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const res = await api.get(`/v1/runs/${id}`);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Everything Redis holds about a run, as text (record, events stream, lists). */
async function redisDump(runId: string): Promise<string> {
  const redis = svc.service.redis;
  const keys = await redis.keys(`${svc.service.config.redisPrefix}run:${runId}*`);
  const parts: string[] = [];
  for (const k of keys) {
    const type = await redis.type(k);
    if (type === 'string') parts.push(String(await redis.get(k)));
    else if (type === 'stream') parts.push(JSON.stringify(await redis.xrange(k, '-', '+')));
    else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(k, 0, -1)));
  }
  return parts.join('\n');
}

const plan = ['#Case 1: Unlock', '- Type Robin into "Name"', '- Type {{MEMBER_CODE}} into "Access code"', '- Click the "Unlock" button', '- Verify "Unlocked for Robin" is visible'].join('\n');

describe('plain-run secrets', () => {
  it('seals secret-looking variables and explicit secrets at rest, never answers them, and the run uses them', async () => {
    const res = await api.post('/v1/runs', {
      url: `${fx.url}/suites/vault.html`, plan, variables: { WHO: 'Robin', PASSWORD }, secrets: { MEMBER_CODE }, options: { trace: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    // Names are listed, values never.
    expect(res.body.variables.sort()).toEqual(['MEMBER_CODE', 'PASSWORD', 'WHO']);
    const run = await waitForRun(res.body.id);
    expect(run.status, JSON.stringify(run.report?.cases?.[0])).toBe('passed');
    const answers = JSON.stringify(run);
    const dump = await redisDump(res.body.id);
    expect(dump).toContain('sealedSecrets');
    expect(dump).toContain('Robin');
    for (const text of [answers, dump]) {
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(MEMBER_CODE);
    }
    // The step that typed it shows the variable, not its value.
    expect(answers).toContain('{{MEMBER_CODE}}');
    // The events (the live feed and its replay) hold no value either.
    const events = await (await fetch(`${svc.url}/v1/runs/${res.body.id}/events`, { headers: { authorization: `Bearer ${KEY}` } })).text();
    expect(events).toContain('run_finished');
    expect(events).not.toContain(MEMBER_CODE);
  });

  it('refuses a name that is both a variable and a secret', async () => {
    const res = await api.post('/v1/runs', { url: `${fx.url}/suites/vault.html`, plan, variables: { MEMBER_CODE: 'a' }, secrets: { MEMBER_CODE: 'b' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', details: { field: 'secrets.MEMBER_CODE' } });
  });
});
