import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// Refs in answers do not depend on how fast the page answers. A page (or a machine under
// load) that is slow to answer used to lose the refs of elements that were there: optional
// elements were looked up with a 500 ms budget (seen as docs examples that printed `refs=1+`
// and a selector click answered without its ref on a loaded CI machine).

let svc: TestService;
let fx: FixtureServer;
let id: string;
const base = () => `/v1/sessions/${id}/roles/default`;

/** Make the page janky: its main thread is busy 700 ms of every 800 ms, for ms (every call waits on it). */
async function jank(ms: number): Promise<void> {
  const state = (await svc.service.sessions.use('local', id)).role('default').page();
  await state.page.evaluate((total) => {
    const stop = Date.now() + total;
    const w = window as unknown as { __calm?: boolean };
    w.__calm = false;
    const busy = () => {
      if (Date.now() > stop || w.__calm) return;
      const end = Date.now() + 700;
      while (Date.now() < end);
      setTimeout(busy, 100);
    };
    setTimeout(busy, 0);
  }, ms);
}

/**
 * A starved service process, as on a loaded machine: its event loop is blocked 300 ms of every
 * 400 ms for ms. When it wakes, expired timers run before the answers that came meanwhile.
 */
function starve(ms: number): void {
  const stop = Date.now() + ms;
  const t = setInterval(() => {
    if (Date.now() > stop) return clearInterval(t);
    const end = Date.now() + 300;
    while (Date.now() < end);
  }, 100);
}

/** End the jank now. */
async function calm(): Promise<void> {
  const state = (await svc.service.sessions.use('local', id)).role('default').page();
  await state.page.evaluate(() => { (window as unknown as { __calm?: boolean }).__calm = true; });
}

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  id = await svc.api.createSession();
  expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/effects/choices.html` })).status).toBe(200);
});
afterAll(async () => {
  await svc?.api.delete(`/v1/sessions/${id}`);
  await svc?.stop();
  await fx?.close();
});

describe('refs from a page that is slow to answer', () => {
  it('a click by selector still names the ref it acted on', async () => {
    expect((await svc.api.get(`${base()}/snapshot?format=json`)).status).toBe(200);
    await jank(8000);
    starve(6000);
    const res = await svc.api.action(id, { action: 'click', selector: 'button.go >> nth=1' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.target.ref).toMatch(/^e\d+$/);
    await calm();
  });

  it('explore/container still counts the refs inside each ancestor', async () => {
    const snap = await svc.api.get(`${base()}/snapshot?format=text`);
    const ref = /button "[^"]*" \[(e\d+)\]/.exec(snap.body.snapshot)?.[1];
    expect(ref).toBeDefined();
    const fast = await svc.api.get(`${base()}/explore/container?ref=${ref}`);
    expect(fast.status).toBe(200);
    await jank(8000);
    starve(6000);
    const slow = await svc.api.get(`${base()}/explore/container?ref=${ref}`);
    expect(slow.status).toBe(200);
    await calm();
    const counts = (r: any) => r.body.ancestors.map((a: any) => a.containsRefs && `${a.containsRefs.count}${a.containsRefs.complete ? '' : '+'}`);
    expect(counts(slow)).toEqual(counts(fast));
  });
});
