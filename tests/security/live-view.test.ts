import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { ReportLinks, viewToken } from '@ariadne/server';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startTestService, type Api, type TestService } from '../helpers/service.js';
import { StreamClient } from '../helpers/ws-client.js';
import { fullUpgrade, rawRequest } from './attack.js';

// Issue 27, also: the live view page carried the API key in its URL (?token=<key>: browser
// history, bookmarks, screen shares, proxy logs, a Referer) and had no CSP. Now a keyed
// caller asks for a short-lived link (POST /v1/sessions/:id/live-link) with a signed view
// token that opens that one session's page and a watch-only stream; the page has a strict
// CSP and no Referer; ?token=<key> is refused on the page. And an oversized WebSocket frame
// is the client's fault: a warning with its close code, not an error with a stack.

const KEY = 'live-view-key-0123456789abcdef';
const SECRETS_KEY = randomBytes(32);

let svc: TestService;
let fx: FixtureServer;
let api: Api;
let sessionId: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KEY}:tenant-a,other-key-0123456789abcdef:tenant-b`, SECRETS_KEY: SECRETS_KEY.toString('hex'), BODY_LIMIT_BYTES: '65536' }, { captureLogs: true }),
    startFixtureServer(),
  ]);
  api = svc.api.withToken(KEY);
  sessionId = await api.createSession();
  expect((await api.action(sessionId, { action: 'navigate', url: `${fx.url}/login.html` })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const viewOf = (url: string) => new URL(url).searchParams.get('view')!;
const streamWith = (query: string) => new StreamClient(new WebSocket(`${svc.url.replace(/^http/, 'ws')}/v1/sessions/${sessionId}/stream?${query}`));

describe('the live view without the API key in its URL', () => {
  it('refuses ?token=<key> on the page, and hands out a short-lived view link on this node whatever Host says', async () => {
    const old = await rawRequest(svc.url, 'GET', `/v1/sessions/${sessionId}/live?token=${KEY}`);
    expect(old.status).toBe(401);
    expect(old.json.error.message).toContain('live-link');
    const link = await rawRequest(svc.url, 'POST', `/v1/sessions/${sessionId}/live-link`, { authorization: `Bearer ${KEY}`, host: 'attacker.example' }, '{"ttlSeconds":600}');
    expect(link.status, link.body).toBe(200);
    const url = new URL(link.json.url);
    expect(url.origin).toBe(svc.url);
    expect(url.pathname).toBe(`/v1/sessions/${sessionId}/live`);
    expect(link.json.url).not.toContain(KEY);
    expect(viewOf(link.json.url)).toMatch(/^\d+\.[0-9a-f]{64}$/);
    expect(Math.abs(Date.parse(link.json.expiresAt) - Date.now() - 600_000)).toBeLessThan(10_000);
    // Keyless, the link route itself is closed; another tenant cannot get a link to this session.
    expect((await svc.api.post(`/v1/sessions/${sessionId}/live-link`)).status).toBe(401);
    expect((await svc.api.withToken('other-key-0123456789abcdef').post(`/v1/sessions/${sessionId}/live-link`)).status).toBe(404);
  });

  it('serves the page with a strict CSP, no Referer, and no key in it', async () => {
    const link = (await api.post(`/v1/sessions/${sessionId}/live-link`)).body.url as string;
    const page = await rawRequest(svc.url, 'GET', new URL(link).pathname + new URL(link).search);
    expect(page.status).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'nonce-[A-Za-z0-9+/=]{16,}'/);
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.body).not.toContain(KEY);
    // A page opened with the key in the header gets a view token for its stream, not the key.
    const keyed = await rawRequest(svc.url, 'GET', `/v1/sessions/${sessionId}/live`, { authorization: `Bearer ${KEY}` });
    expect(keyed.status).toBe(200);
    expect(keyed.body).not.toContain(KEY);
    expect(keyed.body).toMatch(/"token":"\d+\.[0-9a-f]{64}"/);
  });

  it('works in a real browser under its CSP, and takes the token out of the address bar', async () => {
    const link = (await api.post(`/v1/sessions/${sessionId}/live-link`)).body.url as string;
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const viewer = await browser.newPage();
      const violations: string[] = [];
      viewer.on('console', (m) => { if (/Content Security Policy/i.test(m.text())) violations.push(m.text()); });
      await viewer.goto(link);
      await viewer.waitForFunction(() => document.getElementById('status')?.textContent === 'live');
      await viewer.waitForFunction(() => Number((document.getElementById('frame') as HTMLImageElement).dataset.frames ?? 0) > 0);
      await viewer.waitForFunction(() => document.getElementById('snapshot')?.textContent?.includes('Welcome back'));
      expect(new URL(viewer.url()).searchParams.has('view')).toBe(false);
      expect(violations).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('a view token opens a watch-only stream of that session, and nothing else', async () => {
    const token = viewOf((await api.post(`/v1/sessions/${sessionId}/live-link`)).body.url);
    const ws = streamWith(`view=${token}`);
    const hello = await ws.waitFor((m) => m.event === 'hello');
    expect(hello.access).toBe('view');
    expect(hello.ops).toContain('snapshot');
    expect(hello.ops).not.toContain('action');
    expect((await ws.call('snapshot', { format: 'text' })).result.snapshot).toContain('Welcome back');
    for (const [op, params] of [['action', { action: 'navigate', url: `${fx.url}/index.html` }], ['cookies.set', { cookies: [] }], ['screenshot', {}]] as const) {
      const reply = await ws.call(op, params);
      expect(reply.error?.code, op).toBe('view_only');
    }
    ws.close();
    // Not a key: REST routes, another session, a tampered or an expired token are refused before any upgrade.
    expect((await rawRequest(svc.url, 'GET', `/v1/sessions/${sessionId}?view=${token}`)).status).toBe(401);
    const other = await api.createSession();
    const elsewhere = await rawRequest(svc.url, 'GET', `/v1/sessions/${other}/stream?view=${token}`, fullUpgrade());
    expect(elsewhere).toMatchObject({ status: 401, upgraded: false });
    const tampered = token.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect((await rawRequest(svc.url, 'GET', `/v1/sessions/${sessionId}/stream?view=${tampered}`, fullUpgrade())).json.error.code).toBe('invalid_signature');
    const links = new ReportLinks(svc.service.redis, svc.service.config.redisPrefix, SECRETS_KEY);
    const expired = await viewToken(links, sessionId, 'tenant-a', { ttlSeconds: 60, now: Date.now() - 3600_000 });
    const late = await rawRequest(svc.url, 'GET', `/v1/sessions/${sessionId}/live?view=${expired.token}`);
    expect(late.status).toBe(401);
    expect(late.json.error.code).toBe('signature_expired');
    // A genuine token signed for another tenant does not open this tenant's session.
    const forged = await viewToken(links, sessionId, 'tenant-b');
    expect((await rawRequest(svc.url, 'GET', `/v1/sessions/${sessionId}/live?view=${forged.token}`)).status).toBe(401);
    await api.delete(`/v1/sessions/${other}`);
  });
});

describe('an oversized WebSocket frame', () => {
  it('closes 1009 and is logged as a warning with the close code, not an error with a stack', async () => {
    const ws = StreamClient.connect(svc.url, sessionId, { headers: { authorization: `Bearer ${KEY}` } });
    await ws.waitFor((m) => m.event === 'hello');
    const mark = svc.logs.length;
    ws.send('x'.repeat(200_000));
    expect((await ws.closed).code).toBe(1009);
    await new Promise((r) => setTimeout(r, 200));
    const lines = svc.logs.slice(mark).map((l) => JSON.parse(l));
    const warn = lines.find((l) => l.level === 40 && l.closeCode === 1009);
    expect(warn, JSON.stringify(lines).slice(0, 2000)).toBeTruthy();
    expect(JSON.stringify(warn)).not.toMatch(/\n\s+at /);
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    // The service and the session are fine.
    expect((await api.snapshot(sessionId)).status).toBe(200);
  });
});
