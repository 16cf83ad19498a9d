import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// A suite's secret at rest (issue 13): run records keep it only sealed (SECRETS_KEY), and
// the run's artifacts (Playwright traces, screenshots) do not hold it either. Every key
// of the service's Redis and every file of the runs' artifact directories (trace zips
// unpacked) is searched for the secret's bytes.

let svc: TestService;
let fx: FixtureServer;
const KEY = 'vault-key-0123456789abcdef';
// A name that does not look secret: only the suite says it is.
const SECRET = `dw${randomBytes(12).toString('hex')}`;

const doorPlan = [
  '#Case 1: Open the door',
  '- Type {{DOOR_WORD}} into "Door word"',
  '- Click the "Open" button',
  '- Verify "Door open" is visible',
].join('\n');
// Fails on purpose, with the secret in the assertion (the trace records the expect).
const failingPlan = [
  '#Case 1: Show the word',
  '- Type {{DOOR_WORD}} into "Door word"',
  '- Verify "{{DOOR_WORD}}" is visible',
].join('\n');

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KEY}:alice`, SECRETS_KEY: randomBytes(32).toString('hex'), RUN_ASSERT_TIMEOUT_MS: '1500' }),
    startFixtureServer(),
  ]);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function waitForRun(id: string): Promise<any> {
  const api = svc.api.withToken(KEY);
  const deadline = Date.now() + 120_000;
  for (;;) {
    const res = await api.get(`/v1/runs/${id}`);
    if (!['queued', 'running'].includes(res.body.status)) return res.body;
    if (Date.now() > deadline) throw new Error(`run ${id} still ${res.body.status}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Every value in the service's Redis, as text (strings, lists, hashes, sets, streams). */
async function redisDump(): Promise<{ key: string; text: string }[]> {
  const redis = svc.service.redis;
  const out: { key: string; text: string }[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 500);
    cursor = next;
    for (const key of keys) {
      const type = await redis.type(key);
      let v: unknown;
      if (type === 'string') v = await redis.getBuffer(key);
      else if (type === 'list') v = await redis.lrange(key, 0, -1);
      else if (type === 'hash') v = await redis.hgetall(key);
      else if (type === 'set') v = await redis.smembers(key);
      else if (type === 'zset') v = await redis.zrange(key, 0, -1, 'WITHSCORES');
      else if (type === 'stream') v = await redis.xrange(key, '-', '+');
      // (A key can expire between SCAN and its read: a BullMQ lock, for one.)
      if (v === null || v === undefined || type === 'none') continue;
      out.push({ key, text: Buffer.isBuffer(v) ? v.toString('latin1') : JSON.stringify(v) });
    }
  } while (cursor !== '0');
  return out;
}

describe('a suite secret at rest', () => {
  it('is sealed in run records and absent from Redis, traces and screenshots', async () => {
    const api = svc.api.withToken(KEY);
    const created = await api.post('/v1/suites', {
      name: 'door',
      baseUrl: `${fx.url}/suites/`,
      plans: [{ name: 'open', plan: doorPlan, path: 'door.html' }, { name: 'show', plan: failingPlan, path: 'door.html' }],
      secrets: { DOOR_WORD: SECRET },
      options: { trace: true, screenshots: true },
    });
    expect(created.status).toBe(201);
    const started = await api.post(`/v1/suites/${created.body.id}/runs`, {});
    expect(started.status).toBe(202);
    const [open, show] = await Promise.all(started.body.runs.map((r: any) => waitForRun(r.runId)));
    // The secret was really typed and sent (the page says so), and one run failed on it.
    expect(open.status).toBe('passed');
    expect(show.status).toBe('failed');
    expect(open.variables).toEqual(['DOOR_WORD']);

    // Run records: the request holds the secret sealed, no clear value anywhere in Redis.
    const rec = JSON.parse((await svc.service.redis.get(`${svc.service.config.redisPrefix}run:${open.id}`))!);
    expect(rec.request.secretNames).toEqual(['DOOR_WORD']);
    expect(rec.request.variables ?? {}).not.toHaveProperty('DOOR_WORD');
    expect(rec.request.sealedSecrets).toMatchObject({ v: 1, iv: expect.any(String), data: expect.any(String) });
    const dump = await redisDump();
    expect(dump.some((d) => d.key.includes(open.id))).toBe(true);
    for (const d of dump) expect(d.text, d.key).not.toContain(SECRET);

    // Artifacts: every file, trace zips unpacked (compressed bytes would hide the value).
    let traces = 0;
    let images = 0;
    let placeholders = 0;
    for (const run of [open, show]) {
      const dir = path.join(svc.service.config.runs.dir, run.id);
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        const raw = readFileSync(file);
        expect(raw.includes(Buffer.from(SECRET)), name).toBe(false);
        if (name.endsWith('.zip')) {
          traces++;
          const text = execFileSync('unzip', ['-p', file], { maxBuffer: 256 * 1024 * 1024 }).toString('latin1');
          expect(text, name).not.toContain(SECRET);
          expect(text, name).not.toContain(encodeURIComponent(SECRET).slice(2));
          if (text.includes('{{DOOR_WORD}}')) placeholders++;
        } else if (/\.(jpe?g|png)$/.test(name)) images++;
      }
    }
    expect(traces).toBeGreaterThanOrEqual(2);
    expect(images).toBeGreaterThan(0);
    // The typed value was in the traces, replaced by its placeholder.
    expect(placeholders).toBeGreaterThanOrEqual(2);
    // The traces are still zips Playwright wrote (their entries list).
    const list = execFileSync('unzip', ['-l', path.join(svc.service.config.runs.dir, open.id, open.report.cases[0].trace.split(',')[0])]).toString();
    expect(list).toContain('trace.trace');
  }, 240_000);
});

describe('a run\'s own secrets at rest', () => {
  it('keeps a run\'s model API key and callback secret sealed in Redis when SECRETS_KEY is set', async () => {
    const api = svc.api.withToken(KEY);
    const apiKey = `sk-own-${randomBytes(10).toString('hex')}`;
    const callbackSecret = `cb-${randomBytes(10).toString('hex')}`;
    // The model is never reached here (no internet, and a loopback base URL is not the
    // server's): the record is written when the run is accepted, and that is what is checked.
    const res = await api.post('/v1/runs', {
      url: `${fx.url}/suites/door.html`,
      plan: '- Verify "Door" is visible',
      planner: 'openai',
      apiKey,
      callbackUrl: `${fx.url}/status?code=204`,
      callbackSecret,
      options: { trace: false, screenshots: false },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const secretKey = `${svc.service.config.redisPrefix}run:${res.body.id}:secret`;
    const stored = JSON.parse((await svc.service.redis.get(secretKey))!);
    expect(stored.sealed).toMatchObject({ v: 1, iv: expect.any(String), data: expect.any(String) });
    for (const d of await redisDump()) {
      expect(d.text, d.key).not.toContain(apiKey);
      expect(d.text, d.key).not.toContain(callbackSecret);
    }
    await waitForRun(res.body.id);
  });
});
