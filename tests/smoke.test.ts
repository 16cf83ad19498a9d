import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type TestService } from './helpers/service.js';

// The README walk-through, end to end: create a session, navigate, snapshot, click a ref.

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

describe('walk-through', () => {
  it('creates a session, navigates, snapshots and clicks a ref', async () => {
    const id = await svc.api.createSession();
    const nav = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/products.html` });
    expect(nav.status).toBe(200);
    expect(nav.body.url).toBe(`${fx.url}/products.html`);

    const snap = await svc.api.snapshot(id);
    expect(snap.status).toBe(200);
    expect(snap.body.snapshot).toContain('heading "Products"');
    const ref = refOf(snap.body.snapshot, 'button', 'Add to Cart');

    const click = await svc.api.action(id, { action: 'click', ref, snapshot: 'diff' });
    expect(click.status).toBe(200);
    expect(click.body.target).toEqual({ ref, resolvedBy: 'ref' });
    const changed = click.body.snapshot.diff.changed.map((c: any) => JSON.stringify(c.after));
    expect(changed.join('\n')).toContain('Cart: 1 item (last: iPhone 15 Pro)');

    expect((await svc.api.delete(`/v1/sessions/${id}`)).status).toBe(204);
    expect((await svc.api.get(`/v1/sessions/${id}`)).body.error.code).toBe('session_closed');
  });
});
