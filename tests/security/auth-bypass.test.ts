import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import WebSocket from 'ws';
import { SessionStore } from '@ariadne/cluster';
import { startTestService, type TestService } from '../helpers/service.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { fullUpgrade, rawRequest, UPGRADE_ONLY } from './attack.js';

// Issue 10, items 1, 9 and 14 (keyed): an outsider without a key gets 401 on every
// route of openapi.yaml, whatever headers it sends (a WebSocket upgrade included:
// refused before the upgrade, never an accepted socket); ?token= works only where a
// browser cannot send a header; a key never reaches a log line, however it is spelled.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const KEY = 'sec-key-aaaaaaaaaaaaaaaa';
const OTHER = 'sec-key-bbbbbbbbbbbbbbbb';
const PUBLIC = new Set(['/healthz', '/readyz']);
/** Authenticated by a signature over the body instead of a key (deploy webhooks): checked below. */
const SIGNED = new Set(['/v1/hooks/{hookId}']);
/**
 * GET routes a signed report link (?exp=&sig=, POST /v1/runs/:id/report-link) opens without a key:
 * keyless they are 401 like any route; with a signature that was not issued, 401 invalid_signature.
 */
const SIGNED_LINK = new Set(['/v1/runs/{id}/report', '/v1/runs/{id}/artifacts/{name}']);
const FAKE_SIG = `exp=${Math.floor(Date.now() / 1000) + 3600}&sig=${'ab'.repeat(32)}`;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];

let svc: TestService;
let fixtures: FixtureServer;
let sessionId: string;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  svc = await startTestService({ API_KEYS: `${KEY}:tenant-a,${OTHER}:tenant-b` }, { captureLogs: true });
  sessionId = await svc.api.withToken(KEY).createSession();
});

afterAll(async () => {
  await svc?.stop();
  await fixtures?.close();
});

/** Fill a path template with plausible ids: a real session, its default role and tab. */
function fill(template: string): string {
  const ids: Record<string, string> = { id: template.startsWith('/v1/runs') ? 'run_0123456789abcdef' : sessionId, role: 'default', pageId: 'p1', requestId: '1', name: 'c1-s1.jpg' };
  return template.replace(/\{(\w+)\}/g, (_m, p: string) => ids[p] ?? 'x1');
}

/** A body the route would accept from a keyed client, so a bypass would do real work. */
function bodyFor(method: string, template: string): string | undefined {
  if (method === 'get' || method === 'delete') return undefined;
  if (template === '/v1/sessions') return JSON.stringify({ roles: ['default'] });
  if (template === '/v1/runs') return JSON.stringify({ url: `${fixtures.url}/login.html`, plan: 'Open the page' });
  if (template.endsWith('/actions')) return JSON.stringify({ action: 'navigate', url: `${fixtures.url}/index.html` });
  return '{}';
}

describe('item 1: every route authenticates, whatever its headers', () => {
  it('answers 401 without a key on every route of openapi.yaml, with and without upgrade headers, and creates nothing', async () => {
    const spec = parse(readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8')) as { paths: Record<string, Record<string, unknown>> };
    const calls: { method: string; template: string }[] = [];
    for (const [template, ops] of Object.entries(spec.paths)) {
      for (const method of METHODS) if (ops[method]) calls.push({ method, template });
    }
    expect(calls.length).toBeGreaterThan(40);
    const breaches: string[] = [];
    let checked = 0;
    for (const { method, template } of calls) {
      if (PUBLIC.has(template)) continue;
      const p = fill(template);
      if (SIGNED.has(template)) {
        // No key needed, but nothing happens without the trigger's signature: an unknown hook is 404.
        const res = await rawRequest(svc.url, method.toUpperCase(), p, UPGRADE_ONLY, bodyFor(method, template));
        if (res.upgraded || res.status < 400 || res.status >= 500) breaches.push(`${method.toUpperCase()} ${template} → ${res.status}`);
        continue;
      }
      if (SIGNED_LINK.has(template) && method === 'get') {
        // A signature nobody issued opens nothing, and never an upgrade.
        for (const headers of [{}, UPGRADE_ONLY]) {
          const res = await rawRequest(svc.url, 'GET', `${p}?${FAKE_SIG}`, headers);
          if (res.upgraded || res.status !== 401 || res.json?.error?.code !== 'invalid_signature') breaches.push(`GET ${template}?sig → ${res.status} ${res.body.slice(0, 120)}`);
        }
        const up = await rawRequest(svc.url, 'GET', `${p}?${FAKE_SIG}`, fullUpgrade());
        if (up.upgraded || up.status < 400) breaches.push(`GET ${template}?sig [upgrade] → ${up.upgraded ? '101 upgraded' : up.status}`);
      } else if (method === 'get') {
        // Any other route ignores a link signature: still 401 unauthorized.
        const res = await rawRequest(svc.url, 'GET', `${p}?${FAKE_SIG}`);
        if (res.status !== 401 || res.json?.error?.code !== 'unauthorized') breaches.push(`GET ${template}?sig → ${res.status} ${res.body.slice(0, 120)}`);
      }
      for (const [variant, headers] of [['plain', {}], ['upgrade', UPGRADE_ONLY], ['upgrade+connection', fullUpgrade()]] as const) {
        const res = await rawRequest(svc.url, method.toUpperCase(), p, headers, bodyFor(method, template));
        checked++;
        if (res.upgraded || res.status !== 401 || res.json?.error?.code !== 'unauthorized') {
          breaches.push(`${method.toUpperCase()} ${template} [${variant}] → ${res.upgraded ? '101 upgraded' : `${res.status} ${res.body.slice(0, 120)}`}`);
        }
      }
    }
    expect(breaches).toEqual([]);
    expect(checked).toBeGreaterThan(120);
    // Nothing was created or run for anyone: only tenant-a's own session exists, no run.
    const all = await new SessionStore(svc.service.redis, { prefix: svc.service.config.redisPrefix }).listAll();
    expect(all.map((r) => [r.id, r.tenant])).toEqual([[sessionId, 'tenant-a']]);
    expect(svc.service.sessions.liveCount).toBe(1);
    expect(await svc.service.redis.keys(`${svc.service.config.redisPrefix}run:*`)).toEqual([]);
    // The probes stay public.
    for (const p of PUBLIC) {
      expect((await rawRequest(svc.url, 'GET', p)).status).toBe(200);
      expect((await rawRequest(svc.url, 'GET', p, UPGRADE_ONLY)).status).toBe(200);
      // A real upgrade on a route that is not a WebSocket route is refused, never accepted.
      const up = await rawRequest(svc.url, 'GET', p, fullUpgrade());
      expect(up.upgraded).toBe(false);
      expect(up.status).toBe(400);
    }
    // So is one on a keyed REST route.
    const keyedUp = await rawRequest(svc.url, 'GET', '/v1/sessions', { ...fullUpgrade(), authorization: `Bearer ${KEY}` });
    expect(keyedUp.upgraded).toBe(false);
    expect(keyedUp.status).toBe(400);
    // Unknown routes need a key as well (no route probing).
    expect((await rawRequest(svc.url, 'GET', '/v1/nope', UPGRADE_ONLY)).status).toBe(401);
  });

  it('refuses a keyless WebSocket upgrade with HTTP 401 and the JSON error, before accepting a socket', async () => {
    for (const p of [`/v1/sessions/${sessionId}/stream`, '/v1/runs/run_0123456789abcdef/stream']) {
      for (const auth of [{}, { authorization: 'Bearer not-a-key-at-all-xxxxxxxx' }]) {
        const res = await rawRequest(svc.url, 'GET', p, { ...fullUpgrade(), ...auth });
        expect(res.upgraded).toBe(false);
        expect(res.status).toBe(401);
        expect(res.json).toEqual({ error: { code: 'unauthorized', message: expect.any(String) } });
      }
    }
    // The ws client sees the refusal as an unexpected 401 response, not as a close code.
    const ws = new WebSocket(`${svc.url.replace(/^http/, 'ws')}/v1/sessions/${sessionId}/stream`);
    ws.on('error', () => {});
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (req, res) => { resolve(res.statusCode ?? 0); req.destroy(); });
      ws.on('open', () => { resolve(101); ws.close(); });
    });
    expect(status).toBe(401);
  });
});

describe('item 9: query tokens only where no header can be sent', () => {
  it('refuses ?token= on REST routes and the live page (issue 27: a view link instead), accepts it on the WebSocket upgrade', async () => {
    for (const p of ['/v1/sessions', `/v1/sessions/${sessionId}`, `/v1/sessions/${sessionId}/roles/default/snapshot`, '/v1/pool', '/v1/runs']) {
      const res = await rawRequest(svc.url, 'GET', `${p}?token=${KEY}`);
      expect(res.status, p).toBe(401);
    }
    expect((await rawRequest(svc.url, 'POST', `/v1/sessions?token=${KEY}`, {}, '{}')).status).toBe(401);
    expect((await rawRequest(svc.url, 'DELETE', `/v1/sessions/${sessionId}?%74oken=${KEY}`)).status).toBe(401);
    // The live view opened in a browser tab takes a view token, never the key (its URL is kept and shared).
    for (const q of [`token=${KEY}`, `%74oken=${KEY}`]) {
      const live = await rawRequest(svc.url, 'GET', `/v1/sessions/${sessionId}/live?${q}`);
      expect(live.status).toBe(401);
      expect(live.json.error.code).toBe('unauthorized');
    }
    // The stream a program opens from a browser (no header possible) still takes ?token=.
    const ws = new WebSocket(`${svc.url.replace(/^http/, 'ws')}/v1/sessions/${sessionId}/stream?token=${KEY}`);
    const hello = await new Promise<any>((resolve, reject) => {
      ws.on('message', (d) => resolve(JSON.parse(d.toString())));
      ws.on('unexpected-response', (_q, res) => reject(new Error(`refused ${res.statusCode}`)));
    });
    expect(hello.event).toBe('hello');
    ws.close();
    // The header still works everywhere (the session is still there).
    expect((await svc.api.withToken(KEY).get(`/v1/sessions/${sessionId}`)).status).toBe(200);
  });

  it('never logs a key, whether sent as ?token=, ?%74oken=, ?TOKEN= or percent-encoded value', async () => {
    const encodedKey = [...KEY].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
    const urls = [
      `/v1/sessions/${sessionId}/live?token=${KEY}`,
      `/v1/sessions/${sessionId}/live?%74oken=${KEY}`,
      `/v1/sessions/${sessionId}/live?%74%6F%6B%65%6E=${KEY}&role=default`,
      `/v1/sessions/${sessionId}/live?token=${encodedKey}`,
      `/v1/sessions?token=${OTHER}`,
      `/v1/sessions?%74oken=${OTHER}`,
      `/v1/nope?TOKEN=${OTHER}`,
    ];
    for (const u of urls) await rawRequest(svc.url, 'GET', u);
    for (const u of [`/v1/sessions/${sessionId}/stream?%74oken=${KEY}`, `/v1/sessions/${sessionId}/stream?token=${encodedKey}`]) {
      const res = await rawRequest(svc.url, 'GET', u, fullUpgrade());
      expect(res.upgraded).toBe(true);
    }
    // The live page refuses a key in its URL, however its name is spelled.
    expect((await rawRequest(svc.url, 'GET', urls[1])).status).toBe(401);
    await new Promise((r) => setTimeout(r, 200));
    const text = svc.logs.join('');
    expect(text).toContain('/live?');
    expect(text).toContain('[redacted]');
    for (const secret of [KEY, OTHER, encodedKey, encodeURIComponent(KEY)]) expect(text).not.toContain(secret);
  });
});

describe('item 14: metrics and pressure need a key unless METRICS_PUBLIC=1', () => {
  it('answers 401 on /metrics and /v1/pressure without a key, and serves them with one', async () => {
    for (const p of ['/metrics', '/v1/pressure', '/v1/pressure?format=text']) {
      const anon = await rawRequest(svc.url, 'GET', p);
      expect(anon.status, p).toBe(401);
      expect(anon.body).not.toContain('ariadne_');
      const keyed = await rawRequest(svc.url, 'GET', p, { authorization: `Bearer ${KEY}` });
      expect(keyed.status, p).toBe(200);
    }
    expect((await rawRequest(svc.url, 'GET', '/healthz')).status).toBe(200);
    expect((await rawRequest(svc.url, 'GET', '/readyz')).status).toBe(200);
  });
});
