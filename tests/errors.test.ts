import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type Api, type TestService } from './helpers/service.js';
import { waitUntil } from './helpers/process.js';

// Bad input and exhausted limits: every one is a clear 4xx/503 with a stable code and
// the field it is about, nothing leaks (leases, Chromium contexts), and the server
// stays up. The pool here holds 2 contexts at most, to reach its limit cheaply.

let svc: TestService;
let fx: FixtureServer;
let api: Api;
const BODY_LIMIT = 4096;

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({
      BODY_LIMIT_BYTES: String(BODY_LIMIT),
      POOL_BROWSERS: '1',
      POOL_MAX_CONTEXTS: '2',
      POOL_MAX_CONTEXTS_PER_BROWSER: '2',
      POOL_WARM_CONTEXTS: '1',
      QUEUE_TIMEOUT_SECONDS: '1',
    }),
    startFixtureServer(),
  ]);
  api = svc.api;
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

/** Leases the pool holds, and contexts actually open in Chromium beyond the warm ones. */
async function pool() {
  // Contexts being warmed are half made (counted, not yet open): wait for the refill.
  const stats = await waitUntil(() => {
    const st = svc.service.pool.stats();
    return st.warming === 0 ? st : null;
  }, 10_000, 'the warm refill');
  const http = (await api.get('/v1/pool')).body;
  expect(http.leased).toBe(stats.leased);
  return { leased: stats.leased, strayContexts: stats.contexts - stats.leased - stats.warm - stats.warming };
}

function expectError(res: { status: number; body: any }, status: number, code: string) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(typeof res.body.error.message).toBe('string');
}

describe('malformed requests', () => {
  it('rejects malformed JSON, unknown fields and wrong types, naming the field', async () => {
    expectError(await api.request('POST', '/v1/sessions', '{"roles": ['), 400, 'invalid_request');
    expectError(await api.request('POST', '/v1/sessions', 'roles=admin', { 'content-type': 'text/plain' }), 400, 'invalid_request');

    const unknown = await api.post('/v1/sessions', { rolez: [{ name: 'admin' }] });
    expectError(unknown, 400, 'invalid_request');
    expect(unknown.body.error.details.field).toBe('rolez');
    expect(unknown.body.error.message).toContain('rolez');

    const nested = await api.post('/v1/sessions', { roles: [{ name: 'admin', colour: 'blue' }] });
    expectError(nested, 400, 'invalid_request');
    expect(nested.body.error.details.field).toBe('roles.0.colour');

    const wrongTypes: [unknown, string][] = [
      [{ idleTimeoutSeconds: 'soon' }, 'idleTimeoutSeconds'],
      [{ ttlSeconds: true }, 'ttlSeconds'],
      [{ roles: 'admin' }, 'roles'],
      [{ roles: [{ name: 'admin', viewport: { width: 'wide', height: 600 } }] }, 'roles.0.viewport.width'],
      [{ roles: [{ name: 'admin', viewport: { width: 10, height: 600 } }] }, 'roles.0.viewport.width'],
      [{ roles: [{ name: 'no spaces allowed' }] }, 'roles.0.name'],
      [{ roles: [{ name: 42 }] }, 'roles.0.name'],
      [{ roles: [{ name: 'admin', extraHTTPHeaders: { 'x-a': 1 } }] }, 'roles.0.extraHTTPHeaders.x-a'],
      [{ metadata: { owner: { nested: true } } }, 'metadata.owner'],
    ];
    for (const [body, field] of wrongTypes) {
      const res = await api.post('/v1/sessions', body);
      expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
      expect(res.body.error.message).toContain(field);
    }

    const dup = await api.post('/v1/sessions', { roles: [{ name: 'admin' }, { name: 'admin' }] });
    expectError(dup, 400, 'invalid_request');
    expect(dup.body.error.details.role).toBe('admin');
    expect((await pool()).leased).toBe(0);
  });

  it('names the values a choice field takes, and how to say another tool\'s action name here', async () => {
    const id = await api.createSession();
    try {
      const dbl = await api.post(`/v1/sessions/${id}/roles/default/actions`, { action: 'dblclick', description: 'the title' });
      expectError(dbl, 400, 'invalid_request');
      expect(dbl.body.error.details.field).toBe('action');
      expect(dbl.body.error.details.allowed).toContain('click');
      expect(dbl.body.error.message).toContain('"dblclick" is not one of');
      expect(dbl.body.error.message).toContain('"click" with "double": true');
      const near = await api.post(`/v1/sessions/${id}/roles/default/actions`, { action: 'wait-for', description: 'x' });
      expect(near.body.error.message).toContain('Did you mean "wait_for"?');
      const fmt = await api.get(`/v1/sessions/${id}/roles/default/snapshot?format=markdown`);
      expectError(fmt, 400, 'invalid_request');
      expect(fmt.body.error.message).toMatch(/"markdown" is not one of "yaml", "json", "text"/);
    } finally {
      await api.delete(`/v1/sessions/${id}`);
    }
  });

  it('answers 413 for bodies over BODY_LIMIT_BYTES', async () => {
    const big = { metadata: { pad: 'x'.repeat(BODY_LIMIT) } };
    expectError(await api.post('/v1/sessions', big), 413, 'payload_too_large');
    const id = await api.createSession();
    expectError(await api.action(id, { action: 'type', text: 'y'.repeat(BODY_LIMIT * 2) }), 413, 'payload_too_large');
    // Just under the limit is fine (it fails validation on its own merits, not size).
    const under = await api.post('/v1/sessions', { metadata: { pad: 'x'.repeat(BODY_LIMIT - 100) } });
    expectError(under, 400, 'invalid_request');
    expect(under.body.error.details.field).toBe('metadata.pad');
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
  });

  it('turns context options Chromium refuses into 400s, leasing nothing', async () => {
    const cases: [unknown, string][] = [
      [{ roles: [{ name: 'ok' }, { name: 'tz', timezoneId: 'Mars/Olympus_Mons' }] }, 'roles.1.timezoneId'],
      [{ roles: [{ name: 'ok' }, { name: 'st', storageState: { cookies: [{ name: 'a', value: 'b' }], origins: [] } }] }, 'roles.1.storageState'],
      [{ roles: [{ name: 'ok' }, { name: 'hdr', extraHTTPHeaders: { 'bad header': 'x' } }] }, 'roles.1.extraHTTPHeaders'],
      [{ roles: [{ name: 'hdr', extraHTTPHeaders: { 'x-ok': 'line\nbreak' }, userAgent: 'AriadneTest/4.0' }] }, 'roles.0.extraHTTPHeaders'],
      [{ roles: [{ name: 'ua', userAgent: 'Ariadne\nTest' }, { name: 'ok' }] }, 'roles.0.userAgent'],
      [{ roles: [{ name: 'ok' }, { name: 'js', baseURL: 'javascript:alert(1)' }] }, 'roles.1.baseURL'],
      [{ roles: [{ name: 'ok' }, { name: 'rel', baseURL: 'not a url' }] }, 'roles.1.baseURL'],
    ];
    for (const [body, field] of cases) {
      const res = await api.post('/v1/sessions', body);
      expect(res.status, `${JSON.stringify(body)} → ${JSON.stringify(res.body)}`).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(500);
      expect(res.body.error.details?.field, JSON.stringify(res.body)).toBe(field);
      expect(await pool()).toEqual({ leased: 0, strayContexts: 0 });
    }
    // The same refusal when the role is added to a live session.
    const id = await api.createSession();
    const add = await api.post(`/v1/sessions/${id}/roles`, { name: 'tz', timezoneId: 'Mars/Olympus_Mons' });
    expectError(add, 400, 'invalid_request');
    expect(add.body.error.details.field).toBe('timezoneId');
    expect((await api.get(`/v1/sessions/${id}`)).body.roles.map((r: any) => r.name)).toEqual(['default']);
    expect((await pool()).leased).toBe(1);
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
  });
});

describe('things that do not exist', () => {
  it('answers 404 with the right code for unknown sessions, roles, tabs and routes', async () => {
    const missing = '00000000-0000-4000-8000-000000000000';
    expectError(await api.get(`/v1/sessions/${missing}`), 404, 'session_not_found');
    expectError(await api.delete(`/v1/sessions/${missing}`), 404, 'session_not_found');
    expectError(await api.snapshot(missing), 404, 'session_not_found');
    expectError(await api.post(`/v1/sessions/${missing}/roles`, { name: 'x' }), 404, 'session_not_found');
    const tooLong = await api.get(`/v1/sessions/${'x'.repeat(100)}`);
    expectError(tooLong, 400, 'invalid_request');
    expect(tooLong.body.error.details.field).toBe('id');

    const id = await api.createSession({ roles: [{ name: 'admin' }] });
    const role = await api.snapshot(id, '', 'nobody');
    expectError(role, 404, 'role_not_found');
    expect(role.body.error.details.roles).toEqual(['admin']);
    expectError(await api.delete(`/v1/sessions/${id}/roles/nobody`), 404, 'role_not_found');
    expectError(await api.get(`/v1/sessions/${id}/roles/nobody/storage-state`), 404, 'role_not_found');
    expectError(await api.get(`/v1/sessions/${id}/roles/nobody/pages`), 404, 'role_not_found');

    const tab = await api.get(`/v1/sessions/${id}/roles/admin/snapshot?page=p404`);
    expectError(tab, 404, 'page_not_found');
    expect(tab.body.error.details.pages).toHaveLength(1);
    expectError(await api.action(id, { action: 'navigate', url: `${fx.url}/env.html` }, 'admin', 'p404'), 404, 'page_not_found');
    expectError(await api.post(`/v1/sessions/${id}/roles/admin/pages/p404/select`), 404, 'page_not_found');
    expectError(await api.delete(`/v1/sessions/${id}/roles/admin/pages/p404`), 404, 'page_not_found');

    expectError(await api.get('/v1/nothing-here'), 404, 'not_found');
    expectError(await api.request('PUT', '/v1/sessions', {}), 404, 'not_found');
    expectError(await api.get(`/v1/sessions/${id}/roles/admin/teleport`), 404, 'not_found');
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
  });
});

describe('capacity', () => {
  // Session creation goes through the admission queue: `queueTimeoutSeconds: 0` asks
  // to fail at once when full (503 capacity_exhausted); otherwise it waits up to
  // QUEUE_TIMEOUT_SECONDS (1 s here) and answers 503 queue_timeout. Adding a role to a
  // live session never queues. A session whose later role fails to lease gives back
  // the contexts its other roles got: see "turns context options ... into 400s".
  it('answers 503 beyond POOL_MAX_CONTEXTS, at once or after the queue timeout, and leaks nothing', async () => {
    const now = { queueTimeoutSeconds: 0 };
    const first = await api.createSession({ roles: [{ name: 'one' }] });
    expect((await pool()).leased).toBe(1);

    // Two roles, one slot free: refused whole, nothing half-leased.
    const partial = await api.post('/v1/sessions', { ...now, roles: [{ name: 'a' }, { name: 'b', userAgent: 'AriadneTest/3.0' }] });
    expectError(partial, 503, 'capacity_exhausted');
    expect(await pool()).toEqual({ leased: 1, strayContexts: 0 });
    expect((await api.get('/v1/sessions')).body.total).toBe(1);

    const second = await api.createSession(now);
    expect((await pool()).leased).toBe(2);
    expectError(await api.post('/v1/sessions', now), 503, 'capacity_exhausted');
    const addRole = await api.post(`/v1/sessions/${first}/roles`, { name: 'two' });
    expectError(addRole, 503, 'capacity_exhausted');
    expect(addRole.body.error.details.capacity).toBe(2);
    expect((await api.get(`/v1/sessions/${first}`)).body.roles.map((r: any) => r.name)).toEqual(['one']);

    // Willing to wait: bounded by the queue timeout, then gone from the queue.
    const started = Date.now();
    expectError(await api.post('/v1/sessions', {}), 503, 'queue_timeout');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(1000 + 5000);
    expect(await pool()).toEqual({ leased: 2, strayContexts: 0 });

    // Concurrent requests cannot overshoot the cap either.
    expect((await api.delete(`/v1/sessions/${second}`)).status).toBe(204);
    const burst = await Promise.all([1, 2, 3].map(() => api.post('/v1/sessions', now)));
    expect(burst.map((r) => r.status).sort()).toEqual([201, 503, 503]);
    expect(await pool()).toEqual({ leased: 2, strayContexts: 0 });
    const winner = burst.find((r) => r.status === 201)!.body.id;

    // Giving one back makes room again; the sessions kept working throughout.
    expect((await api.delete(`/v1/sessions/${winner}`)).status).toBe(204);
    expect((await api.post(`/v1/sessions/${first}/roles`, { name: 'two' })).status).toBe(201);
    for (const role of ['one', 'two']) {
      expect((await api.action(first, { action: 'navigate', url: `${fx.url}/env.html` }, role)).status).toBe(200);
    }
    expect((await api.delete(`/v1/sessions/${first}`)).status).toBe(204);
    expect(await pool()).toEqual({ leased: 0, strayContexts: 0 });
  });
});

describe('bounded actions', () => {
  it('fails a click on a covered element within its timeoutMs, and the tab stays usable', async () => {
    const id = await api.createSession();
    expect((await api.action(id, { action: 'navigate', url: `${fx.url}/overlay.html` })).status).toBe(200);
    const ref = refOf((await api.snapshot(id)).body.snapshot, 'button', 'Covered button');

    const started = Date.now();
    const click = await api.action(id, { action: 'click', ref, timeoutMs: 1500 });
    const took = Date.now() - started;
    expect([504, 422], JSON.stringify(click.body)).toContain(click.status);
    // click_intercepted names what took the click (Playwright's "intercepts pointer events").
    expect(['timeout', 'action_failed', 'click_intercepted']).toContain(click.body.error.code);
    expect(took).toBeGreaterThanOrEqual(1400);
    expect(took).toBeLessThan(1500 + 4000);
    // Playwright's reason (the overlay intercepts pointer events) reaches the caller.
    expect(JSON.stringify(click.body.error)).toMatch(/intercepts pointer events|veil/);

    // A slow navigation is bounded the same way.
    const navStarted = Date.now();
    const nav = await api.action(id, { action: 'navigate', url: `${fx.url}/slow?ms=20000`, timeoutMs: 1000 });
    expect([504, 502], JSON.stringify(nav.body)).toContain(nav.status);
    expect(Date.now() - navStarted).toBeLessThan(1000 + 4000);

    // Nothing was clicked, and the tab's queue is not stuck behind the failures.
    expect((await api.action(id, { action: 'navigate', url: `${fx.url}/overlay.html` })).status).toBe(200);
    expect((await api.snapshot(id)).body.snapshot).toContain('not clicked');
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
  });
});

describe('after all of the above', () => {
  it('is still up, with no leased or stray contexts', async () => {
    expect((await api.get('/healthz')).status).toBe(200);
    expect((await api.get('/readyz')).status).toBe(200);
    expect(await pool()).toEqual({ leased: 0, strayContexts: 0 });
    expect((await api.get('/v1/sessions')).body.total).toBe(0);
  });
});
