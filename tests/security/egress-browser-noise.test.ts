import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from '../helpers/fixture-server.js';
import { startTestService, type TestService } from '../helpers/service.js';
import { StreamClient } from '../helpers/ws-client.js';

// The browser's own background traffic must not show up as the page's: Chromium asks Google's
// autofill server about every form it sees (content-autofill.googleapis.com), the egress proxy
// refuses it, and each session's stream then carried egress_denied events nobody's page caused
// (seen in the live view). The pool launches Chromium with that feature off.

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

describe('browser background traffic', () => {
  it('a page with a form causes no egress_denied event of its own browser', async () => {
    const id = await svc.api.createSession();
    expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/login.html` })).status).toBe(200);
    const snap = await svc.api.get(`/v1/sessions/${id}/roles/default/snapshot?format=json`);
    expect(snap.status).toBe(200);
    // Autofill asks when a form is parsed and again on interaction: give it time to.
    const field = JSON.stringify(snap.body.snapshot).match(/"role":"textbox"[^}]*"ref":"(e\d+)"/);
    if (field) await svc.api.action(id, { action: 'fill', ref: field[1], value: 'someone' });
    await new Promise((r) => setTimeout(r, 3000));
    const c = StreamClient.connect(svc.url, id, { since: 0 });
    await c.opened;
    await c.waitFor((m) => m.event === 'hello');
    await new Promise((r) => setTimeout(r, 300));
    const denied = c.messages.filter((m) => m.event === 'egress_denied').map((m) => m.data?.host);
    c.close();
    await svc.api.delete(`/v1/sessions/${id}`);
    expect(denied).toEqual([]);
  });
});
