import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type TestService } from './helpers/service.js';

// Snapshot budgets and views on a large page (tests/fixtures/big-grid.html, ~4,000
// elements): the response stays within maxTokens, says what it left out with exact
// counts, and every collapsed entry can be zoomed into by ref. Also depth, the json and
// text formats, diffs, and refs that views must not break.

let svc: TestService;
let fx: FixtureServer;
const opened: string[] = [];

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((id) => svc.api.delete(`/v1/sessions/${id}`)));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

type Node = { role: string; name?: string; ref?: string; text?: string; children?: (Node | string)[]; collapsed?: { nodes: number; refs: number }; folded?: { children: number; nodes: number; refs: number; offset: number }; [k: string]: unknown };

async function open(page: string): Promise<string> {
  const id = await svc.api.createSession();
  opened.push(id);
  const res = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/${page}` });
  expect(res.status).toBe(200);
  return id;
}

/** GET snapshot, keeping the raw body so its real size can be measured. */
async function snap(id: string, query = ''): Promise<{ status: number; raw: string; body: any }> {
  const res = await fetch(`${svc.url}/v1/sessions/${id}/roles/default/snapshot${query ? `?${query}` : ''}`);
  const raw = await res.text();
  return { status: res.status, raw, body: JSON.parse(raw) };
}

/** Nodes and refs shown in a JSON view: a collapsed marker is one node, its insides are not shown. */
function countShown(nodes: (Node | string)[]): { nodes: number; refs: number } {
  let n = 0;
  let r = 0;
  for (const x of nodes) {
    n++;
    if (typeof x === 'string') continue;
    if (x.ref) r++;
    if (x.children) {
      const c = countShown(x.children);
      n += c.nodes;
      r += c.refs;
    }
  }
  return { nodes: n, refs: r };
}

function maxDepth(nodes: (Node | string)[], depth = 0): number {
  let m = depth;
  for (const x of nodes) if (typeof x === 'object' && x.children) m = Math.max(m, maxDepth(x.children, depth + 1));
  return m;
}

function findRef(nodes: (Node | string)[], ref: string): Node | null {
  for (const x of nodes) {
    if (typeof x === 'string') continue;
    if (x.ref === ref) return x;
    const hit = x.children ? findRef(x.children, ref) : null;
    if (hit) return hit;
  }
  return null;
}

describe('budgets on a large page', () => {
  it('stays within the default budget and counts what it left out exactly', async () => {
    const id = await open('big-grid.html');
    const full = await snap(id, 'format=json&maxTokens=1000000');
    expect(full.status).toBe(200);
    expect(full.body.truncated).toBe(false);
    const all = countShown(full.body.snapshot);
    expect(all.nodes).toBe(full.body.totalNodes);
    expect(all.refs).toBe(full.body.totalRefs);
    expect(full.body.totalNodes).toBeGreaterThan(4000);

    // Default maxTokens (8000), YAML.
    const y = await snap(id);
    expect(y.status).toBe(200);
    expect(y.body.truncated).toBe(true);
    expect(y.body.tokens).toBeLessThanOrEqual(8000);
    expect(y.raw.length / 4).toBeLessThanOrEqual(8000);
    expect(y.body.tokens).toBeGreaterThan(4000); // it uses the budget, it does not starve
    expect(y.body.totalNodes).toBe(full.body.totalNodes);
    expect(y.body.totalRefs).toBe(full.body.totalRefs);
    const shownRefs = (y.body.snapshot as string).match(/\[ref=[a-z0-9]+\]/g)!.length;
    expect(shownRefs + y.body.truncation.omittedRefs).toBe(full.body.totalRefs);
    expect(y.body.truncation.collapsed.length).toBeGreaterThan(0);
    expect(y.body.truncation.hint).toMatch(/\?ref=/);

    // JSON with a smaller budget: shown + omitted = total, nodes and refs.
    for (const maxTokens of [2000]) {
      const j = await snap(id, `format=json&maxTokens=${maxTokens}`);
      expect(j.body.tokens).toBeLessThanOrEqual(maxTokens);
      expect(j.raw.length / 4).toBeLessThanOrEqual(maxTokens);
      expect(j.body.truncated).toBe(true);
      const shown = countShown(j.body.snapshot);
      expect(shown.nodes + j.body.truncation.omittedNodes).toBe(full.body.totalNodes);
      expect(shown.refs + j.body.truncation.omittedRefs).toBe(full.body.totalRefs);
    }

    // Text format too.
    const t = await snap(id, 'format=text&maxTokens=3000');
    expect(t.raw.length / 4).toBeLessThanOrEqual(3000);
    const textRefs = (t.body.snapshot as string).match(/ \[(?:f\d+)?e\d+\]/g)!.length;
    expect(textRefs + t.body.truncation.omittedRefs).toBe(full.body.totalRefs);
  });

  it('collapsed entries zoom in with ?ref= to that subtree', async () => {
    const id = await open('big-grid.html');
    const full = (await snap(id, 'format=json&maxTokens=1000000')).body.snapshot as Node[];
    const j = await snap(id, 'format=json');
    expect(j.raw.length / 4).toBeLessThanOrEqual(8000);
    const shown = countShown(j.body.snapshot);
    const total = countShown(full);
    expect(shown.nodes + j.body.truncation.omittedNodes).toBe(total.nodes);
    expect(shown.refs + j.body.truncation.omittedRefs).toBe(total.refs);
    const collapsed = j.body.truncation.collapsed as { ref: string; role: string; name?: string; nodes: number; refs: number }[];
    // Largest first.
    for (let i = 1; i < collapsed.length; i++) expect(collapsed[i - 1].nodes).toBeGreaterThanOrEqual(collapsed[i].nodes);
    // Every collapsed marker in the tree is reported with the same counts.
    const markers: Node[] = [];
    const visit = (ns: (Node | string)[]) => ns.forEach((x) => { if (typeof x === 'object') { if (x.collapsed) markers.push(x); if (x.children) visit(x.children); } });
    visit(j.body.snapshot);
    expect(markers.length).toBeGreaterThan(0);
    const folded: Node[] = [];
    const visitFolds = (ns: (Node | string)[]) => ns.forEach((x) => { if (typeof x === 'object') { if (x.folded) folded.push(x); if (x.children) visitFolds(x.children); } });
    visitFolds(j.body.snapshot);
    for (const c of collapsed as { ref: string; nodes: number; refs: number; more?: number; offset?: number }[]) {
      if (c.offset !== undefined) {
        // A fold: the node with that ref shows its first children and says what it left out.
        const f = folded.find((x) => x.ref === c.ref);
        expect(f, c.ref).toBeTruthy();
        expect(f!.folded).toEqual({ children: c.more, nodes: c.nodes, refs: c.refs, offset: c.offset });
        continue;
      }
      const m = markers.find((x) => x.ref === c.ref);
      expect(m, c.ref).toBeTruthy();
      expect(m!.collapsed).toEqual({ nodes: c.nodes, refs: c.refs });
    }

    for (const c of collapsed.filter((x) => (x as { offset?: number }).offset === undefined).slice(0, 1)) {
      const zoom = await snap(id, `format=json&ref=${c.ref}&maxTokens=20000`);
      expect(zoom.status).toBe(200);
      expect(zoom.body.truncated).toBe(false);
      const [root] = zoom.body.snapshot as Node[];
      expect(root.ref).toBe(c.ref);
      expect(root.role).toBe(c.role);
      expect(zoom.body.totalNodes).toBe(c.nodes + 1);
      expect(zoom.body.totalRefs).toBe(c.refs + 1);
      // The same subtree as in the full snapshot.
      expect(root).toEqual(findRef(full, c.ref));
    }

    // A section zoomed in as YAML contains its own items and nothing else.
    const section = (full[0].children!.find((c) => typeof c === 'object' && c.role === 'main') as Node).children!
      .map((c) => c as Node).find((c) => c.name === 'Section 7')!.ref!;
    const zoomed = (await snap(id, `ref=${section}`)).body;
    expect(zoomed.snapshot).toMatch(/^- region "Section 7"/);
    expect(zoomed.snapshot).toContain('button "Buy item 7-24"');
    expect(zoomed.snapshot).not.toContain('Section 8');
    expect(zoomed.truncated).toBe(false);
  });

  it('a wide list fills the budget: first cards in full, a fold line, and paging by offset', async () => {
    const id = await open('wide-catalogue.html');
    const y = await snap(id);
    expect(y.status).toBe(200);
    expect(y.raw.length / 4).toBeLessThanOrEqual(8000);
    expect(y.body.totalRefs).toBeGreaterThan(4000);
    const refs = (y.body.snapshot as string).match(/\[ref=e\d+\]/g)!;
    expect(refs.length).toBeGreaterThanOrEqual(200);
    expect(y.body.snapshot).toContain('heading "Product 1" [level=3]');
    const fold = /… (\d+) more listitem \(ref=(e\d+), offset=(\d+)\)/.exec(y.body.snapshot)!;
    expect(fold).not.toBeNull();
    const [more, list, offset] = [Number(fold[1]), fold[2], Number(fold[3])];
    expect(more + offset).toBe(1000);
    expect(y.body.truncation.hint).toContain(`?ref=${list}&offset=${offset}`);

    // Any card is one call away: page to card 900 and click its button by the ref it shows.
    const page = await snap(id, `ref=${list}&offset=899`);
    expect(page.status).toBe(200);
    expect(page.raw.length / 4).toBeLessThanOrEqual(8000);
    expect(page.body.snapshot).toMatch(/^- list "Products" \[ref=e\d+\]:\n  - listitem \[ref=e\d+\]:\n    - heading "Product 900"/);
    expect(page.body.snapshot).not.toContain('"Product 899"');
    expect(page.body.truncation.omittedNodes).toBeGreaterThan(0);
    const button = /heading "Product 900"[\s\S]*?button "Add to cart" \[ref=(e\d+)\]/.exec(page.body.snapshot)![1];
    const click = await svc.api.action(id, { action: 'click', ref: button });
    expect(click.status).toBe(200);
    const top = await snap(id, 'maxTokens=400');
    expect(top.raw.length / 4).toBeLessThanOrEqual(400);
    expect(top.body.snapshot).toContain('link "Cart (1)"');

    // An offset past the end shows the node and nothing of its children; a negative one is 400.
    const past = await snap(id, `ref=${list}&offset=5000`);
    expect(past.status).toBe(200);
    expect(past.body.snapshot).toMatch(/^- list "Products" \[ref=e\d+\]/);
    expect((await snap(id, `ref=${list}&offset=-1`)).status).toBe(400);
  });

  it('a ?ref= that does not exist is 409 ref_not_found', async () => {
    const id = await open('big-grid.html?sections=1');
    const res = await snap(id, 'ref=e99999');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ref_not_found');
    expect(res.body.error.details.ref).toBe('e99999');
    const bad = await snap(id, 'maxTokens=10');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('maxTokens');
  });
});

describe('views', () => {
  it('depth=N limits depth', async () => {
    const id = await open('big-grid.html?sections=2');
    const full = await snap(id, 'format=json&maxTokens=1000000');
    expect(maxDepth(full.body.snapshot)).toBeGreaterThan(3);
    for (const depth of [0, 1, 2]) {
      const v = await snap(id, `format=json&depth=${depth}&maxTokens=1000000`);
      expect(v.status).toBe(200);
      expect(maxDepth(v.body.snapshot)).toBe(depth);
      expect(v.body.truncated).toBe(true);
      const shown = countShown(v.body.snapshot);
      expect(shown.nodes + v.body.truncation.omittedNodes).toBe(full.body.totalNodes);
      expect(v.body.truncation.hint).toContain(`depth=${depth}`);
    }
    // depth=1 shows the page's top level: heading, toolbar (collapsed), status, main (collapsed).
    const y = (await snap(id, 'depth=1')).body.snapshot as string;
    expect(y).toContain('heading "Big grid"');
    expect(y).toMatch(/toolbar "Edits" \[ref=[a-z0-9]+\]: "\.\.\. 3 nodes, 3 refs omitted/);
    expect(y).not.toContain('button "Add note"');
    // Depth is relative to ?ref=.
    const main = refOf((await snap(id, 'maxTokens=1000000')).body.snapshot, 'main');
    const scoped = await snap(id, `format=json&ref=${main}&depth=1`);
    const [root] = scoped.body.snapshot as Node[];
    expect(root.role).toBe('main');
    expect(root.children!.map((c) => (c as Node).name)).toEqual(['Section 0', 'Section 1']);
    expect((root.children![0] as Node).collapsed).toBeTruthy();
  });

  it('format=json returns the tree, format=text the compact form', async () => {
    const id = await open('big-grid.html?sections=1');
    const j = await snap(id, 'format=json');
    expect(j.body.format).toBe('json');
    const [root] = j.body.snapshot as Node[];
    expect(root.role).toBe('generic');
    const toolbar = root.children!.find((c) => typeof c === 'object' && c.role === 'toolbar') as Node;
    expect(toolbar.children!.map((c) => (c as Node).name)).toEqual(['Add note', 'Remove first item', 'Rename first section']);
    expect(countShown(j.body.snapshot).nodes).toBe(j.body.totalNodes);

    const t = await snap(id, 'format=text');
    expect(t.body.format).toBe('text');
    const text = t.body.snapshot as string;
    expect(text).not.toMatch(/^\s*- /m);
    expect(text).not.toContain('[ref=');
    expect(text).toMatch(/^  toolbar "Edits" \[[a-z0-9]+\]$/m);
    expect(text).toMatch(/^    button "Add note" \[[a-z0-9]+\]$/m);
    const y = (await snap(id)).body.snapshot as string;
    expect(text.length).toBeLessThan(y.length);
    // Same refs in both forms.
    expect(text.match(/\[(?:f\d+)?e\d+\]/g)!.sort()).toEqual(y.match(/\[ref=[a-z0-9]+\]/g)!.map((r) => `[${r.slice(5)}`).sort());
  });

  it('diff=true: full snapshot first, then added/removed/changed by ref', async () => {
    const id = await open('big-grid.html?sections=2');
    // The first diff on a new page has nothing to compare with: a full snapshot.
    const first = await snap(id, 'diff=true');
    expect(first.status).toBe(200);
    expect(first.body.diff).toBeUndefined();
    expect(first.body.snapshot).toContain('button "Add note"');
    const yaml = first.body.snapshot as string;

    const none = await snap(id, 'diff=true');
    expect(none.body.diff).toMatchObject({ since: first.body.snapshotId, added: [], removed: [], changed: [] });
    expect(none.body.diff.unchanged).toBe(first.body.totalRefs);
    expect(none.body.snapshot).toBeUndefined();

    const buy = refOf(yaml, 'button', 'Buy item 1-3');
    const status = refOf(yaml, 'status');
    const click = await svc.api.action(id, { action: 'click', ref: buy, snapshot: 'diff' });
    expect(click.status).toBe(200);
    const d = click.body.snapshot.diff;
    expect(d.added).toEqual([]);
    expect(d.removed).toEqual([]);
    expect(d.changed).toContainEqual(expect.objectContaining({
      ref: status, role: 'status', summary: 'text "Nothing bought" → "Bought item 1-3"',
      before: expect.objectContaining({ text: 'Nothing bought' }), after: expect.objectContaining({ text: 'Bought item 1-3' }),
    }));
    // Anything else that changed is focus moving to the clicked button, nothing more.
    for (const c of d.changed.filter((x: any) => x.ref !== status)) {
      const { active: a1, ...before } = c.before;
      const { active: a2, ...after } = c.after;
      expect(before).toEqual(after);
      expect(a1).not.toBe(a2);
    }
    expect(d.changed.find((x: any) => x.ref === buy)?.after.active).toBe(true);

    await svc.api.action(id, { action: 'click', ref: refOf(yaml, 'button', 'Add note') });
    await svc.api.action(id, { action: 'click', ref: refOf(yaml, 'button', 'Remove first item') });
    const after = await snap(id, 'diff=true');
    const diff = after.body.diff;
    expect(diff.since).toBe(click.body.snapshot.snapshotId);
    expect(diff.added.map((a: any) => [a.role, a.name])).toContainEqual(['button', 'Note 1']);
    // The removed list item took its name, button and link with it.
    const firstItem = refOf(yaml, 'listitem');
    expect(diff.removed.map((r: any) => r.ref)).toEqual(expect.arrayContaining([firstItem, refOf(yaml, 'button', 'Buy item 0-0'), refOf(yaml, 'link', 'Details 0-0')]));
    expect(diff.removed).toContainEqual({ ref: refOf(yaml, 'button', 'Buy item 0-0'), role: 'button', name: 'Buy item 0-0' });

    // A renamed region shows up under its new name (as a change, or as a new ref).
    await svc.api.action(id, { action: 'click', ref: refOf(yaml, 'button', 'Rename first section') });
    const renamed = (await snap(id, 'diff=true')).body.diff;
    const touched = [...renamed.added, ...renamed.removed, ...renamed.changed.map((c: any) => c.after)];
    expect(touched.some((n: any) => n.name === 'Renamed section')).toBe(true);

    // After navigating to another document, a diff starts over with a full snapshot:
    // in the action's answer and in GET snapshot alike.
    const nav = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/login.html`, snapshot: 'diff' });
    expect(nav.body.snapshot.diff).toBeUndefined();
    expect(nav.body.snapshot.snapshot).toContain('heading "Welcome back"');
    await svc.api.action(id, { action: 'navigate', url: `${fx.url}/products.html` });
    const fresh = await snap(id, 'diff=true');
    expect(fresh.body.diff).toBeUndefined();
    expect(fresh.body.snapshot).toContain('heading "Products"');
  });

  it('refs keep working after further snapshots and after ?ref= and ?depth= views', async () => {
    const id = await open('big-grid.html?sections=3');
    const yaml = (await snap(id, 'maxTokens=1000000')).body.snapshot as string;
    const buy = refOf(yaml, 'button', 'Buy item 2-24');
    const section = refOf(yaml, 'region', 'Section 1');
    await snap(id);
    await snap(id, `ref=${section}`);
    await snap(id, 'depth=1');
    await snap(id, 'format=json&maxTokens=500');
    await snap(id, 'diff=true');
    const click = await svc.api.action(id, { action: 'click', ref: buy });
    expect(click.status).toBe(200);
    const after = (await snap(id, 'maxTokens=1000000')).body.snapshot as string;
    expect(after).toContain('Bought item 2-24');
    // Same refs as before for the same elements.
    expect(refOf(after, 'button', 'Buy item 2-24')).toBe(buy);
    expect(refOf(after, 'region', 'Section 1')).toBe(section);
  });
});
