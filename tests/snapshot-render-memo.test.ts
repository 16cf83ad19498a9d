import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotView, type SnapshotViewOptions } from '@ariadne/page';
import { openTab, startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// Issue 12 §3: a page polled while nothing changes is not rendered again. The render of
// the previous, deep-equal tree is served for the same options (ref, offset, depth,
// format, budget); the answer is the one a fresh render gives, and any change of the page
// is rendered anew.

let svc: TestService;
let fixtures: FixtureServer;

beforeAll(async () => {
  [svc, fixtures] = await Promise.all([startTestService(), startFixtureServer()]);
});

afterAll(async () => {
  await svc?.stop();
  await fixtures?.close();
});

const tab = (page: string) => openTab(svc, `${fixtures.url}/${page}`);

/** A view without the fields that differ from one snapshot to the next. */
function comparable(v: Awaited<ReturnType<typeof snapshotView>>): unknown {
  const { snapshotId: _id, ...rest } = v;
  return JSON.parse(JSON.stringify(rest));
}

describe('render memo for an unchanged page', () => {
  it('serves the same answers as fresh renders, for every kind of view, and renders a changed page anew', async () => {
    const { id, state } = await tab('wide-catalogue.html');
    const base: SnapshotViewOptions = { timeoutMs: 10_000 };
    const first = await snapshotView(state, base);
    const list = /list "Products" \[ref=(e\d+)\]/.exec(first.snapshot as string)![1];
    const variants: Omit<SnapshotViewOptions, 'timeoutMs'>[] = [
      {},
      { format: 'json' },
      { format: 'text' },
      { maxTokens: 400 },
      { maxTokens: 20_000 },
      { depth: 2 },
      { ref: list },
      { ref: list, offset: 899 },
      { ref: list, offset: 899, format: 'json', maxTokens: 1000 },
      { offset: 1 },
    ];
    // Fresh: each variant's first answer comes from a state whose memo it cannot hit (a
    // new tab on the same page, one view per snapshot of it, cycling through more option
    // sets than the memo keeps).
    const fresh = new Map<number, unknown>();
    const other = await tab('wide-catalogue.html');
    for (let i = 0; i < variants.length; i++) fresh.set(i, comparable(await snapshotView(other.state, { ...base, ...variants[i] })));
    // Polled: every variant twice in a row on the first tab (the second is served from the
    // memo; the first, after another variant, too when the memo still holds it).
    for (const i of variants.keys()) {
      const a = await snapshotView(state, { ...base, ...variants[i] });
      const b = await snapshotView(state, { ...base, ...variants[i] });
      expect(comparable(a), JSON.stringify(variants[i])).toEqual(fresh.get(i));
      expect(comparable(b), JSON.stringify(variants[i])).toEqual(fresh.get(i));
      expect(b.snapshotId).not.toBe(a.snapshotId);
    }

    // The second of two polls of an unchanged page is the memoized render itself.
    const j1 = await snapshotView(state, { ...base, format: 'json' });
    const j2 = await snapshotView(state, { ...base, format: 'json' });
    expect(j2.snapshot).toBe(j1.snapshot);

    // A change is rendered anew, and the memo follows the new tree.
    const button = /button "Add to cart" \[ref=(e\d+)\]/.exec(first.snapshot as string)![1];
    expect((await svc.api.action(id, { action: 'click', ref: button })).status).toBe(200);
    const after = await snapshotView(state, { ...base, format: 'json' });
    expect(after.snapshot).not.toBe(j2.snapshot);
    expect(JSON.stringify(after.snapshot)).toContain('Cart (1)');
    expect(JSON.stringify(j2.snapshot)).not.toContain('Cart (1)');
    const again = await snapshotView(state, { ...base, format: 'json' });
    expect(again.snapshot).toBe(after.snapshot);
    const yaml = await snapshotView(state, base);
    expect(yaml.snapshot).toContain('link "Cart (1)"');

    await svc.api.delete(`/v1/sessions/${id}`);
    await svc.api.delete(`/v1/sessions/${other.id}`);
  });
});
