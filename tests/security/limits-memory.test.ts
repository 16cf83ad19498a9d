import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { StreamClient } from '../helpers/ws-client.js';
import { waitUntil } from '../helpers/process.js';

// Issue 10, item 4: one page must not grow the server without bound. A page logging 1 KB
// console lines without end grew the server from 191 MB to 1,872 MB in 80 s: Playwright
// kept every console argument's handle, the stream pushed every event into every socket
// whether the client read or not. Now: logs and the event buffer are bounded in bytes,
// floods become counted `dropped` markers, and a client that does not read is cut off
// (4008 slow_consumer). The RSS figure itself is measured by bench/console-flood.mjs.

// The flood of the issue: 2,000 lines of 1 KB every 10 ms tick.
const FLOOD = 'console-flood.html?n=2000&size=1024&every=10&initial=0';

let fx: FixtureServer;
let svc: TestService;

beforeAll(async () => {
  fx = await startFixtureServer();
  svc = await startTestService({
    STREAM_MAX_BUFFERED_BYTES: String(256 * 1024),
    STREAM_SLOW_CONSUMER_MS: '2000',
    STREAM_EVENTS_PER_SECOND: '200',
    // The stalled client answers no ping while paused: at the default 20 s interval it is
    // closed for two missed pings (4000, cut 2 s later) once a loaded run has spent 40 s
    // before it reads again (seen: 1006 instead of 4008). Sends still check the backlog.
    STREAM_PING_INTERVAL_MS: '120000',
  }, 180_000);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

/** Playwright client objects (handles, requests, ...) alive in the service process. */
function playwrightObjects(): number {
  const s = svc.service.sessions.liveSessions()[0];
  const page = s?.role('default').page().page as unknown as { _connection?: { _objects?: Map<string, unknown> } };
  return page?._connection?._objects?.size ?? 0;
}

describe('a console flood', () => {
  it('is bounded: logs in bytes, a counted dropped marker, slow stream clients cut off, no handle pile-up', async () => {
    const api = svc.api;
    const id = await api.createSession();
    const reader = StreamClient.connect(svc.url, id);
    const stalled = StreamClient.connect(svc.url, id);
    await Promise.all([reader.opened, stalled.opened]);
    await stalled.waitFor((m) => m.event === 'hello');
    // The stalled client stops reading: the server's send queue for it fills up.
    (stalled.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();

    const nav = await api.action(id, { action: 'navigate', url: `${fx.url}/${FLOOD}`, settle: 'none', snapshot: 'none' });
    expect(nav.status, JSON.stringify(nav.body)).toBe(200);
    const objectsAtStart = playwrightObjects();

    // The reading client is told that events were left out, and why.
    const types = () => JSON.stringify(reader.messages.reduce((o: any, m: any) => ({ ...o, [m.event ?? 'reply']: (o[m.event ?? 'reply'] ?? 0) + 1 }), {}));
    const dropped = await waitUntil(() => reader.messages.find((m) => m.event === 'dropped'), 30_000, `a dropped event (got ${types()})`, 200).catch((err) => {
      throw new Error(`${err.message}; at the end: ${types()}; pauses ${svc.service.sessions.liveSessions()[0]?.role('default').page().consolePauses}`);
    });
    expect(['rate', 'console_flood']).toContain(dropped.data.reason);
    expect(typeof dropped.seq).toBe('number');

    // The flood is cut where it starts, with counts: the page's console is rate-limited and
    // says how many messages it dropped (a marker it logs every second, with the running
    // total); each pause of the capture is counted on the tab (`paused`) and told on the
    // stream. The tab keeps the totals (`paused.droppedInPage`): the markers themselves are
    // soon pushed out of the byte-bounded log by the flood, and a marker logged while the
    // capture is paused is not recorded, so on a loaded machine a poll can miss every one.
    const counted = await waitUntil(async () => {
      const c = await api.get(`/v1/sessions/${id}/roles/default/console?limit=1000`);
      return c.status === 200 && c.body.paused?.pauses > 0 && c.body.paused.droppedInPage > 1000 ? c.body.paused : null;
    }, 60_000, 'the counted dropped markers', 500);
    await waitUntil(() => reader.messages.find((m) => m.event === 'dropped' && m.data?.reason === 'console_flood'), 30_000, 'the console pause on the stream', 200);
    expect(counted.pausedMs).toBeGreaterThan(0);
    // The tab answers while the page floods (before: queued behind the flood for minutes).
    const snap = await api.snapshot(id);
    expect(snap.status, JSON.stringify(snap.body).slice(0, 300)).toBe(200);

    // The console log is bounded in bytes (1 KB lines: fewer than its 1,000 entries fit).
    const log = await waitUntil(async () => {
      const c = await api.get(`/v1/sessions/${id}/roles/default/console?limit=1000`);
      return c.status === 200 && c.body.dropped > 0 ? c : null;
    }, 60_000, 'the console log to reach its byte cap', 500);
    const bytes = log.body.entries.reduce((n: number, e: any) => n + e.text.length, 0);
    expect(bytes).toBeLessThanOrEqual(512 * 1024);
    expect(log.body.entries.length).toBeLessThan(1000);

    // Console handles are released as they come: no pile-up. Before the fix every console
    // argument's handle was kept, tens of thousands within seconds. Releases are
    // asynchronous, and the arguments of messages already on their way when the capture
    // pauses are never seen by a listener (left over under heavy load: 435 and 2,820 in two
    // runs), so the test asks for a bounded count that no longer grows.
    const a = playwrightObjects() - objectsAtStart;
    await new Promise((r) => setTimeout(r, 5000));
    const b = playwrightObjects() - objectsAtStart;
    expect(b, `Playwright objects: ${a} then ${b} more than at the start`).toBeLessThan(10_000);
    expect(b, `Playwright objects: ${a} then ${b} more than at the start`).toBeLessThanOrEqual(a + 500);

    // The client that stopped reading (and keeps asking for big replies) is cut off; reading
    // again, it finds the close frame.
    for (let i = 0; i < 40; i++) stalled.send(JSON.stringify({ id: `big-${i}`, op: 'console', params: { limit: 1000 } }));
    await new Promise((r) => setTimeout(r, 3000));
    (stalled.ws as unknown as { _socket: { resume(): void } })._socket.resume();
    const closed = await Promise.race([stalled.closed, new Promise<null>((r) => setTimeout(() => r(null), 15_000))]);
    expect(closed).toEqual({ code: 4008, reason: 'slow_consumer' });

    // The reader is still served, the server answers, and DELETE ends it all.
    const health = await api.get('/healthz');
    expect(health.status).toBe(200);
    reader.close();
    expect((await api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    await waitUntil(() => { const s = svc.service.pool.stats(); return s.warming === 0 && s.leased === 0 && s.contexts === s.warm; }, 15_000, 'no leaked context');
  }, 180_000);
});
