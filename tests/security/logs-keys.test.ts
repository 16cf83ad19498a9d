import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/service.js';
import { fullUpgrade, rawRequest } from './attack.js';

// Issue 27, item 3: an API key reaches no log line, whatever name (or no name) it is sent
// under. The review sent the tenant's real key as ?api-key=, ?apiToken=, ?access-token=,
// ?client_secret=, ?x-api-key=, ?bearer=, ?q= and a bare ?<key>; each got its 401 and was
// logged as is. Keys are now redacted by value (configured keys, anywhere in a line) and
// by shape (any query value that looks like a key or token).

const KEY = 'c0ffee4b1d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e';
// Not a configured key: someone else's token, redacted by its shape.
const FOREIGN = 'ghp_Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0Fe';

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ API_KEYS: `${KEY}:tenant-a` }, { captureLogs: true });
});
afterAll(async () => {
  await svc?.stop();
});

const logText = async () => {
  await new Promise((r) => setTimeout(r, 150));
  return svc.logs.join('');
};

describe('item 3: keys are redacted by value and by shape in every log line', () => {
  it('refuses keys sent in query strings under any name, and logs none of them', async () => {
    const enc = encodeURIComponent(KEY);
    const paths = [
      `/v1/sessions?api-key=${KEY}`, `/v1/sessions?apiToken=${KEY}`, `/v1/sessions?access-token=${KEY}`,
      `/v1/sessions?client_secret=${KEY}`, `/v1/sessions?x-api-key=${KEY}`, `/v1/sessions?bearer=${KEY}`,
      `/v1/sessions?q=${KEY}`, `/v1/sessions?${KEY}`, `/v1/sessions?format=text&${enc}`, `/v1/${KEY}/sessions`,
      `/v1/sessions?q=${FOREIGN}`, `/v1/sessions?${FOREIGN}`, `/v1/sessions?note=prefix-${KEY}-suffix`,
    ];
    for (const p of paths) {
      const res = await rawRequest(svc.url, 'GET', p);
      expect(res.status, p).toBe(401);
    }
    // A refused WebSocket upgrade carrying the key under another name.
    const ws = await rawRequest(svc.url, 'GET', `/v1/sessions/nope/stream?key_id=${KEY}`, fullUpgrade());
    expect(ws.upgraded).toBe(false);
    // The key in a header the service does not read.
    expect((await rawRequest(svc.url, 'GET', '/v1/sessions', { 'x-api-key': KEY })).status).toBe(401);

    const logs = await logText();
    // Every request was logged (one line each), and none holds the key or the token.
    const lines = svc.logs.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request');
    expect(lines.length).toBeGreaterThanOrEqual(paths.length + 2);
    expect(logs).not.toContain(KEY);
    expect(logs).not.toContain(KEY.slice(0, 24));
    expect(logs).not.toContain(FOREIGN);
    expect(logs).toContain('[redacted]');
    // What stays: the route and the harmless parameters.
    expect(lines.some((l) => l.url === '/v1/sessions?format=text&[redacted]')).toBe(true);
    expect(lines.some((l) => l.url === '/v1/sessions?q=[redacted]')).toBe(true);
  });

  it('keeps the parameters of ordinary requests readable', async () => {
    const res = await rawRequest(svc.url, 'GET', '/v1/sessions/s1/roles/default/snapshot?format=text&maxTokens=500&page=p2', { authorization: `Bearer ${KEY}` });
    expect(res.status).toBe(404);
    await logText();
    const line = svc.logs.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.url?.includes('/snapshot'));
    expect(line.url).toBe('/v1/sessions/s1/roles/default/snapshot?format=text&maxTokens=500&page=p2');
  });
});
