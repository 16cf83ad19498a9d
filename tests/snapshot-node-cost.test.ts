import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TITLE_REUSE_MS } from '@ariadne/page';
import { startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// Issue 12 §3: less Node per snapshot. A page polled while nothing changes does not pay a
// title round trip per snapshot (the title read with the previous, identical snapshot is
// served again for at most TITLE_REUSE_MS), any change reads it again; and a request
// writes one log line at the default level, not Fastify's two.

let svc: TestService;
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  svc = await startTestService({ LOG_LEVEL: 'info' }, { captureLogs: true });
});

afterAll(async () => {
  await svc?.stop();
  await fixtures?.close();
});

/** The tab behind a session's default role, with a counter on page.title(). */
async function countedTab(id: string) {
  const state = (await svc.service.sessions.use('local', id)).role('default').page();
  const original = state.page.title.bind(state.page);
  const counter = { reads: 0 };
  state.page.title = async () => {
    counter.reads++;
    return original();
  };
  return { state, counter };
}

describe('snapshot title reads', () => {
  it('reads the title once while the page stays the same, and again on a change or after TITLE_REUSE_MS', async () => {
    const id = await svc.api.createSession();
    expect((await svc.api.action(id, { action: 'navigate', url: `${fixtures.url}/index.html` })).status).toBe(200);
    const { state, counter } = await countedTab(id);
    await state.page.evaluate(() => { document.title = 'First title'; });

    const first = await svc.api.snapshot(id);
    expect(first.status).toBe(200);
    expect(first.body.title).toBe('First title');
    expect(counter.reads).toBe(1);
    for (let i = 0; i < 3; i++) {
      const again = await svc.api.snapshot(id);
      expect(again.body.title).toBe('First title');
      expect(again.body.snapshot).toBe(first.body.snapshot);
    }
    expect(counter.reads).toBe(1);

    // The page changes (a node and the title): the next snapshot reads the title again.
    await state.page.evaluate(() => {
      document.title = 'Second title';
      const h = document.createElement('h2');
      h.textContent = 'Something new';
      document.body.append(h);
    });
    const changed = await svc.api.snapshot(id);
    expect(changed.body.snapshot).toContain('Something new');
    expect(changed.body.title).toBe('Second title');
    expect(counter.reads).toBe(2);

    // A title-only change shows within TITLE_REUSE_MS, without any other change.
    await state.page.evaluate(() => { document.title = 'Third title'; });
    await new Promise((r) => setTimeout(r, TITLE_REUSE_MS + 100));
    expect((await svc.api.snapshot(id)).body.title).toBe('Third title');
    expect(counter.reads).toBe(3);

    // A new document always reads it.
    expect((await svc.api.action(id, { action: 'navigate', url: `${fixtures.url}/login.html` })).status).toBe(200);
    const readsBefore = counter.reads;
    const other = await svc.api.snapshot(id);
    expect(other.body.title).toBe(await state.page.title());
    expect(counter.reads).toBeGreaterThan(readsBefore);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('action title reads', () => {
  it('reads the title once for an action that asks for a snapshot (the snapshot brings it)', async () => {
    const id = await svc.api.createSession();
    expect((await svc.api.action(id, { action: 'navigate', url: `${fixtures.url}/index.html` })).status).toBe(200);
    const { state, counter } = await countedTab(id);
    await state.page.evaluate(() => {
      const b = document.createElement('button');
      b.textContent = 'Grow';
      b.onclick = () => { document.title = 'Grown'; const p = document.createElement('p'); p.textContent = 'Grew'; document.body.append(p); };
      document.body.append(b);
    });
    const snap = await svc.api.snapshot(id);
    const ref = /button "Grow" \[ref=(\w+)\]/.exec(snap.body.snapshot)![1];
    const before = counter.reads;
    const click = await svc.api.action(id, { action: 'click', ref, snapshot: 'diff', settle: 'none' });
    expect(click.status, JSON.stringify(click.body)).toBe(200);
    expect(click.body.title).toBe('Grown');
    expect(click.body.snapshot.title).toBe('Grown');
    expect(click.body.snapshot.diff.added.length, JSON.stringify(click.body.snapshot.diff)).toBeGreaterThan(0);
    expect(counter.reads - before).toBe(1);
    // Without a snapshot, the action reads it itself.
    const plain = await svc.api.action(id, { action: 'click', ref, settle: 'none' });
    expect(plain.body.title).toBe('Grown');
    expect(counter.reads - before).toBe(2);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('request log lines', () => {
  it('writes one line per request at the default level, with method, redacted URL, status, duration, tenant and request id', async () => {
    const id = await svc.api.createSession();
    expect((await svc.api.action(id, { action: 'navigate', url: `${fixtures.url}/index.html` })).status).toBe(200);
    await new Promise((r) => setTimeout(r, 100));
    const start = svc.logs.length;
    const res = await svc.api.snapshot(id, 'maxTokens=2000&token=QUERY-S3CRET');
    expect(res.status).toBe(200);
    const missing = await svc.api.get('/v1/sessions/nope');
    expect(missing.status).toBe(404);
    await new Promise((r) => setTimeout(r, 100));
    const lines = svc.logs.slice(start).map((l) => JSON.parse(l));
    const reqId = res.headers.get('x-request-id');
    const mine = lines.filter((l) => l.reqId === reqId);
    expect(mine, JSON.stringify(lines)).toHaveLength(1);
    expect(mine[0]).toMatchObject({ level: 30, msg: 'request', method: 'GET', status: 200, tenant: 'local' });
    expect(mine[0].url).toBe(`/v1/sessions/${id}/roles/default/snapshot?maxTokens=2000&token=[redacted]`);
    expect(typeof mine[0].ms).toBe('number');
    const notFound = lines.filter((l) => l.reqId === missing.headers.get('x-request-id'));
    expect(notFound.filter((l) => l.msg === 'request')).toHaveLength(1);
    expect(notFound.find((l) => l.msg === 'request').status).toBe(404);
    expect(JSON.stringify(lines)).not.toContain('QUERY-S3CRET');
    expect(lines.some((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toBe(false);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});
