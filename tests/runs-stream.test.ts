import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// Streaming a run: the WebSocket and its SSE twin push step events live and replay
// what happened before the client connected (from seq 1, from ?since=, from
// Last-Event-ID), and both end after run_finished.

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ API_KEYS: 'stream-test-key-0123456789:acme' }), startFixtureServer()]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const KEY = 'stream-test-key-0123456789';
const api = () => svc.api.withToken(KEY);

const PLAN = [
  '#Case 1: browse',
  '- Go to /app/products.html',
  '- Wait 1500 ms',
  '- Click "Add to cart" in the "Blue Mug" card',
  '- Verify "Added Blue Mug to the cart" is visible',
  '#Case 2: cart',
  '- Click "Cart (1)"',
  '- Verify "Total: $12.00" is visible',
].join('\n');

function collectWs(url: string): { events: any[]; closed: Promise<{ code: number; reason: string }>; firstAt: Promise<number> } {
  const ws = new WebSocket(url);
  const events: any[] = [];
  let first!: (t: number) => void;
  const firstAt = new Promise<number>((r) => (first = r));
  ws.on('message', (d) => {
    events.push(JSON.parse(d.toString()));
    if (events.length === 1) first(Date.now());
  });
  const closed = new Promise<{ code: number; reason: string }>((r) => ws.on('close', (code, reason) => r({ code, reason: reason.toString() })));
  return { events, closed, firstAt };
}

async function readSse(url: string, headers: Record<string, string> = {}): Promise<{ events: any[]; ids: number[]; names: string[] }> {
  const res = await fetch(url, { headers: { authorization: `Bearer ${KEY}`, ...headers } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  const text = await res.text(); // the stream ends after run_finished
  const blocks = text.split('\n\n').filter((b) => b.includes('data: '));
  const parsed = blocks.map((b) => Object.fromEntries(b.split('\n').map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)])));
  return { events: parsed.map((p) => JSON.parse(p.data)), ids: parsed.map((p) => Number(p.id)), names: parsed.map((p) => p.event) };
}

describe('run streams', () => {
  it('streams live over WebSocket and replays the past over SSE, in the same order', async () => {
    const res = await api().post('/v1/runs', { url: `${fx.url}/app/login.html`, plan: PLAN });
    expect(res.status).toBe(202);
    const id = res.body.id;
    const wsUrl = `${svc.url.replace(/^http/, 'ws')}/v1/runs/${id}/stream?token=${KEY}`;
    const live = collectWs(wsUrl);
    const { code, reason } = await live.closed;
    expect([code, reason]).toEqual([1000, 'run_finished']);
    // Whoever heard run_finished reads the run as finished: the event goes out after the record is saved.
    const rec = await api().get(`/v1/runs/${id}`);
    expect([rec.body.status, typeof rec.body.finishedAt]).toEqual(['passed', 'string']);
    const types = live.events.map((e) => e.type);
    expect(types[0]).toBe('run_queued');
    expect(types).toContain('run_started');
    expect(types.at(-1)).toBe('run_finished');
    expect(live.events.at(-1).status).toBe('passed');
    expect(live.events.map((e) => e.seq)).toEqual(live.events.map((_, i) => i + 1));
    const steps = live.events.filter((e) => e.type === 'step');
    expect(steps.map((s) => s.step.action)).toEqual(['navigate', 'wait_for', 'click', 'assert', 'click', 'assert']);
    // Live: step events arrived while the run was going, not all at once at the end.
    const startedAt = live.events.find((e) => e.type === 'run_started').time;
    const finishedAt = live.events.at(-1).time;
    expect(Date.parse(finishedAt) - Date.parse(startedAt)).toBeGreaterThan(1500);

    // After the fact, SSE replays everything, then ends.
    const sse = await readSse(`${svc.url}/v1/runs/${id}/events`);
    expect(sse.events).toEqual(live.events);
    expect(sse.names).toEqual(types);
    expect(sse.ids).toEqual(live.events.map((e) => e.seq));
    // Resume from Last-Event-ID, or ?since=.
    const resumed = await readSse(`${svc.url}/v1/runs/${id}/events`, { 'last-event-id': '5' });
    expect(resumed.ids[0]).toBe(6);
    expect(resumed.events).toEqual(live.events.slice(5));
    const since = collectWs(`${wsUrl}&since=${live.events.length - 2}`);
    await since.closed;
    expect(since.events.map((e) => e.seq)).toEqual([live.events.length - 1, live.events.length]);
  });

  it('a client that connects mid-run gets the past, then the rest live', async () => {
    const res = await api().post('/v1/runs', { url: `${fx.url}/app/login.html`, plan: PLAN });
    const id = res.body.id;
    // Wait until the run has produced a step, then connect.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const r = await api().get(`/v1/runs/${id}`);
      if (r.body.report?.totals || r.body.status === 'running') break;
      if (Date.now() > deadline) throw new Error('run did not start');
      await new Promise((r2) => setTimeout(r2, 100));
    }
    const sseP = readSse(`${svc.url}/v1/runs/${id}/events`);
    const sse = await sseP;
    expect(sse.events[0].type).toBe('run_queued');
    expect(sse.events.at(-1)).toMatchObject({ type: 'run_finished', status: 'passed' });
    expect(sse.ids).toEqual(sse.events.map((_, i) => i + 1));
  });

  it('refuses unknown runs and missing keys', async () => {
    const r = await fetch(`${svc.url}/v1/runs/nope/events`, { headers: { authorization: `Bearer ${KEY}` } });
    expect(r.status).toBe(404);
    expect((await r.json()).error.code).toBe('run_not_found');
    expect((await fetch(`${svc.url}/v1/runs/nope/events`)).status).toBe(401);
    const ws = collectWs(`${svc.url.replace(/^http/, 'ws')}/v1/runs/nope/stream?token=${KEY}`);
    expect((await ws.closed).code).toBe(4404);
    // No key: the upgrade is refused with HTTP 401 before any socket exists.
    const anon = new WebSocket(`${svc.url.replace(/^http/, 'ws')}/v1/runs/nope/stream`);
    const refused = await new Promise<number>((resolve) => {
      anon.on('unexpected-response', (req, res) => { resolve(res.statusCode ?? 0); req.destroy(); });
      anon.on('open', () => resolve(101));
    });
    expect(refused).toBe(401);
  });
});
