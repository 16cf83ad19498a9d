import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directSnapshotStats, indexRefs, surfacePublicTree } from '@ariadne/page';
import { openTab, startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// Issue 12 §3: the snapshot calls Playwright's injected script directly over the frame's CDP
// session (packages/page/src/snapshot/direct.ts). It leans on playwright-core internals, so
// these tests pin what must hold: on this version the direct path is the one taken; it gives
// the tree Playwright's public call gives, refs included; its refs resolve with `aria-ref=`;
// pages with frames take the public path; a hung page times out and a dialog that opens
// mid-call is reported, not waited out.

let svc: TestService;
let fixtures: FixtureServer;

beforeAll(async () => {
  [svc, fixtures] = await Promise.all([startTestService(), startFixtureServer()]);
});

afterAll(async () => {
  await svc?.stop();
  await fixtures?.close();
});

const tab = (page: string, navigate?: Record<string, unknown>) => openTab(svc, `${fixtures.url}/${page}`, navigate);

function counted<T>(fn: () => Promise<T>): Promise<{ value: T; direct: number; fallback: number }> {
  const d0 = directSnapshotStats.direct;
  const f0 = directSnapshotStats.fallback;
  return fn().then((value) => ({ value, direct: directSnapshotStats.direct - d0, fallback: directSnapshotStats.fallback - f0 }));
}

// Varied markup: a shop app, a wide list, ARIA widgets, web components with shadow roots,
// unnamed controls, a framework-style page with generated ids.
const PAGES = ['app/products.html', 'wide-catalogue.html', 'controls.html', 'loc-webcomponents.html', 'targeting.html', 'loc-framework-ids.html'];

describe('direct snapshot path', () => {
  it.each(PAGES)('%s: takes the direct path and gives the public call\'s tree, refs included', async (page) => {
    const { id, state } = await tab(page);
    // Some pages render from a fetch after load: compare once two public snapshots agree.
    let prev: unknown = null;
    for (let i = 0; i < 50; i++) {
      const t = JSON.stringify(await state.page.ariaSnapshotJSON({ mode: 'ai' }));
      if (t === prev) break;
      prev = t;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { value, direct, fallback } = await counted(() => state.snapshot(10_000));
    expect({ direct, fallback }).toEqual({ direct: 1, fallback: 0 });
    // Both paths run the surface pass (issue 24) on Playwright's tree: the public one per frame.
    const publicTree = await surfacePublicTree(state.page, await state.page.ariaSnapshotJSON({ mode: 'ai' }));
    expect(value.current.tree).toEqual(publicTree);
    expect(indexRefs(value.current.tree).size).toBeGreaterThan(3);
    await svc.api.delete(`/v1/sessions/${id}`);
  });

  it('refs it hands out resolve with aria-ref, new ones included after the page changes', async () => {
    const { id, state } = await tab('app/products.html');
    await state.snapshot(10_000);
    // Add elements the injected script has never given a ref: only a snapshot that updated its
    // ref map (the one aria-ref= reads) makes them resolvable.
    await state.page.evaluate(() => {
      for (const label of ['Fresh one', 'Fresh two']) {
        const b = document.createElement('button');
        b.textContent = label;
        b.onclick = () => { b.textContent = `${label} clicked`; };
        document.body.append(b);
      }
    });
    const { value, direct } = await counted(() => state.snapshot(10_000));
    expect(direct).toBe(1);
    const refs = indexRefs(value.current.tree);
    for (const [ref] of refs) expect(await state.page.locator(`aria-ref=${ref}`).count(), ref).toBe(1);
    const fresh = [...refs].find(([, n]) => n.role === 'button' && n.name === 'Fresh two');
    expect(fresh).toBeDefined();
    const res = await svc.api.action(id, { action: 'click', ref: fresh![0] });
    expect(res.status).toBe(200);
    expect(await state.page.getByRole('button', { name: 'Fresh two clicked' }).count()).toBe(1);
    await svc.api.delete(`/v1/sessions/${id}`);
  });

  it('the surface module\'s text is sent once per document, not with every snapshot', async () => {
    const { id, state } = await tab('weak/webmail.html');
    await state.snapshot(10_000);
    const sent = () => directSnapshotStats.moduleSent;
    const before = sent();
    for (let i = 0; i < 3; i++) {
      const snap = await state.snapshot(10_000);
      // The pass still runs on the compiled module: the webmail's icon buttons keep their names.
      expect(JSON.stringify(snap.current.tree)).toContain('inferredName');
    }
    expect(sent() - before).toBe(0);
    // A new document has no module: the next snapshot sends it, once.
    await state.page.reload();
    await state.snapshot(10_000);
    await state.snapshot(10_000);
    expect(sent() - before).toBe(1);
    await svc.api.delete(`/v1/sessions/${id}`);
  });

  it('a page with a frame takes the public path, and the frame\'s content is in the tree', async () => {
    const { id, state } = await tab('frames.html');
    const { value, direct, fallback } = await counted(() => state.snapshot(10_000));
    expect({ direct, fallback }).toEqual({ direct: 0, fallback: 1 });
    expect([...indexRefs(value.current.tree).keys()].some((r) => /^f\d+e\d+$/.test(r))).toBe(true);
    await svc.api.delete(`/v1/sessions/${id}`);
  });

  it('a page that never answers times out within the budget; another page keeps working', async () => {
    const bystander = await tab('app/products.html');
    // The loop starts 300 ms after load; the navigation asks for no settle wait and no
    // snapshot, so it answers before that.
    const { id, state } = await tab('hostile-busy-loop.html?after=300', { settle: 'none', snapshot: 'none' });
    await new Promise((r) => setTimeout(r, 800));
    const t0 = Date.now();
    const err = await state.snapshot(800).then(() => null, (e: Error) => e);
    expect(err?.name).toBe('TimeoutError');
    expect(Date.now() - t0).toBeLessThan(2500);
    const { value, direct } = await counted(() => bystander.state.snapshot(10_000));
    expect(direct).toBe(1);
    expect(indexRefs(value.current.tree).size).toBeGreaterThan(3);
    expect((await svc.api.get('/healthz')).status).toBe(200);
    for (const s of [id, bystander.id]) await svc.api.delete(`/v1/sessions/${s}`);
  });

  it('a navigation whose page hangs right after load still answers: the title read is bounded', async () => {
    // The loop starts as soon as load has fired: the answer's title read would wait for ever
    // (it used to turn a finished navigation into a 35 s operation_timeout).
    const id = await svc.api.createSession();
    const t0 = Date.now();
    const nav = await svc.api.action(id, { action: 'navigate', url: `${fixtures.url}/hostile-busy-loop.html?after=0`, settle: 'none', snapshot: 'none' });
    expect(nav.status, JSON.stringify(nav.body)).toBe(200);
    expect(Date.now() - t0).toBeLessThan(15_000);
    expect((await svc.api.get('/healthz')).status).toBe(200);
    await svc.api.delete(`/v1/sessions/${id}`);
  });

  it('a dialog that opens while snapshots are in flight is reported as dialog_pending, not waited out', async () => {
    const { id, state } = await tab('app/products.html');
    // The page's main thread is held for 300 ms and then shows an alert: snapshots sent during
    // the hold are answered only after the dialog is handled.
    await state.page.evaluate(() => setTimeout(() => { const end = Date.now() + 300; while (Date.now() < end); alert('mid-call'); }, 50));
    const t0 = Date.now();
    const results = await Promise.all([0, 60, 120, 180].map((delay) => new Promise((r) => setTimeout(r, delay))
      .then(() => state.snapshot(8_000)).then(() => 'snapshot', (e: { code?: string; name?: string }) => e.code ?? e.name)));
    const took = Date.now() - t0;
    expect(results).toContain('dialog_pending');
    for (const r of results) expect(['snapshot', 'dialog_pending']).toContain(r);
    expect(took).toBeLessThan(4_000);
    expect((await svc.api.action(id, { action: 'handle_dialog', accept: false })).status).toBe(200);
    // Every call's dialog subscription was released, aborted or not.
    for (let i = 0; i < 20; i++) await state.snapshot(8_000);
    expect((state as unknown as { dialogWatchers: Set<unknown> }).dialogWatchers.size).toBe(0);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});
