import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type Api, type TestService } from './helpers/service.js';
import { waitUntil } from './helpers/process.js';

// Session lifecycle through HTTP on a real service: roles and their context options
// (checked from inside the page), tabs and popups, storage-state round trip, idle
// timeout and TTL. Real Chromium, embedded Redis, fixture pages.

let svc: TestService;
let fx: FixtureServer;
let api: Api;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ POOL_WARM_CONTEXTS: '1' }), startFixtureServer()]);
  api = svc.api;
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const leased = async () => (await api.get('/v1/pool')).body.leased as number;

async function navigate(id: string, role: string, url: string, page?: string) {
  const res = await api.action(id, { action: 'navigate', url }, role, page);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function pageText(id: string, role: string, page?: string): Promise<string> {
  const res = await api.get(`/v1/sessions/${id}/roles/${role}/snapshot${page ? `?page=${page}` : ''}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.snapshot as string;
}

/** Log in through the login fixture's form, as a user would. */
async function login(id: string, role: string, user: string) {
  await navigate(id, role, `${fx.url}/login.html`);
  const snap = await pageText(id, role);
  for (const [name, value] of [['Username', user], ['Password', 'secret']]) {
    const res = await api.action(id, { action: 'fill', ref: refOf(snap, 'textbox', name), value }, role);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  }
  const click = await api.action(id, { action: 'click', ref: refOf(snap, 'button', 'Sign in') }, role);
  expect(click.status, JSON.stringify(click.body)).toBe(200);
  await waitUntil(async () => (await pageText(id, role)).includes(`Logged in as ${user}`), 5000, 'the account page');
}

describe('session lifecycle', () => {
  it('creates a session with one "default" role at 1600x900, lists, gets and deletes it', async () => {
    const before = await leased();
    const created = await api.post('/v1/sessions', {});
    expect(created.status).toBe(201);
    const id = created.body.id;
    expect(created.body.status).toBe('active');
    expect(created.body.tenant).toBe('local');
    expect(created.body.roles.map((r: any) => r.name)).toEqual(['default']);
    expect(created.body.roles[0].viewport).toEqual({ width: 1600, height: 900 });
    expect(created.body.roles[0].pages).toHaveLength(1);
    expect(await leased()).toBe(before + 1);

    await navigate(id, 'default', `${fx.url}/env.html`);
    expect(await pageText(id, 'default')).toContain('Viewport: 1600x900');

    const list = await api.get('/v1/sessions');
    expect(list.status).toBe(200);
    expect(list.body.sessions.map((s: any) => s.id)).toContain(id);
    expect(list.body.total).toBe(list.body.sessions.length);

    const got = await api.get(`/v1/sessions/${id}`);
    expect(got.status).toBe(200);
    expect(got.body.id).toBe(id);
    expect(got.body.roles[0].pages[0].url).toBe(`${fx.url}/env.html`);
    expect(got.body.roles[0].pages[0].title).toBe('Environment');

    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    expect(await leased()).toBe(before);
    const gone = await api.get(`/v1/sessions/${id}`);
    expect(gone.status).toBe(410);
    expect(gone.body.error.code).toBe('session_closed');
    expect((await api.snapshot(id)).body.error.code).toBe('session_closed');
    // An ended session leaves the list; deleting it twice is a 410, not a crash.
    expect((await api.get('/v1/sessions')).body.sessions.map((s: any) => s.id)).not.toContain(id);
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(410);
  });

  it('answers an action cut short by DELETE with session_closed', async () => {
    const id = await api.createSession();
    const running = api.action(id, { action: 'wait_for', time: 3000 });
    await new Promise((r) => setTimeout(r, 500));
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    const res = await running;
    expect(res.status, JSON.stringify(res.body)).toBe(410);
    expect(res.body.error.code).toBe('session_closed');
  });

  it('honours viewport, userAgent, locale, timezoneId, extraHTTPHeaders and baseURL per role', async () => {
    const before = await leased();
    const res = await api.post('/v1/sessions', {
      roles: [
        // Only a viewport: can be served by a warm context resized.
        { name: 'narrow', viewport: { width: 800, height: 600 } },
        { name: 'mobile', viewport: { width: 400, height: 700 }, userAgent: 'AriadneTest/1.0 (mobile)', locale: 'de-DE', timezoneId: 'Asia/Tokyo' },
        { name: 'headers', extraHTTPHeaders: { 'x-ariadne-test': 'warm-header' } },
        { name: 'based', baseURL: fx.url, extraHTTPHeaders: { 'x-ariadne-test': 'fresh-header' } },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const id = res.body.id;
    expect(res.body.roles.map((r: any) => [r.name, r.viewport])).toEqual([
      ['narrow', { width: 800, height: 600 }],
      ['mobile', { width: 400, height: 700 }],
      ['headers', { width: 1600, height: 900 }],
      ['based', { width: 1600, height: 900 }],
    ]);
    expect(await leased()).toBe(before + 4);

    await navigate(id, 'narrow', `${fx.url}/env.html`);
    const narrow = await pageText(id, 'narrow');
    expect(narrow).toContain('Viewport: 800x600');
    expect(narrow).not.toContain('AriadneTest');

    await navigate(id, 'mobile', `${fx.url}/env.html`);
    const mobile = await pageText(id, 'mobile');
    expect(mobile).toContain('Viewport: 400x700');
    expect(mobile).toContain('UA: AriadneTest/1.0 (mobile)');
    expect(mobile).toContain('Language: de-DE');
    expect(mobile).toContain('Timezone: Asia/Tokyo');

    await navigate(id, 'headers', `${fx.url}/echo-headers`);
    // The JSON body shows up escaped in the snapshot's YAML string.
    expect(await pageText(id, 'headers')).toMatch(/x-ariadne-test\W+warm-header/);

    // baseURL: a relative URL resolves against it even from about:blank.
    const based = await navigate(id, 'based', '/echo-headers');
    expect(based.url).toBe(`${fx.url}/echo-headers`);
    expect(await pageText(id, 'based')).toMatch(/x-ariadne-test\W+fresh-header/);
    const tab = await api.post(`/v1/sessions/${id}/roles/based/pages`, { url: '/env.html' });
    expect(tab.status, JSON.stringify(tab.body)).toBe(201);
    expect(tab.body.url).toBe(`${fx.url}/env.html`);

    // A tab opened later in a role keeps the role's viewport.
    const extra = await api.post(`/v1/sessions/${id}/roles/mobile/pages`, { url: `${fx.url}/env.html` });
    expect(extra.status).toBe(201);
    expect(await pageText(id, 'mobile', extra.body.id)).toContain('Viewport: 400x700');

    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    expect(await leased()).toBe(before);
  });

  it('adds a role to a live session, refuses a duplicate, removes a role', async () => {
    const id = await api.createSession({ roles: [{ name: 'admin' }] });
    const before = await leased();
    const added = await api.post(`/v1/sessions/${id}/roles`, { name: 'customer', viewport: { width: 1024, height: 768 } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.roles.map((r: any) => r.name)).toEqual(['admin', 'customer']);
    expect(await leased()).toBe(before + 1);
    await navigate(id, 'customer', `${fx.url}/env.html`);
    expect(await pageText(id, 'customer')).toContain('Viewport: 1024x768');

    const dup = await api.post(`/v1/sessions/${id}/roles`, { name: 'customer' });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('role_exists');
    expect(await leased()).toBe(before + 1);

    const removed = await api.delete(`/v1/sessions/${id}/roles/customer`);
    expect(removed.status).toBe(200);
    expect(removed.body.roles.map((r: any) => r.name)).toEqual(['admin']);
    expect(await leased()).toBe(before);
    const gone = await api.snapshot(id, '', 'customer');
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('role_not_found');
    expect((await api.get(`/v1/sessions/${id}`)).body.roles.map((r: any) => r.name)).toEqual(['admin']);

    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
  });

  it('exports a logged-in storage state that logs a new session in', async () => {
    const id = await api.createSession({ roles: [{ name: 'admin' }] });
    await login(id, 'admin', 'ada');
    const state = await api.get(`/v1/sessions/${id}/roles/admin/storage-state`);
    expect(state.status).toBe(200);
    const cookie = state.body.cookies.find((c: any) => c.name === 'session');
    expect(cookie).toMatchObject({ value: 'ada', httpOnly: true });
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);

    // Both lease paths: a warm context (storageState only) and a fresh one (with a userAgent).
    const next = await api.createSession({
      roles: [
        { name: 'warm', storageState: state.body },
        { name: 'fresh', storageState: state.body, userAgent: 'AriadneTest/2.0' },
        { name: 'anon' },
      ],
    });
    for (const role of ['warm', 'fresh']) {
      await navigate(next, role, `${fx.url}/account`);
      expect(await pageText(next, role)).toContain('Logged in as ada');
    }
    await navigate(next, 'anon', `${fx.url}/account`);
    expect(await pageText(next, 'anon')).toContain('Logged out');
    expect((await api.delete(`/v1/sessions/${next}`)).status).toBe(204);
  });
});

describe('tabs', () => {
  it('lists, opens, selects, targets with ?page= and closes tabs; the last tab stays', async () => {
    const id = await api.createSession();
    const base = `/v1/sessions/${id}/roles/default/pages`;
    const first = await api.get(base);
    expect(first.status).toBe(200);
    expect(first.body.pages).toHaveLength(1);
    const p1 = first.body.pages[0].id;
    expect(first.body.pages[0].active).toBe(true);
    await navigate(id, 'default', `${fx.url}/login.html`);

    const opened = await api.post(base, { url: `${fx.url}/products.html` });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const p2 = opened.body.id;
    expect(opened.body).toMatchObject({ url: `${fx.url}/products.html`, title: 'Products', active: true });
    expect(p2).not.toBe(p1);

    const listed = (await api.get(base)).body.pages;
    expect(listed.map((p: any) => [p.id, p.active])).toEqual([[p1, false], [p2, true]]);

    // No ?page=: the active tab. ?page=: that tab, whichever is active.
    expect(await pageText(id, 'default')).toContain('heading "Products"');
    expect(await pageText(id, 'default', p1)).toContain('heading "Welcome back"');

    const selected = await api.post(`${base}/${p1}/select`);
    expect(selected.status).toBe(200);
    expect(selected.body.pages.find((p: any) => p.active).id).toBe(p1);
    expect(await pageText(id, 'default')).toContain('heading "Welcome back"');

    // An action with ?page= acts on that tab only.
    await navigate(id, 'default', `${fx.url}/env.html`, p2);
    expect(await pageText(id, 'default', p2)).toContain('heading "Environment"');
    expect(await pageText(id, 'default', p1)).toContain('heading "Welcome back"');

    const unknown = await api.get(`/v1/sessions/${id}/roles/default/snapshot?page=p999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('page_not_found');

    expect((await api.delete(`${base}/${p1}`)).status).toBe(204);
    const after = (await api.get(base)).body.pages;
    expect(after.map((p: any) => p.id)).toEqual([p2]);
    expect(after[0].active).toBe(true);
    expect((await api.snapshot(id, `page=${p1}`)).body.error.code).toBe('page_not_found');

    const last = await api.delete(`${base}/${p2}`);
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('last_page');
    expect((await api.get(base)).body.pages).toHaveLength(1);
    expect((await api.delete(`${base}/p999`)).body.error.code).toBe('page_not_found');
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
  });

  it('shows popups (window.open and target=_blank) as tabs with their opener', async () => {
    const id = await api.createSession();
    const base = `/v1/sessions/${id}/roles/default/pages`;
    const p1 = (await api.get(base)).body.pages[0].id;
    await navigate(id, 'default', `${fx.url}/controls.html`);
    const snap = await pageText(id, 'default');

    const popup = await api.action(id, { action: 'click', ref: refOf(snap, 'button', 'Open popup') });
    expect(popup.status, JSON.stringify(popup.body)).toBe(200);
    const link = await api.action(id, { action: 'click', ref: refOf(snap, 'link', 'New tab link') });
    expect(link.status, JSON.stringify(link.body)).toBe(200);

    const pages = await waitUntil(async () => {
      const list = (await api.get(base)).body.pages as any[];
      return list.length === 3 && list.every((p) => p.url.endsWith('/products.html') || p.id === p1) ? list : null;
    }, 5000, 'two popups');
    const popups = pages.filter((p) => p.id !== p1);
    expect(popups).toHaveLength(2);
    for (const p of popups) expect(p.openerId).toBe(p1);
    // Opening a popup does not steal the active tab; each popup is usable by id.
    expect(pages.find((p) => p.active).id).toBe(p1);
    expect(await pageText(id, 'default', popups[0].id)).toContain('heading "Products"');
    expect((await api.delete(`${base}/${popups[1].id}`)).status).toBe(204);
    expect((await api.get(base)).body.pages).toHaveLength(2);
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
  });
});

describe('idle timeout and TTL', () => {
  it('expires idle sessions, expires at TTL even when used, and keeps a used session alive', async () => {
    const before = await leased();
    const idle = await api.createSession({ idleTimeoutSeconds: 2, roles: [{ name: 'a' }, { name: 'b' }] });
    // Measured before the request: the session's own clock starts later, never earlier.
    const created = Date.now();
    const ttl = await api.createSession({ ttlSeconds: 3 });
    // Created last, so the loop below starts using it at once.
    const kept = await api.createSession({ idleTimeoutSeconds: 2, ttlSeconds: 60 });
    const keptAt = Date.now();

    // Use `kept` and `ttl` every ~400 ms, well past both timeouts; leave `idle` alone.
    let ttlEnded: { at: number; body: any } | null = null;
    while (Date.now() - created < 4500 || Date.now() - keptAt < 3500) {
      const k = await api.get(`/v1/sessions/${kept}/roles/default/pages`);
      expect(k.status, `kept session after ${Date.now() - created} ms: ${JSON.stringify(k.body)}`).toBe(200);
      if (!ttlEnded) {
        const t = await api.get(`/v1/sessions/${ttl}/roles/default/pages`);
        if (t.status !== 200) ttlEnded = { at: Date.now() - created, body: t.body };
      }
      await new Promise((r) => setTimeout(r, 400));
    }
    expect(ttlEnded, 'the TTL session ended while in use').not.toBeNull();
    expect(ttlEnded!.at).toBeGreaterThanOrEqual(2900);
    expect(ttlEnded!.body.error.code).toBe('session_expired');
    expect(ttlEnded!.body.error.details.reason).toBe('ttl');

    const idleRes = await api.snapshot(idle, '', 'a');
    expect(idleRes.status).toBe(410);
    expect(idleRes.body.error.code).toBe('session_expired');
    expect(idleRes.body.error.details.reason).toBe('idle_timeout');
    expect((await api.get(`/v1/sessions/${idle}`)).body.error.code).toBe('session_expired');

    // Only `kept` still holds a context; the expired ones gave theirs back.
    expect(await leased()).toBe(before + 1);
    const list = (await api.get('/v1/sessions')).body.sessions.map((s: any) => s.id);
    expect(list).toContain(kept);
    expect(list).not.toContain(idle);
    expect(list).not.toContain(ttl);

    // Once left alone, `kept` idles out as well.
    await waitUntil(async () => (await api.get(`/v1/sessions/${kept}`)).status === 410, 4000, 'the kept session to idle out');
    expect(await leased()).toBe(before);
  });

  it('does not idle out a session while an action on it is still running', async () => {
    // 3 s idle, a 4.5 s action, a look 1 s after it: 2 s of margin for a loaded machine
    // (with 2 s idle the answer, a GET and the 1 s pause once took longer than the rest).
    const id = await api.createSession({ idleTimeoutSeconds: 3 });
    // One action longer than the idle timeout: the session is in use all along.
    const wait = await api.action(id, { action: 'wait_for', time: 4500 });
    expect(wait.status, JSON.stringify(wait.body)).toBe(200);
    const after = await api.get(`/v1/sessions/${id}`);
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    // ...and the idle clock restarts when the action ends, not when it began.
    await new Promise((r) => setTimeout(r, 1000));
    expect((await api.get(`/v1/sessions/${id}/roles/default/pages`)).status).toBe(200);
    await waitUntil(async () => (await api.get(`/v1/sessions/${id}`)).status === 410, 6000, 'the session to idle out');
  });
});
