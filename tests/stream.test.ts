import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type TestService } from './helpers/service.js';
import { waitUntil } from './helpers/process.js';
import { StreamClient } from './helpers/ws-client.js';

// The WebSocket session stream end to end: real clients, real Chromium.

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    // Events per second high enough that the 1,100-line console burst below reaches the buffer
    // whole however fast the machine delivers it (the rate limit has its own tests).
    startTestService({ STREAM_PING_INTERVAL_MS: '10000', STREAM_MESSAGES_PER_SECOND: '50', STREAM_EVENTS_PER_SECOND: '100000' }),
    startFixtureServer(),
  ]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function open(id: string, opts: { since?: number; token?: string } = {}): Promise<StreamClient> {
  const c = StreamClient.connect(svc.url, id, opts);
  await c.opened;
  await c.waitFor((m) => m.event === 'hello');
  return c;
}

describe('commands', () => {
  it('runs page ops over the socket with the same results and error codes as REST', async () => {
    const id = await svc.api.createSession();
    const c = await open(id);
    const nav = await c.call('action', { action: 'navigate', url: `${fx.url}/products.html` });
    expect(nav.result.url).toBe(`${fx.url}/products.html`);

    const snap = await c.call('snapshot', {});
    expect(snap.result.snapshot).toContain('heading "Products"');
    const ref = refOf(snap.result.snapshot, 'button', 'Add to Cart');

    // Same body as REST POST actions, same answer shape.
    const click = await c.call('action', { action: 'click', ref });
    expect(click.result).toMatchObject({ ok: true, target: { ref, resolvedBy: 'ref' } });
    const rest = await svc.api.snapshot(id, 'format=json&maxTokens=100000');
    expect(JSON.stringify(rest.body.snapshot)).toContain('Cart: 1 item');

    // Same error codes as REST.
    expect((await c.call('action', { action: 'click', ref: 'e9999' })).error.code).toBe('ref_not_found');
    expect((await c.call('action', { action: 'navigate', url: 'file:///etc/passwd' })).error.code).toBe('navigation_blocked');
    expect((await c.call('snapshot', { format: 'xml' })).error).toMatchObject({ code: 'invalid_request', details: { field: 'params.format' } });
    expect((await c.call('snapshot', {}, { role: 'nobody' })).error.code).toBe('role_not_found');
    expect((await c.call('snapshot', {}, { page: 'p99' })).error.code).toBe('page_not_found');

    // Binary results travel as base64.
    const shot = await c.call('screenshot', { format: 'png' });
    expect(Buffer.from(shot.result.base64, 'base64').subarray(1, 4).toString()).toBe('PNG');
    c.close();
  });

  it('answers every op it advertises (none is missing a handler)', async () => {
    const id = await svc.api.createSession();
    const c = await open(id);
    await c.call('action', { action: 'navigate', url: `${fx.url}/controls.html` });
    const hello = c.messages.find((m) => m.event === 'hello');
    const snap = await c.call('snapshot', {});
    const ref = refOf(snap.result.snapshot, 'button', 'Hover me');
    const net = await c.call('network', {});
    const argsFor: Record<string, unknown> = {
      subscribe: { events: ['console'] },
      unsubscribe: { events: ['console'] },
      action: { action: 'hover', ref },
      'network.request': { requestId: net.result.requests[0].id },
      'cookies.set': { cookies: [{ name: 'a', value: '1', url: fx.url }] },
      'screencast.start': { maxFps: 1 },
    };
    for (const op of hello.ops as string[]) {
      const reply = await c.call(op, argsFor[op] ?? (op.startsWith('explore') || op.startsWith('locators') || op.startsWith('inspect') ? { ref } : {}));
      // Each op answers: a result, or a structured client error (never an internal error).
      expect(reply.result !== undefined || (reply.error && reply.error.code !== 'internal_error'), `${op}: ${JSON.stringify(reply)}`).toBe(true);
    }
    c.close();
  });

  it('runs commands on one page in order, and different roles concurrently', async () => {
    const id = await svc.api.createSession({ roles: [{ name: 'a' }, { name: 'b' }] });
    const c = await open(id);
    await Promise.all([
      c.call('action', { action: 'navigate', url: `${fx.url}/controls.html` }, { role: 'a' }),
      c.call('action', { action: 'navigate', url: `${fx.url}/controls.html` }, { role: 'b' }),
    ]);
    const snap = await c.call('snapshot', {}, { role: 'a' });
    const notes = refOf(snap.result.snapshot, 'textbox', 'Notes');
    // Fired without waiting: a slow wait, then typing. On one page they must run in order.
    const done: string[] = [];
    const p1 = c.call('action', { action: 'wait_for', time: 1000 }, { role: 'a' }).then(() => done.push('a1'));
    const p2 = c.call('action', { action: 'type', ref: notes, text: 'first' }, { role: 'a' }).then(() => done.push('a2'));
    const p3 = c.call('action', { action: 'type', ref: notes, text: '-second', append: true }, { role: 'a' }).then(() => done.push('a3'));
    // Role b is not queued behind role a's one-second wait.
    const other = await c.call('action', { action: 'wait_for', time: 10 }, { role: 'b' });
    done.push('b');
    await Promise.all([p1, p2, p3]);
    expect(done).toEqual(['b', 'a1', 'a2', 'a3']);
    expect(other.result.ok).toBe(true);
    const after = await c.call('snapshot', { format: 'json', maxTokens: 100000 }, { role: 'a' });
    expect(JSON.stringify(after.result.snapshot)).toContain('first-second');
    c.close();
  });
});

describe('events', () => {
  it('pushes numbered events, filters by subscription, and resumes after a drop', async () => {
    const id = await svc.api.createSession();
    const c = await open(id);
    await c.call('action', { action: 'navigate', url: `${fx.url}/controls.html` });
    await c.waitFor((m) => m.event === 'load');
    await c.waitFor((m) => m.event === 'console' && m.data.text === 'controls ready');
    await c.waitFor((m) => m.event === 'console' && m.data.level === 'error');
    const seqs = c.events().map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);

    // Unsubscribed types stop arriving.
    await c.call('unsubscribe', { events: ['console'] });
    const before = c.events('console').length;
    const loaded = c.next((m) => m.event === 'load');
    await c.call('action', { action: 'reload' });
    await loaded;
    expect(c.events('console').length).toBe(before);
    const last = c.events().at(-1).seq;
    c.close();
    await c.closed;

    // While disconnected, things happen; a resume replays exactly what was missed.
    await svc.api.action(id, { action: 'navigate', url: `${fx.url}/products.html` });
    const r = await open(id, { since: last });
    const replayed = r.events();
    expect(replayed.length).toBeGreaterThan(0);
    expect(replayed[0].seq).toBe(last + 1);
    expect(replayed.some((e) => e.event === 'navigation' && e.data.url.endsWith('/products.html'))).toBe(true);
    expect(r.messages.some((m) => m.event === 'resume_gap')).toBe(false);
    r.close();
  });

  it('says so when the resume point is older than the buffer', async () => {
    const id = await svc.api.createSession();
    // 1,100 console events overflow the 1,000-event buffer.
    await svc.api.action(id, { action: 'navigate', url: `${fx.url}/console-flood.html?n=1100` });
    await expect.poll(async () => (await svc.api.get(`/v1/sessions/${id}/roles/default/console?limit=1`)).body.entries[0]?.text, { timeout: 10_000 }).toBe('flood 1099');
    const r = await open(id, { since: 1 });
    const gap = await r.waitFor((m) => m.event === 'resume_gap');
    expect(gap.missedFrom).toBe(2);
    await r.waitFor((m) => m.event === 'console' && m.data.text === 'flood 1099');
    const replayed = r.events();
    expect(replayed[0].seq).toBe(gap.oldestAvailable);
    expect(replayed.length).toBe(1000);
    expect(replayed.at(-1).seq - replayed[0].seq).toBe(999);
    r.close();
  });

  it('lets several clients watch one session; only commands change the page', async () => {
    const id = await svc.api.createSession();
    const clients = await Promise.all(Array.from({ length: 5 }, () => open(id)));
    await clients[0].call('action', { action: 'navigate', url: `${fx.url}/products.html` });
    for (const c of clients) await c.waitFor((m) => m.event === 'navigation' && m.data.url.endsWith('/products.html'));
    const seqs = clients.map((c) => c.events('navigation').at(-1).seq);
    expect(new Set(seqs).size).toBe(1);
    for (const c of clients) c.close();
  });
});

describe('screencast', () => {
  it('sends JPEG frames of the watched tab and drops frames for a slow reader', async () => {
    const id = await svc.api.createSession();
    const fast = await open(id);
    const slow = await open(id);
    expect((await fast.call('screencast.start', { maxFps: 30, quality: 100 })).result.maxFps).toBe(30);
    expect((await slow.call('screencast.start', { maxFps: 30, quality: 100 })).result.page).toBe('p1');
    // The slow reader stops reading from its socket.
    (slow.ws as any)._socket.pause();
    // A page that repaints every frame for 4 s.
    await fast.call('action', { action: 'navigate', url: `${fx.url}/animated.html?ms=4000` });
    const frame = await fast.waitFor((m) => m.event === 'frame');
    expect(Buffer.from(frame.data, 'base64').subarray(0, 2).toString('hex')).toBe('ffd8');
    await new Promise((r) => setTimeout(r, 4000));
    const fastStats = (await fast.call('screencast.stats')).result['default/p1'];
    // (Frame rate depends on machine load: a few frames prove the stream flows; the
    // comparison with the paused reader below is the point.)
    expect(fastStats.sent).toBeGreaterThan(2);
    (slow.ws as any)._socket.resume();
    const slowStats = (await slow.call('screencast.stats')).result['default/p1'];
    // Frames were dropped for the paused client rather than buffered without bound.
    expect(slowStats.dropped).toBeGreaterThan(0);
    expect(slowStats.sent).toBeLessThan(fastStats.sent);
    expect((await fast.call('screencast.stop')).result.stopped).toEqual(['default/p1']);
    fast.close();
    slow.close();
  });

  it('sends a capped watcher the last frame of a burst, when its window ends', async () => {
    // The browser sends no frame while a page stays still, so a frame dropped for the cap at
    // the end of a burst left a live view on an old picture for good (seen as a stuck live
    // view under load). Both watchers must end on the same, last frame.
    const id = await svc.api.createSession();
    const fast = await open(id);
    const slow = await open(id);
    await fast.call('screencast.start', { maxFps: 30 });
    await slow.call('screencast.start', { maxFps: 1 });
    // About 600 ms of fresh noise every frame, then still: the burst ends inside slow's 1 s window.
    await fast.call('action', { action: 'navigate', url: `${fx.url}/animated.html?ms=600` });
    await fast.waitFor((m) => m.event === 'frame');
    await new Promise((r) => setTimeout(r, 2500)); // the burst, and slow's window after it
    const lastFrame = (c: StreamClient) => c.messages.filter((m) => m.event === 'frame').at(-1);
    expect(fast.messages.filter((m) => m.event === 'frame').length).toBeGreaterThan(2);
    await waitUntil(() => {
      const [f, s] = [lastFrame(fast), lastFrame(slow)];
      return f && s && f.data === s.data;
    }, 10_000, 'both watchers to show the same last frame');
    const slowStats = (await slow.call('screencast.stats')).result['default/p1'];
    expect(slowStats.dropped).toBeGreaterThan(0); // the cap still holds
    fast.close();
    slow.close();
  });

  it('caps the frame rate per client', async () => {
    const id = await svc.api.createSession();
    const c = await open(id);
    await c.call('screencast.start', { maxFps: 2 });
    await c.call('action', { action: 'navigate', url: `${fx.url}/animated.html?ms=2500` });
    await new Promise((r) => setTimeout(r, 2500));
    const stats = (await c.call('screencast.stats')).result['default/p1'];
    // 2.5 s at 2 fps: at most ~6 frames however many the browser produced.
    expect(stats.sent).toBeLessThanOrEqual(7);
    expect(stats.dropped).toBeGreaterThan(0);
    expect((await c.call('screencast.start', { maxFps: 1000 })).error.code).toBe('invalid_request');
    c.close();
  });
});

describe('robustness', () => {
  it('answers bad messages with errors and keeps the connection usable; floods are rate-limited', async () => {
    const id = await svc.api.createSession();
    const c = await open(id);
    c.send('not json');
    c.send(JSON.stringify([1, 2]));
    c.send(JSON.stringify({ op: 'snapshot' }));
    c.send(JSON.stringify({ id: 7 }));
    c.send(Buffer.alloc(10, 1));
    const errors = await Promise.all([
      c.waitFor((m) => m.error?.message?.includes('not valid JSON')),
      c.waitFor((m) => m.error?.message?.includes('JSON object')),
      c.waitFor((m) => m.error?.details?.field === 'id'),
      c.waitFor((m) => m.id === 7 && m.error?.details?.field === 'op'),
    ]);
    for (const e of errors) expect(e.error.code).toBe('invalid_request');
    expect((await c.call('nope')).error.code).toBe('invalid_request');
    expect((await c.call('action', { action: 'click', bogus: 1 })).error.details.field).toBe('params.bogus');
    // Oversized: over the body limit, under the protocol limit → an error reply, not a close.
    c.send(JSON.stringify({ id: 99, op: 'ping', params: { pad: 'x'.repeat(11 * 1024 * 1024) } }));
    const big = await c.waitFor((m) => m.error?.code === 'payload_too_large');
    expect(big.id).toBeNull();
    // A flood: 500 messages at once with a limit of 50/s.
    for (let i = 0; i < 500; i++) c.send('garbage');
    await c.waitFor((m) => m.error?.code === 'rate_limited');
    const rateErrors = c.messages.filter((m) => m.error?.code === 'rate_limited').length;
    expect(rateErrors).toBeLessThan(50); // rate-limit replies are themselves capped
    await new Promise((r) => setTimeout(r, 2100));
    expect((await c.call('ping')).result.pong).toBeGreaterThan(0);
    c.close();
    expect((await c.closed).code).toBe(1005);
  });

  it('keeps a watched session from idling out, and lets it expire once unwatched', async () => {
    const id = await svc.api.createSession({ idleTimeoutSeconds: 2 });
    const c = await open(id);
    await new Promise((r) => setTimeout(r, 3500));
    expect((await svc.api.get(`/v1/sessions/${id}`)).status).toBe(200);
    c.close();
    await c.closed;
    await expect.poll(async () => (await svc.api.get(`/v1/sessions/${id}`)).body.error?.code, { timeout: 8000 }).toBe('session_expired');
  });

  it('closes a client that stops answering pings (4000), not the session', async () => {
    const quick = await startTestService({ STREAM_PING_INTERVAL_MS: '300' });
    try {
      const id = await quick.api.createSession();
      const c = StreamClient.connect(quick.url, id);
      await c.waitFor((m) => m.event === 'hello');
      (c.ws as any)._socket.pause(); // reads nothing, so answers no ping
      const started = Date.now();
      // The close frame is only read once the client reads again.
      await new Promise((r) => setTimeout(r, 1500));
      (c.ws as any)._socket.resume();
      expect((await c.closed).code).toBe(4000);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect((await quick.api.get(`/v1/sessions/${id}`)).status).toBe(200);
    } finally {
      await quick.stop();
    }
  });
});

describe('close codes', () => {
  it('closes with 4410 when the session is deleted, 4408 when it expires, 4404 when unknown', async () => {
    const a = await svc.api.createSession();
    const ca = await open(a);
    await svc.api.delete(`/v1/sessions/${a}`);
    await ca.waitFor((m) => m.event === 'session_closed');
    expect(await ca.closed).toEqual({ code: 4410, reason: 'session_deleted' });

    // (A TTL long enough that a loaded machine still opens the stream before it ends.)
    const b = await svc.api.createSession({ ttlSeconds: 5 });
    // From the start: the expiry warning may be published before a loaded machine opens the stream.
    const cb = await open(b, { since: 0 });
    expect(await cb.closed).toEqual({ code: 4408, reason: 'session_expired' });
    expect(cb.events('session_closed')[0].data).toMatchObject({ status: 'expired', reason: 'ttl' });
    expect(cb.events('session_expiring').length).toBeGreaterThan(0);

    const unknown = StreamClient.connect(svc.url, '00000000-0000-0000-0000-000000000000');
    expect(await unknown.closed).toEqual({ code: 4404, reason: 'session_not_found' });
    // An ended session answers with its end, not "not found".
    const again = StreamClient.connect(svc.url, a);
    expect((await again.closed).code).toBe(4410);
  });

  it('closes with 4500 when the browser crashes', async () => {
    const id = await svc.api.createSession();
    const c = await open(id);
    const pool = await svc.api.get('/v1/pool');
    const pids = pool.body.browsers.map((b: any) => b.pid).filter(Boolean);
    expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) process.kill(pid, 'SIGKILL');
    expect(await c.closed).toEqual({ code: 4500, reason: 'session_crashed' });
    // The pool replaces the browser; new sessions work.
    await expect.poll(async () => (await svc.api.get('/v1/pool')).body.browsers.filter((b: any) => b.connected).length, { timeout: 15_000 }).toBeGreaterThan(0);
    const fresh = await svc.api.createSession();
    expect((await svc.api.snapshot(fresh)).status).toBe(200);
  });

  it('refuses the upgrade with HTTP 401 without a valid key, and closes with 1001 when the server shuts down', async () => {
    const keyed = await startTestService({ API_KEYS: 'key-aaaaaaaaaaaaaaaa:tenant-a,key-bbbbbbbbbbbbbbbb:tenant-b' });
    try {
      const api = keyed.api.withToken('key-aaaaaaaaaaaaaaaa');
      const id = await api.createSession();
      // No key: the upgrade is answered 401 before any socket exists (no close code).
      const none = StreamClient.connect(keyed.url, id);
      const refused = await new Promise<number>((resolve) => {
        none.ws.on('unexpected-response', (req, res) => { resolve(res.statusCode ?? 0); req.destroy(); });
        none.ws.on('open', () => resolve(101));
      });
      expect(refused).toBe(401);
      // Another tenant's session is "not found", exactly like a missing one.
      const other = StreamClient.connect(keyed.url, id, { token: 'key-bbbbbbbbbbbbbbbb' });
      expect((await other.closed).code).toBe(4404);
      const ok = StreamClient.connect(keyed.url, id, { headers: { authorization: 'Bearer key-aaaaaaaaaaaaaaaa' } });
      await ok.waitFor((m) => m.event === 'hello');
      await keyed.stop();
      expect(await ok.closed).toEqual({ code: 1001, reason: 'server_shutting_down' });
    } finally {
      await keyed.stop();
    }
  });
});

describe('live view', () => {
  it('shows the screencast, the events and the snapshot of a session as it is driven', async () => {
    const id = await svc.api.createSession();
    await svc.api.action(id, { action: 'navigate', url: `${fx.url}/login.html` });
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const viewer = await browser.newPage();
      const res = await viewer.goto(`${svc.url}/v1/sessions/${id}/live`);
      expect(res?.headers()['content-type']).toContain('text/html');
      await viewer.waitForFunction(() => document.getElementById('status')?.textContent === 'live');
      await viewer.waitForFunction(() => Number((document.getElementById('frame') as HTMLImageElement).dataset.frames ?? 0) > 0);
      await viewer.waitForFunction(() => document.getElementById('snapshot')?.textContent?.includes('Welcome back'));

      // Drive the session through the API: the viewer follows. (Frames are counted before
      // the navigation: a page that stops changing produces no more frames.)
      const framesBefore = Number(await viewer.locator('#frame').getAttribute('data-frames'));
      await svc.api.action(id, { action: 'navigate', url: `${fx.url}/products.html` });
      await viewer.waitForFunction(() => [...document.querySelectorAll('#events li')].some((li) => li.textContent!.includes('navigation') && li.textContent!.includes('products.html')));
      await viewer.waitForFunction(() => document.getElementById('snapshot')?.textContent?.includes('Add to Cart'), undefined, { timeout: 10_000 });
      await viewer.waitForFunction((n) => Number((document.getElementById('frame') as HTMLImageElement).dataset.frames) > n, framesBefore, { timeout: 10_000 });
      const src = await viewer.locator('#frame').getAttribute('src');
      expect(src).toMatch(/^data:image\/jpeg;base64,/);
      // The tab list names the tab by the page it shows now, not the one it was opened on.
      await viewer.waitForFunction(() => /products/i.test(document.querySelector('#page option:checked')?.textContent ?? ''), undefined, { timeout: 10_000 });

      // Deleting the session closes the viewer's stream with the documented code.
      await svc.api.delete(`/v1/sessions/${id}`);
      await viewer.waitForFunction(() => document.body.dataset.closed === '4410');
    } finally {
      await browser.close();
    }
    expect((await svc.api.get(`/v1/sessions/${id}/live`)).status).toBe(410);
  });
});
