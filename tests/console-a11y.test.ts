import { randomBytes } from 'node:crypto';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { Api, refOf, startTestService, type TestService } from './helpers/service.js';
import { runRulesPlan } from './helpers/rules-plan.js';

// The console as the accessibility showcase (issue 28): Ariadne's own snapshot of every
// console page has its landmarks, one h1 and a name on every control; and the offline
// rules planner drives the console's main flow (sign in, open a suite, run it, see it
// pass) from plain English. The service's browsers may not reach the service's own port,
// so they reach the console through a loopback relay of the test's own.

let svc: TestService;
let fx: FixtureServer;
let relay: Server;
let consoleUrl: string;
let alice: Api;
let artifacts: string;
const KA = `alice-${randomBytes(12).toString('hex')}`;
let suiteId: string;
let runId: string;
let suiteRunId: string;

const CONTROL_ROLES = 'button|link|textbox|searchbox|combobox|checkbox|radio|slider|spinbutton|switch|listbox|menuitem|tab|option';

/** Lines of a snapshot that are controls without a name (and clickable generics, which are controls too). */
function unnamedControls(snapshot: string): string[] {
  return snapshot.split('\n').filter((line) => {
    const m = new RegExp(`^\\s*- (${CONTROL_ROLES})\\b(.*)$`).exec(line);
    if (m) return !/^ "[^"]+"/.test(m[2]);
    return /^\s*- generic \[.*cursor=pointer/.test(line);
  });
}

/** Forwards HTTP and WebSocket upgrades on another loopback port to the service, Host kept. */
function startRelay(target: URL): Promise<Server> {
  const server = createServer((req, res) => {
    const up = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.rawHeaders as unknown as Record<string, string>);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('upgrade', (req, socket, head) => {
    const up = connect(Number(target.port), target.hostname, () => {
      up.write(`${req.method} ${req.url} HTTP/1.1\r\n${Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
      up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KA}:alice`, SECRETS_KEY: randomBytes(32).toString('hex') }),
    startFixtureServer(),
  ]);
  relay = await startRelay(new URL(svc.url));
  consoleUrl = `http://127.0.0.1:${(relay.address() as { port: number }).port}`;
  alice = svc.api.withToken(KA);
  artifacts = mkdtempSync(path.join(tmpdir(), 'console-a11y-'));
  const created = await alice.post('/v1/suites', {
    name: 'Shop checkout',
    baseUrl: `${fx.url}/console/`,
    plans: [{ name: 'add to cart', plan: '#Case 1: Add an item\n- Click the "Add to cart" button\n- Verify "Added to cart" is visible', path: 'shop.html' }],
    options: { trace: false },
  });
  expect(created.status).toBe(201);
  suiteId = created.body.id;
  const launched = await alice.post(`/v1/suites/${suiteId}/runs`, {});
  suiteRunId = launched.body.id;
  runId = launched.body.runs[0].runId;
  for (const deadline = Date.now() + 90_000; ;) {
    const r = await alice.get(`/v1/runs/${runId}`);
    if (!['queued', 'running'].includes(r.body.status)) break;
    if (Date.now() > deadline) throw new Error('run did not finish');
    await new Promise((res) => setTimeout(res, 250));
  }
}, 180_000);

afterAll(async () => {
  await new Promise((r) => relay?.close(r));
  await svc?.stop();
  await fx?.close();
  rmSync(artifacts, { recursive: true, force: true });
});

describe('console accessibility', () => {
  it('every console page has landmarks, one h1 and every control named, in Ariadne\'s own snapshot', async () => {
    const sid = await alice.createSession();
    const go = async (p: string) => {
      const nav = await alice.action(sid, { action: 'navigate', url: `${consoleUrl}${p}` });
      expect(nav.status, `${p}: ${JSON.stringify(nav.body)}`).toBe(200);
      const snap = await alice.snapshot(sid);
      expect(snap.status).toBe(200);
      return snap.body.snapshot as string;
    };
    const check = (p: string, snapshot: string) => {
      expect(unnamedControls(snapshot), `${p}:\n${snapshot}`).toEqual([]);
      expect(snapshot, p).toMatch(/- main\b/);
      expect(snapshot.match(/- heading "[^"]+" \[level=1\]/g) ?? [], `${p}:\n${snapshot}`).toHaveLength(1);
    };
    const signIn = await go('/console/sign-in');
    check('/console/sign-in', signIn);
    const typed = await alice.action(sid, { action: 'type', ref: refOf(signIn, 'textbox', 'API key'), text: KA, submit: true });
    expect(typed.status).toBe(200);
    const pages = ['/console/suites', `/console/suites/${suiteId}`, `/console/suites/${suiteId}/runs/${suiteRunId}`, '/console/runs', `/console/runs/${runId}`, '/console/sessions', `/console/sessions/${sid}`, '/console/pressure'];
    for (const p of pages) {
      const snapshot = await go(p);
      check(p, snapshot);
      expect(snapshot, p).toMatch(/- banner\b/);
      expect(snapshot, p).toMatch(/- navigation "Console"/);
      expect(snapshot, p).toMatch(/- link "Suites"/);
    }
    await alice.delete(`/v1/sessions/${sid}`);
  }, 120_000);
});

describe('console in plain English', () => {
  it('the rules planner signs in, opens a suite, runs it and sees it pass', async () => {
    const before = (await alice.get(`/v1/suites/${suiteId}/runs`)).body.runs.length;
    const out = await runRulesPlan(svc, {
      url: `${consoleUrl}/`,
      runId: 'console-plain-english',
      artifactsDir: artifacts,
      settings: { assertTimeoutMs: 60_000 },
      steps: [
        `Type "${KA}" into "API key"`,
        'Click the "Sign in" button',
        'Verify "Suites" is visible',
        'Click "Shop checkout"',
        'Click the "Run now" button',
        'Verify "Suite run of Shop checkout" is visible',
        'Verify "passed" is visible',
        'Click "Runs" in the navigation',
        'Verify "Shop checkout · add to cart" is visible',
      ],
    });
    expect(out.report.cases[0].status, JSON.stringify(out.steps.map((s) => [s.asked, s.status, s.error?.message]), null, 1)).toBe('passed');
    // It really ran the suite (one more suite run than before).
    expect((await alice.get(`/v1/suites/${suiteId}/runs`)).body.runs.length).toBe(before + 1);
  }, 120_000);
});
