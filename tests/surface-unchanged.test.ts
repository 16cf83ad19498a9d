import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { directSnapshotJSON, indexRefs, normalizeTree, refsForElements, renderSnapshot, surfaceStats } from '@ariadne/page';
import { SURFACE_OUT, bundleSurface, renderSurfaceModule } from '../packages/page/scripts/build-bridge.mjs';
import { openTab, startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// Issue 24, cost: on a well-labelled page the surface pass changes nothing — the tree (so every
// format's tokens and every ref) is Playwright's own, exactly as the old path gives it (the
// pass switched off). On a weak page the same comparison shows the pass at work (so this test
// cannot pass by the pass doing nothing). Also: refsForElements (seams §1), and the committed
// in-page bundle is fresh.

let svc: TestService;
let fixtures: FixtureServer;

beforeAll(async () => {
  [svc, fixtures] = await Promise.all([startTestService(), startFixtureServer()]);
});

afterAll(async () => {
  await svc?.stop();
  await fixtures?.close();
});

const WELL_LABELLED = ['products.html', 'app/products.html', 'app/cart.html', 'targeting.html', 'wide-catalogue.html', 'switches-aria.html'];

describe('well-labelled pages are unchanged', () => {
  it.each(WELL_LABELLED)('%s: same tree, same refs, same yaml/text/json as without the pass', async (page) => {
    const { id, state } = await openTab(svc, `${fixtures.url}/${page}`);
    const errors = surfaceStats.errors;
    // Pages that render after load: wait until two snapshots agree.
    let prev = '';
    for (let i = 0; i < 40; i++) {
      const t = JSON.stringify(await directSnapshotJSON(state.page, 10_000, undefined, { surface: false }));
      if (t === prev) break;
      prev = t;
      await new Promise((r) => setTimeout(r, 100));
    }
    const old = normalizeTree(await directSnapshotJSON(state.page, 10_000, undefined, { surface: false }));
    const now = (await state.snapshot(10_000)).current.tree;
    expect(now).toEqual(old);
    expect([...indexRefs(now).keys()]).toEqual([...indexRefs(old).keys()]);
    for (const format of ['yaml', 'text', 'json'] as const) {
      const a = renderSnapshot(old, { format, maxChars: 1_000_000 }).output;
      const b = renderSnapshot(now, { format, maxChars: 1_000_000 }).output;
      expect(b).toEqual(a);
    }
    // The REST answer is the same text.
    const rest = await svc.api.snapshot(id, 'format=yaml&maxTokens=200000');
    expect(rest.body.snapshot).toBe(renderSnapshot(old, { format: 'yaml', maxChars: 1_000_000 }).output);
    expect(surfaceStats.errors).toBe(errors);
    await svc.api.delete(`/v1/sessions/${id}`);
  });

  it('the same comparison on a weak page shows the pass at work', async () => {
    const { id, state } = await openTab(svc, `${fixtures.url}/weak/webmail.html`);
    const old = normalizeTree(await directSnapshotJSON(state.page, 10_000, undefined, { surface: false }));
    const now = (await state.snapshot(10_000)).current.tree;
    expect(now).not.toEqual(old);
    // Every ref the old tree had is still there, with more beside them.
    const before = [...indexRefs(old).keys()];
    const after = new Set(indexRefs(now).keys());
    for (const r of before) expect(after.has(r), r).toBe(true);
    expect(after.size).toBeGreaterThan(before.length);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('refsForElements', () => {
  it('answers the ref an element shows in the snapshot, registers one for an element without, and null for none', async () => {
    const { id, state } = await openTab(svc, `${fixtures.url}/weak/prose.html`);
    const yaml = (await svc.api.snapshot(id)).body.snapshot as string;
    const terms = /- generic \[clickable\] \[ref=((?:f\d+)?e\d+)\] \[cursor=pointer\]: terms/.exec(yaml)![1];
    const heading = /- heading "Before you go on" \[level=1\] \[ref=((?:f\d+)?e\d+)\]/.exec(yaml)![1];
    const plain = state.page.locator('span', { hasText: 'not clickable' });
    const [t, h, p, missing] = await refsForElements(state, [
      await state.page.$('#terms') as never,
      state.page.locator('h1'),
      plain,
      state.page.locator('#nothing-here'),
    ], { timeoutMs: 3000 });
    expect(t).toBe(terms);
    expect(h).toBe(heading);
    expect(missing).toBeNull();
    // The plain span had no ref: it gets one that resolves, and keeps it.
    expect(p).toMatch(/^(?:f\d+)?e\d+$/);
    expect(await state.page.locator(`aria-ref=${p}`).textContent()).toBe('not clickable');
    const [again] = await refsForElements(state, [plain], { timeoutMs: 3000 });
    expect(again).toBe(p);
    // assign: false leaves an element without a ref unanswered.
    const [none] = await refsForElements(state, [state.page.locator('script').first()], { assign: false, timeoutMs: 3000 });
    expect(none).toBeNull();
    await svc.api.delete(`/v1/sessions/${id}`);
  });

  it('reads refs inside an iframe from that frame\'s map', async () => {
    const { id, state } = await openTab(svc, `${fixtures.url}/weak/framed.html`);
    const yaml = (await svc.api.snapshot(id, 'maxTokens=40000')).body.snapshot as string;
    const trash = [...yaml.matchAll(/- generic "trash" \[inferred=class\] \[ref=(f\d+e\d+)\]/g)].map((m) => m[1]);
    const mail = state.page.frames().find((f) => f.url().endsWith('webmail.html'))!;
    const refs = await refsForElements(state, [mail.locator('.trash').nth(2)], { timeoutMs: 3000 });
    expect(refs).toEqual([trash[2]]);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('in-page bundle', () => {
  it('the committed surface bundle matches its source', async () => {
    expect(readFileSync(SURFACE_OUT, 'utf8')).toBe(renderSurfaceModule(await bundleSurface()));
  });
});
