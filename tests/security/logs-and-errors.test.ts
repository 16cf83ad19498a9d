import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refOf, startTestService, type TestService } from '../helpers/service.js';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { StreamClient } from '../helpers/ws-client.js';

// Issue 10, items 10 and 13: what a careless tenant types or navigates to never lands
// in a log line (nor in an error body), and an internal fault answers 500
// internal_error with the request id, its text logged but never returned.

const KEY = 'logs-key-aaaaaaaaaaaaaaaa';

let svc: TestService;
let fixtures: FixtureServer;

beforeAll(async () => {
  fixtures = await startFixtureServer();
  svc = await startTestService({ API_KEYS: `${KEY}:tenant-a`, ACTION_TIMEOUT_MS: '1500' }, { captureLogs: true });
});

afterAll(async () => {
  await svc?.stop();
  await fixtures?.close();
});

const api = () => svc.api.withToken(KEY);
const logText = async () => {
  await new Promise((r) => setTimeout(r, 100));
  return svc.logs.join('');
};

describe('item 10: logs never hold typed values, URL user-info or query values', () => {
  it('keeps fill/type values out of logs and error bodies when the action times out', async () => {
    const id = await api().createSession();
    expect((await api().action(id, { action: 'navigate', url: `${fixtures.url}/security/form.html` })).status).toBe(200);
    const snap = (await api().snapshot(id)).body.snapshot as string;
    const password = refOf(snap, 'textbox', 'Password');
    const note = refOf(snap, 'textbox', 'Note');
    const SECRET = 'Hunter2-typed-S3CRET';
    const MULTILINE = 'first-line-S3CRET\nsecond-line-S3CRET';
    const fill = await api().action(id, { action: 'fill', ref: password, value: SECRET });
    expect(fill.status).toBe(504);
    expect(fill.body.error.code).toBe('timeout');
    const typed = await api().action(id, { action: 'type', ref: note, text: MULTILINE });
    expect(typed.status).toBeGreaterThanOrEqual(400);
    // The stream carries the same errors, redacted the same way.
    const ws = StreamClient.connect(svc.url, id, { token: KEY });
    await ws.waitFor((m) => m.event === 'hello');
    const viaWs = await ws.call('action', { action: 'fill', ref: password, value: SECRET });
    expect(viaWs.error.code).toBe('timeout');
    ws.close();
    for (const body of [fill.body, typed.body, viaWs]) {
      const text = JSON.stringify(body);
      expect(text).not.toContain('S3CRET');
    }
    // What the error still says: the action timed out, and where.
    expect(fill.body.error.message).toMatch(/Timeout 1500ms exceeded/);
    const logs = await logText();
    expect(logs).toMatch(/timeout|Timeout/);
    expect(logs).not.toContain('S3CRET');
    await api().delete(`/v1/sessions/${id}`);
  });

  it('strips user-info and query values from URLs in navigation_failed errors and logs', async () => {
    const id = await api().createSession();
    const url = 'http://alice:PW-S3CRET-1@127.0.0.1:9/private/path?session=QS-S3CRET-2&x=1#frag-S3CRET-3';
    const nav = await api().action(id, { action: 'navigate', url });
    expect(nav.status).toBe(502);
    expect(nav.body.error.code).toBe('navigation_failed');
    const body = JSON.stringify(nav.body);
    // Still useful: host, port and path are there.
    expect(body).toContain('127.0.0.1:9/private/path');
    for (const secret of ['PW-S3CRET-1', 'QS-S3CRET-2', 'alice:', 'frag-S3CRET-3']) expect(body).not.toContain(secret);
    const logs = await logText();
    expect(logs).toContain('navigation_failed');
    for (const secret of ['PW-S3CRET-1', 'QS-S3CRET-2', 'frag-S3CRET-3']) expect(logs).not.toContain(secret);
    await api().delete(`/v1/sessions/${id}`);
  });
});

describe('item 13: internal faults never leak their text', () => {
  it('answers 500 internal_error with the request id (REST and WebSocket) and logs the fault', async () => {
    const id = await api().createSession();
    // A hostile page: a DOM nested 3,000 deep overflows the injected accessibility walker.
    expect((await api().action(id, { action: 'navigate', url: `${fixtures.url}/security/deep.html` })).status).toBe(200);
    const res = await api().snapshot(id);
    expect(res.status).toBe(500);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toBeTruthy();
    expect(res.body).toEqual({ error: { code: 'internal_error', message: expect.stringContaining(requestId!), details: { requestId } } });
    const text = JSON.stringify(res.body);
    expect(text).not.toMatch(/RangeError|TypeError|Maximum call stack|at \w+ \(|<anonymous>/);
    // The fault itself is in the log, under that request id.
    const logs = await logText();
    const line = svc.logs.map((l) => JSON.parse(l)).find((l) => l.reqId === requestId && l.level >= 50);
    expect(line, logs.slice(-2000)).toBeTruthy();
    expect(JSON.stringify(line)).toMatch(/RangeError|Maximum call stack/);
    // Same over the WebSocket: no text, a request id to quote.
    const ws = StreamClient.connect(svc.url, id, { token: KEY });
    await ws.waitFor((m) => m.event === 'hello');
    const reply = await ws.call('snapshot', {});
    expect(reply.error.code).toBe('internal_error');
    expect(JSON.stringify(reply)).not.toMatch(/RangeError|Maximum call stack|<anonymous>/);
    ws.close();
    // The service is fine: a normal page still snapshots.
    expect((await api().action(id, { action: 'navigate', url: `${fixtures.url}/index.html` })).status).toBe(200);
    expect((await api().snapshot(id)).status).toBe(200);
    await api().delete(`/v1/sessions/${id}`);
  });
});
