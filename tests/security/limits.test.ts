import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { StreamClient } from '../helpers/ws-client.js';
import { fullUpgrade, rawRequest } from './attack.js';

// Issue 10, item 11: a stalled request is cut off (headers and body timeouts), a
// session takes at most STREAM_MAX_PER_SESSION WebSockets (one more is refused before
// the upgrade), and every WebSocket command gets an answer carrying its id, floods too.

const KEY = 'limits-key-aaaaaaaaaaaaaaaa';
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({
    API_KEYS: `${KEY}:tenant-a`,
    REQUEST_TIMEOUT_MS: '2000',
    HEADERS_TIMEOUT_MS: '1000',
    STREAM_MAX_PER_SESSION: '2',
    STREAM_MESSAGES_PER_SECOND: '20',
  });
});

afterAll(async () => {
  await svc?.stop();
});

const api = () => svc.api.withToken(KEY);

/** Send raw bytes and never finish; resolve with what the server said and when it hung up. */
function stall(payload: string, waitMs: number): Promise<{ closedAfterMs: number | null; answer: string }> {
  const url = new URL(svc.url);
  return new Promise((resolve) => {
    const started = Date.now();
    let answer = '';
    const socket = net.connect(Number(url.port), url.hostname, () => socket.write(payload));
    socket.on('data', (d) => { answer += d.toString(); });
    const timer = setTimeout(() => { socket.destroy(); resolve({ closedAfterMs: null, answer }); }, waitMs);
    socket.on('close', () => { clearTimeout(timer); resolve({ closedAfterMs: Date.now() - started, answer }); });
    socket.on('error', () => {});
  });
}

describe('item 11: nothing stays open for minutes, no command goes unanswered', () => {
  it('cuts off a stalled body and stalled headers', async () => {
    const [body, headers] = await Promise.all([
      stall(`POST /v1/sessions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${KEY}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"roles":`, 9000),
      stall('GET /v1/sessions HTTP/1.1\r\nHost: x\r\nX-Slow: ', 9000),
    ]);
    expect(body.closedAfterMs, 'stalled body still open').not.toBeNull();
    expect(body.closedAfterMs!).toBeLessThan(5000);
    expect(body.answer).toMatch(/^HTTP\/1\.1 408/);
    expect(headers.closedAfterMs, 'stalled headers still open').not.toBeNull();
    expect(headers.closedAfterMs!).toBeLessThan(5000);
    // Nothing half-made was kept.
    expect(svc.service.sessions.liveCount).toBe(0);
    // A request sent in full may take longer than REQUEST_TIMEOUT_MS to answer.
    const id = await api().createSession();
    const started = Date.now();
    const slow = await api().action(id, { action: 'wait_for', time: 3000 });
    expect(slow.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
    await api().delete(`/v1/sessions/${id}`);
  });

  it('refuses one WebSocket more than STREAM_MAX_PER_SESSION before the upgrade, and frees the slot on close', async () => {
    const id = await api().createSession();
    const a = StreamClient.connect(svc.url, id, { token: KEY });
    const b = StreamClient.connect(svc.url, id, { token: KEY });
    await a.waitFor((m) => m.event === 'hello');
    await b.waitFor((m) => m.event === 'hello');
    const third = await rawRequest(svc.url, 'GET', `/v1/sessions/${id}/stream`, { ...fullUpgrade(), authorization: `Bearer ${KEY}` });
    expect(third.upgraded).toBe(false);
    expect(third.status).toBe(429);
    expect(third.json.error.code).toBe('too_many_streams');
    expect(third.json.error.details).toMatchObject({ limit: 2 });
    // REST on the session is not affected.
    expect((await api().get(`/v1/sessions/${id}`)).status).toBe(200);
    a.close();
    await a.closed;
    await expect.poll(async () => {
      const c = StreamClient.connect(svc.url, id, { token: KEY });
      c.ws.on('error', () => {});
      const ok = await Promise.race([c.waitFor((m) => m.event === 'hello', 3000).then(() => true, () => false), c.closed.then(() => false)]);
      c.close();
      return ok;
    }, { timeout: 10_000 }).toBe(true);
    b.close();
    await api().delete(`/v1/sessions/${id}`);
  });

  it('answers every command of a 1,000-command burst, rate_limited ones with their own id', async () => {
    const id = await api().createSession();
    const c = StreamClient.connect(svc.url, id, { token: KEY });
    await c.waitFor((m) => m.event === 'hello');
    const N = 1000;
    for (let i = 1; i <= N; i++) c.send(JSON.stringify({ id: `cmd-${i}`, op: 'ping' }));
    const replies = () => c.messages.filter((m) => m.seq === undefined && m.event === undefined);
    await expect.poll(() => replies().length, { timeout: 20_000 }).toBeGreaterThanOrEqual(N);
    const all = replies();
    expect(all.filter((m) => m.id === null || m.id === undefined)).toEqual([]);
    const ids = all.map((m) => m.id);
    expect(new Set(ids).size).toBe(N);
    for (let i = 1; i <= N; i++) expect(ids).toContain(`cmd-${i}`);
    const limited = all.filter((m) => m.error?.code === 'rate_limited');
    const served = all.filter((m) => m.result?.pong);
    expect(limited.length).toBeGreaterThan(0);
    expect(served.length).toBeGreaterThan(0);
    expect(limited.length + served.length).toBe(N);
    expect(limited[0].error.details.retryAfterMs).toBeGreaterThan(0);
    // The connection is still usable once the burst has passed.
    await new Promise((r) => setTimeout(r, 1200));
    expect((await c.call('ping')).result.pong).toBeGreaterThan(0);
    c.close();
    await api().delete(`/v1/sessions/${id}`);
  });
});
