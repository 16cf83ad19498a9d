import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { Api, refOf, startTestService, type TestService } from './helpers/service.js';
import { waitUntil } from './helpers/process.js';

// Isolation: roles of one session never share cookies or storage (one context each),
// sessions never share them either, and tenants (API keys) never see each other's
// sessions: another tenant's session answers exactly like a missing one.

const KEY_A = 'alpha-key-0123456789abcdef';
const KEY_B = 'beta-key-0123456789abcdef';

let svc: TestService;
let fx: FixtureServer;
let a: Api;
let b: Api;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ API_KEYS: `${KEY_A}:alpha,${KEY_B}:beta` }), startFixtureServer()]);
  a = svc.api.withToken(KEY_A);
  b = svc.api.withToken(KEY_B);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function navigate(api: Api, id: string, role: string, url: string) {
  const res = await api.action(id, { action: 'navigate', url }, role);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function text(api: Api, id: string, role: string): Promise<string> {
  const res = await api.snapshot(id, '', role);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.snapshot;
}

async function login(api: Api, id: string, role: string, user: string) {
  await navigate(api, id, role, `${fx.url}/login.html`);
  const snap = await text(api, id, role);
  await api.action(id, { action: 'fill', ref: refOf(snap, 'textbox', 'Username'), value: user }, role);
  await api.action(id, { action: 'fill', ref: refOf(snap, 'textbox', 'Password'), value: 'secret' }, role);
  const click = await api.action(id, { action: 'click', ref: refOf(snap, 'button', 'Sign in') }, role);
  expect(click.status, JSON.stringify(click.body)).toBe(200);
  await waitUntil(async () => (await text(api, id, role)).includes(`Logged in as ${user}`), 5000, `${role} to be logged in`);
}

describe('roles and sessions never share cookies or storage', () => {
  it('keeps a login and localStorage inside the role that made them', async () => {
    const id = await a.createSession({ roles: [{ name: 'admin' }, { name: 'customer' }] });
    const other = await a.createSession({ roles: [{ name: 'admin' }] });

    await login(a, id, 'admin', 'admin');
    await navigate(a, id, 'customer', `${fx.url}/account`);
    expect(await text(a, id, 'customer')).toContain('Logged out');
    // Same role name in another session: another context, so logged out too.
    await navigate(a, other, 'admin', `${fx.url}/account`);
    expect(await text(a, other, 'admin')).toContain('Logged out');

    // localStorage and a script-set cookie, written by the admin's page.
    await navigate(a, id, 'admin', `${fx.url}/env.html`);
    const save = await a.action(id, { action: 'click', ref: refOf(await text(a, id, 'admin'), 'button', 'Save note') }, 'admin');
    expect(save.status).toBe(200);
    const adminEnv = await text(a, id, 'admin');
    expect(adminEnv).toContain('Note: written-by-page');
    expect(adminEnv).toContain('Cookie: jsnote=set');

    for (const [sid, role] of [[id, 'customer'], [other, 'admin']] as const) {
      await navigate(a, sid, role, `${fx.url}/env.html`);
      const env = await text(a, sid, role);
      expect(env).toContain('Note: none');
      expect(env).toContain('Cookie: none');
      const storage = await a.get(`/v1/sessions/${sid}/roles/${role}/storage`);
      expect(storage.status).toBe(200);
      expect(JSON.stringify(storage.body)).not.toContain('written-by-page');
      const cookies = await a.get(`/v1/sessions/${sid}/roles/${role}/cookies`);
      expect(cookies.body.cookies).toEqual([]);
      const state = await a.get(`/v1/sessions/${sid}/roles/${role}/storage-state`);
      expect(state.body.cookies).toEqual([]);
    }

    // The admin's own state has both, as exported storage state.
    const adminState = (await a.get(`/v1/sessions/${id}/roles/admin/storage-state`)).body;
    expect(adminState.cookies.map((c: any) => c.name).sort()).toEqual(['jsnote', 'session']);
    expect(JSON.stringify(adminState.origins)).toContain('written-by-page');

    // A role removed and added again under the same name starts from a clean context.
    expect((await a.delete(`/v1/sessions/${id}/roles/admin`)).status).toBe(200);
    expect((await a.post(`/v1/sessions/${id}/roles`, { name: 'admin' })).status).toBe(201);
    await navigate(a, id, 'admin', `${fx.url}/account`);
    expect(await text(a, id, 'admin')).toContain('Logged out');

    expect((await a.delete(`/v1/sessions/${id}`)).status).toBe(204);
    expect((await a.delete(`/v1/sessions/${other}`)).status).toBe(204);
  });
});

describe('tenants', () => {
  it('needs a valid key everywhere except the probes', async () => {
    const anon = new Api(svc.url);
    for (const [method, p] of [['GET', '/v1/sessions'], ['POST', '/v1/sessions'], ['GET', '/v1/pool'], ['GET', '/v1/sessions/x/roles/default/snapshot']]) {
      const res = await anon.request(method, p, method === 'POST' ? {} : undefined);
      expect(res.status, `${method} ${p}`).toBe(401);
      expect(res.body.error.code).toBe('unauthorized');
    }
    const wrong = await anon.withToken('not-a-key-0123456789abcdef').get('/v1/sessions');
    expect(wrong.status).toBe(401);
    expect(wrong.body.error.code).toBe('unauthorized');
    // A valid key in the wrong scheme is still not a bearer token.
    const basic = await anon.request('GET', '/v1/sessions', undefined, { authorization: `Basic ${KEY_A}` });
    expect(basic.status).toBe(401);
    // The message never echoes the key.
    expect(JSON.stringify(wrong.body)).not.toContain('not-a-key');

    expect((await anon.get('/healthz')).status).toBe(200);
    expect((await anon.get('/readyz')).status).toBe(200);
    // ?token= is only for WebSocket upgrades and the live page (tests/security/auth-bypass.test.ts).
    expect((await anon.get(`/v1/sessions?token=${KEY_A}`)).status).toBe(401);
  });

  it("answers another tenant's session exactly like a missing one", async () => {
    const id = await a.createSession({ roles: [{ name: 'admin' }] });
    const missing = '00000000-0000-4000-8000-000000000000';
    const leasedBefore = (await a.get('/v1/pool')).body.leased;

    const probes: [string, string, unknown?][] = [
      ['GET', '/v1/sessions/:id'],
      ['DELETE', '/v1/sessions/:id'],
      ['POST', '/v1/sessions/:id/roles', { name: 'intruder' }],
      ['DELETE', '/v1/sessions/:id/roles/admin'],
      ['GET', '/v1/sessions/:id/roles/admin/storage-state'],
      ['GET', '/v1/sessions/:id/roles/admin/pages'],
      ['POST', '/v1/sessions/:id/roles/admin/pages', { url: `${fx.url}/env.html` }],
      ['GET', '/v1/sessions/:id/roles/admin/snapshot'],
      ['GET', '/v1/sessions/:id/roles/admin/cookies'],
      ['POST', '/v1/sessions/:id/roles/admin/actions', { action: 'navigate', url: `${fx.url}/env.html` }],
    ];
    const shape = (body: any, sid: string) => JSON.parse(JSON.stringify(body).replaceAll(sid, '<id>'));
    for (const [method, p, body] of probes) {
      const theirs = await b.request(method, p.replace(':id', id), body);
      const none = await b.request(method, p.replace(':id', missing), body);
      expect(theirs.status, `${method} ${p}`).toBe(404);
      expect(theirs.body.error.code).toBe('session_not_found');
      expect(shape(theirs.body, id), `${method} ${p}`).toEqual(shape(none.body, missing));
    }
    const listB = await b.get('/v1/sessions');
    expect(listB.body.sessions.map((s: any) => s.id)).not.toContain(id);
    expect(listB.body.sessions.every((s: any) => s.tenant === 'beta')).toBe(true);

    // None of that touched A's session.
    const mine = await a.get(`/v1/sessions/${id}`);
    expect(mine.status).toBe(200);
    expect(mine.body.tenant).toBe('alpha');
    expect(mine.body.roles.map((r: any) => r.name)).toEqual(['admin']);
    expect(mine.body.roles[0].pages).toHaveLength(1);
    expect((await a.get('/v1/sessions')).body.sessions.map((s: any) => s.id)).toContain(id);
    expect((await a.get('/v1/pool')).body.leased).toBe(leasedBefore);

    // B's own session is invisible to A in turn.
    const bid = await b.createSession();
    expect((await a.get(`/v1/sessions/${bid}`)).status).toBe(404);
    expect((await a.get('/v1/sessions')).body.sessions.map((s: any) => s.id)).not.toContain(bid);

    // Once ended, A's session answers 410 to A, and still 404 to B: an ended session
    // does not reveal that it existed.
    expect((await a.delete(`/v1/sessions/${id}`)).status).toBe(204);
    expect((await a.get(`/v1/sessions/${id}`)).status).toBe(410);
    const afterEnd = await b.get(`/v1/sessions/${id}`);
    expect(afterEnd.status).toBe(404);
    expect(afterEnd.body.error.code).toBe('session_not_found');

    expect((await b.delete(`/v1/sessions/${bid}`)).status).toBe(204);
    expect((await a.get('/v1/pool')).body.leased).toBe(0);
    expect((await a.get('/healthz')).status).toBe(200);
  });
});
