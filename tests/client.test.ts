import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Ariadne, AriadneError, type StreamEvent } from '@ariadne/client';
import { startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// The typed client (packages/client) against the real service: types in step with
// openapi.yaml, a session with roles, typed errors, the WebSocket stream with reconnect
// and ?since= resume, and a run followed over server-sent events.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'client-test-key-0123456789abcdef';
let svc: TestService;
let fx: FixtureServer;
let ariadne: Ariadne;

beforeAll(async () => {
  fx = await startFixtureServer();
  svc = await startTestService({ API_KEYS: `${KEY}:acme` });
  ariadne = new Ariadne({ baseUrl: svc.url, token: KEY });
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

describe('typed client', () => {
  it('has types generated from the committed openapi.yaml (scripts/client-types.mjs --check)', async () => {
    const { generateClientTypes, CLIENT_TYPES } = await import(pathToFileURL(path.join(ROOT, 'scripts/client-types.mjs')).href);
    const generated: string = await generateClientTypes();
    expect(generated.length).toBeGreaterThan(10_000);
    expect(readFileSync(CLIENT_TYPES, 'utf8') === generated, 'packages/client/src/api.ts drifted from openapi.yaml: run npm run client:types').toBe(true);
    expect(generated).toContain('"/v1/sessions/{id}/roles/{role}/actions"');
  }, 60_000);

  it('leases a session with roles and drives them', async () => {
    const session = await ariadne.createSession({ roles: [{ name: 'admin' }, { name: 'customer' }] });
    try {
      const admin = session.role('admin');
      const customer = session.role('customer');
      const nav = await admin.navigate(`${fx.url}/controls.html`);
      expect(nav.ok).toBe(true);
      await customer.navigate(`${fx.url}/products.html`);
      const snap = await customer.snapshot({ format: 'text', maxTokens: 2000 });
      expect(snap.snapshot).toMatch(/button "Add to Cart"/);
      const ref = /button "Add to Cart" \[(e\d+)\]/.exec(snap.snapshot as string)![1];
      const click = await customer.click(ref);
      expect(click.target).toMatchObject({ resolvedBy: 'ref', ref });
      const c = (await customer.container(ref, { format: 'text' })) as { text: string };
      expect(c.text).toMatch(/product-card/);
      const locs = (await customer.locators(ref)) as { locators: { code: string }[] };
      expect(locs.locators[0].code).toMatch(/product-card|iPhone 15 Pro/);
      await admin.fill('Notes', 'typed by the client');
      // Roles are isolated: admin's page stored a localStorage item, customer's origin has none.
      const adminStorage = await unwrapGet(`/v1/sessions/${session.id}/roles/admin/storage`);
      expect(JSON.stringify(adminStorage)).toMatch(/theme/);
      const late = await session.addRole('auditor');
      expect((await late.snapshot({ format: 'text' })).snapshot).toBeDefined();
      const info = (await session.get()) as { roles: { name: string }[] };
      expect(info.roles.map((r) => r.name).sort()).toEqual(['admin', 'auditor', 'customer']);
      const png = await customer.screenshot();
      expect(png.subarray(1, 4).toString()).toBe('PNG');
    } finally {
      await session.close();
    }
  }, 60_000);

  it('throws AriadneError with the stable code, status and details', async () => {
    const session = await ariadne.createSession();
    try {
      await session.role().navigate(`${fx.url}/products.html`);
      const err = await session.role().click('e999').catch((e) => e);
      expect(err).toBeInstanceOf(AriadneError);
      expect(err).toMatchObject({ code: 'ref_not_found', status: 409 });
      expect(err.details.hint).toMatch(/snapshot/);
      expect(err.requestId).toBeTruthy();
      const amb = await session.role().click('Add to Cart').catch((e) => e);
      expect(amb.code).toBe('ambiguous_target');
      expect(amb.details.candidates.length).toBeGreaterThan(1);
    } finally {
      await session.close();
    }
    const gone = await ariadne.session('no-such-session').get().catch((e) => e);
    expect(gone).toMatchObject({ code: 'session_not_found', status: 404 });
    const anon = await new Ariadne({ baseUrl: svc.url, token: 'wrong-key-0123456789abc' }).listSessions().catch((e) => e);
    expect(anon).toMatchObject({ code: 'unauthorized', status: 401 });
    const down = await new Ariadne({ baseUrl: 'http://127.0.0.1:9' }).listSessions().catch((e) => e);
    expect(down).toMatchObject({ code: 'network_error', status: 0 });
  });

  it('streams events and resumes after a dropped connection with ?since=, losing and repeating nothing', async () => {
    const session = await ariadne.createSession();
    const stream = await session.stream({ backoffMs: 50 });
    try {
      const seen: StreamEvent[] = [];
      stream.onEvent((e) => seen.push(e));
      const eventually = async (pred: (e: StreamEvent) => boolean, ms = 10_000) => seen.find(pred) ?? stream.waitFor(pred, ms);
      const result = (await stream.request('action', { action: 'navigate', url: `${fx.url}/products.html` }, { role: 'default' })) as { ok: boolean };
      expect(result.ok).toBe(true);
      await eventually((e) => e.event === 'navigation' && String(e.data.url).includes('products'));
      const snap = (await stream.request('snapshot', { format: 'text', maxTokens: 300 })) as { snapshot: string };
      expect(snap.snapshot).toMatch(/Products/);
      const err = await stream.request('action', { action: 'click', ref: 'e999' }).catch((e) => e);
      expect(err).toBeInstanceOf(AriadneError);
      expect(err.code).toBe('ref_not_found');

      // Drop the socket and navigate over REST: the stream comes back by itself (resuming
      // with ?since=) and delivers the navigation once.
      const before = stream.lastSeq;
      stream.socket!.terminate();
      await session.role().navigate(`${fx.url}/controls.html`);
      const back = await eventually((e) => e.event === 'navigation' && String(e.data.url).includes('controls'), 15_000);
      await new Promise((r) => setTimeout(r, 300)); // a duplicate would arrive now
      expect(back.seq).toBeGreaterThan(before);
      expect(stream.reconnects).toBe(1);
      const seqs = seen.filter((e) => e.seq > 0).map((e) => e.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
      expect(seen.filter((e) => e.event === 'navigation' && String(e.data.url).includes('controls'))).toHaveLength(1);

      // ?since= replays what came after a seq: a stream opened now, after the navigation,
      // still receives it (and nothing at or before that seq).
      const replayed: StreamEvent[] = [];
      const late = await session.stream({ since: before, onEvent: (e) => replayed.push(e) });
      try {
        const nav = replayed.find((e) => e.event === 'navigation' && String(e.data.url).includes('controls')) ?? (await late.waitFor((e) => e.event === 'navigation' && String(e.data.url).includes('controls'), 10_000));
        expect(nav.seq).toBe(back.seq);
        expect(replayed.every((e) => e.seq > before)).toBe(true);
      } finally {
        late.close();
      }
    } finally {
      stream.close();
      await session.close();
    }
    // A deleted session's stream closes with its code and is not retried.
    const s2 = await ariadne.createSession();
    const st2 = await s2.stream({ backoffMs: 50 });
    const closed = new Promise<{ code: number }>((resolve) => st2.onClose(resolve));
    await s2.close();
    expect((await closed).code).toBe(4410);
    expect(st2.reconnects).toBe(0);
  }, 60_000);

  it('follows a run over server-sent events and resumes from a seq', async () => {
    const plan = '#Case 1: Log in\n- Type {{USER}} into "Username"\n- Type {{PASSWORD}} into "Password"\n- Click the "Log in" button\n- Verify "Welcome, {{USER}}" is visible';
    const run = (await ariadne.startRun({ url: `${fx.url}/app/login.html`, plan, variables: { USER: 'alice', PASSWORD: 'secret' } } as never)) as { id: string };
    const events = [];
    for await (const e of ariadne.followRun(run.id)) events.push(e);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('run_queued');
    expect(types).toContain('step');
    expect(types.at(-1)).toBe('run_finished');
    const done = (await ariadne.waitForRun(run.id)) as { status: string };
    expect(done.status).toBe('passed');
    // Resume: only what came after the given seq.
    const mid = events[Math.floor(events.length / 2)].seq;
    const rest = [];
    for await (const e of ariadne.followRun(run.id, { since: mid })) rest.push(e);
    expect(rest[0].seq).toBe(mid + 1);
    expect(rest.length).toBe(events.filter((e) => e.seq > mid).length);
    const missing = await (async () => {
      for await (const _ of ariadne.followRun('nope')) void _;
    })().catch((e) => e);
    expect(missing).toMatchObject({ code: 'run_not_found', status: 404 });
  }, 90_000);
});

async function unwrapGet(p: string) {
  const res = await fetch(svc.url + p, { headers: { authorization: `Bearer ${KEY}` } });
  return res.json();
}
