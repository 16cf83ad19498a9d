import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderSnapshot, type RenderFormat } from '../src/snapshot/render.js';
import { countForest, type AriaElement, type AriaNode } from '../src/snapshot/tree.js';

// Pure logic of the snapshot renderer: budgets, breadth-first collapse, exact counts of
// what was left out, depth limits, and output that is valid YAML.

let seq = 0;
const ref = () => `e${++seq}`;

/** A page-like tree: a root with a heading, a nav, and `sections` regions of `items` list items. */
function page(sections: number, items: number): AriaNode[] {
  seq = 0;
  const root: AriaElement = { role: 'generic', ref: ref(), children: [] };
  root.children!.push({ role: 'heading', name: 'Shop', level: 1, ref: ref() });
  root.children!.push({ role: 'navigation', ref: ref(), children: [{ role: 'link', name: 'Home', ref: ref(), url: '/' }] });
  for (let s = 0; s < sections; s++) {
    const list: AriaElement = { role: 'list', ref: ref(), children: [] };
    for (let i = 0; i < items; i++) {
      list.children!.push({
        role: 'listitem',
        ref: ref(),
        children: [`Item ${s}-${i}`, { role: 'button', name: `Buy ${s}-${i}`, ref: ref() }],
      });
    }
    root.children!.push({ role: 'region', name: `Section ${s}`, ref: ref(), children: [{ role: 'heading', name: `Section ${s}`, level: 2, ref: ref() }, list] });
  }
  return [root];
}

type JsonNode = AriaElement & { collapsed?: { nodes: number; refs: number } };

/** Nodes and refs shown in a JSON rendering (a collapsed element counts, its insides do not). */
function shown(nodes: AriaNode[]): { nodes: number; refs: number } {
  let n = 0;
  let r = 0;
  for (const x of nodes) {
    n++;
    if (typeof x === 'string') continue;
    if (x.ref) r++;
    const c = shown(x.children ?? []);
    n += c.nodes;
    r += c.refs;
  }
  return { nodes: n, refs: r };
}

function depthOf(nodes: AriaNode[], d = 0): number {
  return Math.max(d, ...nodes.map((x) => (typeof x === 'object' && x.children ? depthOf(x.children, d + 1) : d)));
}

describe('renderSnapshot', () => {
  it('renders a small tree in full, as Playwright-style YAML', () => {
    const tree: AriaNode[] = [
      {
        role: 'generic', ref: 'e1', children: [
          { role: 'heading', name: 'Sign in', level: 1, ref: 'e2' },
          { role: 'textbox', name: 'Email', ref: 'e3', placeholder: 'you@example.com' },
          { role: 'checkbox', name: 'Remember me', checked: true, ref: 'e4' },
          { role: 'link', name: 'Help', ref: 'e5', cursor: 'pointer', url: '/help' },
          { role: 'paragraph', ref: 'e6', text: 'Note: 3 tries left' },
          'plain text',
        ],
      },
    ];
    const r = renderSnapshot(tree, { format: 'yaml', maxChars: 10_000 });
    expect(r.truncated).toBe(false);
    expect(r.omittedNodes).toBe(0);
    expect(r.output).toBe([
      '- generic [ref=e1]:',
      '  - heading "Sign in" [level=1] [ref=e2]',
      '  - textbox "Email" [placeholder=you@example.com] [ref=e3]',
      '  - checkbox "Remember me" [checked] [ref=e4]',
      '  - link "Help" [ref=e5] [cursor=pointer]:',
      '    - /url: "/help"',
      '  - paragraph [ref=e6]: "Note: 3 tries left"',
      '  - text: plain text',
    ].join('\n'));
    expect(r.chars).toBe((r.output as string).length);
    // It parses as YAML.
    expect(parse(r.output as string)).toEqual([{ 'generic [ref=e1]': expect.any(Array) }]);

    const t = renderSnapshot(tree, { format: 'text', maxChars: 10_000 });
    expect(t.output).toBe([
      'generic [e1]',
      '  heading "Sign in" [level=1] [e2]',
      '  textbox "Email" [placeholder=you@example.com] [e3]',
      '  checkbox "Remember me" [checked] [e4]',
      '  link "Help" [e5]',
      '    url: /help',
      '  paragraph [e6]: "Note: 3 tries left"',
      '  "plain text"',
    ].join('\n'));

    const j = renderSnapshot(tree, { format: 'json', maxChars: 10_000 });
    expect(j.output).toEqual(tree);
  });

  it('quotes names and text that YAML would misread', () => {
    const tree: AriaNode[] = [{ role: 'list', ref: 'e1', children: [
      { role: 'listitem', ref: 'e2', text: 'yes' },
      { role: 'listitem', ref: 'e3', text: '42' },
      { role: 'listitem', ref: 'e4', text: '#hash: value' },
      { role: 'button', name: 'Say "hi"', ref: 'e5' },
      '- dash first',
    ] }];
    const out = renderSnapshot(tree, { format: 'yaml', maxChars: 10_000 }).output as string;
    const parsed = parse(out) as Record<string, unknown[]>[];
    const items = parsed[0]['list [ref=e1]'];
    expect(items).toEqual([
      { 'listitem [ref=e2]': 'yes' },
      { 'listitem [ref=e3]': '42' },
      { 'listitem [ref=e4]': '#hash: value' },
      'button "Say \\"hi\\"" [ref=e5]',
      { text: '- dash first' },
    ]);
  });

  for (const format of ['yaml', 'text', 'json'] as RenderFormat[]) {
    it(`${format}: stays within maxChars and counts what it left out exactly`, () => {
      const tree = page(30, 20);
      const total = countForest(tree);
      for (const maxChars of [300, 2_000, 8_000, 30_000]) {
        const r = renderSnapshot(tree, { format, maxChars });
        expect(r.chars, `maxChars=${maxChars}`).toBeLessThanOrEqual(maxChars);
        expect(r.truncated).toBe(true);
        // Every collapsed subtree is reported, with the counts the total is made of.
        expect(r.collapsed.reduce((a, c) => a + c.nodes, 0)).toBe(r.omittedNodes);
        expect(r.collapsed.reduce((a, c) => a + c.refs, 0)).toBe(r.omittedRefs);
        if (format === 'json') {
          const s = shown(r.output as AriaNode[]);
          expect(s.nodes + r.omittedNodes).toBe(total.nodes);
          expect(s.refs + r.omittedRefs).toBe(total.refs);
        } else {
          const refs = (r.output as string).match(format === 'yaml' ? /\[ref=e\d+\]/g : /\[e\d+\]/g) ?? [];
          expect(refs.length + r.omittedRefs).toBe(total.refs);
        }
      }
      const all = renderSnapshot(tree, { format, maxChars: 10_000_000 });
      expect(all.truncated).toBe(false);
      expect(all.omittedNodes).toBe(0);
      expect(all.collapsed).toEqual([]);
    });
  }

  it('collapses breadth-first: the outline comes before any detail', () => {
    const tree = page(10, 10);
    const r = renderSnapshot(tree, { format: 'json', maxChars: 2_500 });
    const [root] = r.output as JsonNode[];
    // Every section is listed (possibly collapsed) before any list item is shown.
    const regions = root.children!.filter((c) => typeof c === 'object' && c.role === 'region') as JsonNode[];
    expect(regions).toHaveLength(10);
    const anyItemShown = JSON.stringify(r.output).includes('"listitem"');
    const allRegionsOpen = regions.every((g) => g.children);
    if (anyItemShown) expect(allRegionsOpen).toBe(true);
    // Collapsed markers carry their counts and are listed largest first with their refs.
    for (let i = 1; i < r.collapsed.length; i++) expect(r.collapsed[i - 1].nodes).toBeGreaterThanOrEqual(r.collapsed[i].nodes);
    const marked = regions.filter((g) => g.collapsed);
    for (const g of marked) expect(r.collapsed).toContainEqual({ ref: g.ref, role: 'region', name: g.name, ...g.collapsed! });
  });

  it('a collapsed line says what it holds and which ref zooms into it', () => {
    const tree = page(3, 5);
    const r = renderSnapshot(tree, { format: 'yaml', maxChars: 10_000, depth: 1 });
    const out = r.output as string;
    expect(out).toMatch(/^  - region "Section 0" \[ref=(e\d+)\]: "\.\.\. 17 nodes, 12 refs omitted; zoom with ref=\1"$/m);
    expect(() => parse(out)).not.toThrow();
    const t = renderSnapshot(tree, { format: 'text', maxChars: 10_000, depth: 1 }).output as string;
    expect(t).toMatch(/^  region "Section 0" \[(e\d+)\] \.\.\. 17 nodes, 12 refs omitted; zoom with ref=\1$/m);
  });

  it('depth limits how deep the view goes, relative to the roots', () => {
    const tree = page(3, 4);
    for (const depth of [0, 1, 2, 3]) {
      const r = renderSnapshot(tree, { format: 'json', maxChars: 1_000_000, depth });
      expect(depthOf(r.output as AriaNode[])).toBe(depth);
      const s = shown(r.output as AriaNode[]);
      expect(s.nodes + r.omittedNodes).toBe(countForest(tree).nodes);
    }
    // Scoped to a subtree (what ?ref= does), depth counts from that subtree.
    const section = (tree[0] as AriaElement).children![2] as AriaElement;
    const r = renderSnapshot([section], { format: 'json', maxChars: 1_000_000, depth: 1 });
    const [root] = r.output as JsonNode[];
    expect(root.role).toBe('region');
    expect((root.children![1] as JsonNode).collapsed).toEqual({ nodes: 12, refs: 8 });
  });

  it('a collapsed element without a ref zooms in through its nearest ancestor with one', () => {
    const tree: AriaNode[] = [{ role: 'main', ref: 'e1', children: [{ role: 'generic', children: [{ role: 'button', name: 'Deep', ref: 'e2' }, 'x'] }] }];
    const r = renderSnapshot(tree, { format: 'yaml', maxChars: 10_000, depth: 1 });
    expect(r.collapsed).toEqual([{ ref: 'e1', role: 'generic', nodes: 2, refs: 1 }]);
    expect(r.omittedNodes).toBe(2);
  });

  it('roots that do not fit at all are counted, not dropped silently', () => {
    const tree: AriaNode[] = Array.from({ length: 50 }, (_, i) => ({ role: 'button', name: `Button number ${i}`, ref: `e${i + 1}` }));
    const r = renderSnapshot(tree, { format: 'yaml', maxChars: 400 });
    const lines = (r.output as string).split('\n');
    expect(r.chars).toBeLessThanOrEqual(400);
    // The last line is the fold: how many roots are left and the offset to page on.
    const shownRoots = lines.length - 1;
    expect(lines.at(-1)).toBe(`- … ${50 - shownRoots} more button (offset=${shownRoots})`);
    expect(shownRoots + r.omittedNodes).toBe(50);
    expect(r.omittedRefs).toBe(r.omittedNodes);
    expect(r.truncated).toBe(true);
  });

  describe('wide nodes fill the budget instead of collapsing whole', () => {
    /** 1,000 product cards in one list, as on a big catalogue page. */
    function catalogue(cards: number): { tree: AriaNode[]; list: AriaElement } {
      seq = 0;
      const list: AriaElement = { role: 'list', ref: ref(), children: [] };
      for (let i = 0; i < cards; i++) {
        list.children!.push({ role: 'listitem', ref: ref(), children: [
          { role: 'heading', name: `Product ${i}`, level: 3, ref: ref() },
          { role: 'paragraph', ref: ref(), text: `$${i}.99` },
          { role: 'button', name: 'Add to cart', ref: ref() },
        ] });
      }
      const root: AriaElement = { role: 'generic', ref: ref(), children: [{ role: 'heading', name: 'Catalogue', level: 1, ref: ref() }, { role: 'main', ref: ref(), children: [list] }] };
      return { tree: [root], list };
    }
    const refsIn = (out: string, format: RenderFormat) => (out.match(format === 'yaml' ? /\[ref=e\d+\]/g : /\[e\d+\]/g) ?? []).length;

    for (const format of ['yaml', 'text'] as RenderFormat[]) {
      it(`${format}: shows the first cards in full and a fold line that pages on`, () => {
        const { tree, list } = catalogue(1000);
        const total = countForest(tree);
        const maxChars = 8000 * 4 - 400;
        const r = renderSnapshot(tree, { format, maxChars });
        const out = r.output as string;
        expect(r.chars).toBeLessThanOrEqual(maxChars);
        expect(refsIn(out, format)).toBeGreaterThanOrEqual(200);
        expect(refsIn(out, format) + r.omittedRefs).toBe(total.refs);
        // The first card is shown with its button; the fold says how to reach the rest.
        expect(out).toContain('Product 0');
        const fold = new RegExp(`… (\\d+) more listitem \\(ref=${list.ref}, offset=(\\d+)\\)`).exec(out);
        expect(fold).not.toBeNull();
        const [more, offset] = [Number(fold![1]), Number(fold![2])];
        expect(more + offset).toBe(1000);
        expect(r.collapsed).toContainEqual(expect.objectContaining({ ref: list.ref, role: 'listitem', more, offset }));

        // Paging: the list's children from the offset on, already sliced by the caller.
        const page2 = renderSnapshot([{ ...list, children: list.children!.slice(offset) }], { format, maxChars, offset: { node: null, start: 0 } });
        expect(page2.output as string).toContain(`Product ${offset}`);
        expect(page2.output as string).not.toContain(`Product ${offset - 1}"`);
      });
    }

    it('every card is reachable with one offset call, and offsets in later folds count from the start', () => {
      const { list } = catalogue(1000);
      const maxChars = 8000 * 4 - 400;
      for (const start of [0, 137, 500, 998]) {
        const sliced: AriaElement = { ...list, children: list.children!.slice(start) };
        const r = renderSnapshot([sliced], { format: 'yaml', maxChars, offset: { node: sliced, start } });
        const out = r.output as string;
        expect(out).toContain(`heading "Product ${start}"`);
        expect(out).toMatch(/button "Add to cart"/);
        const fold = /offset=(\d+)\)/.exec(out);
        if (start < 900) expect(Number(fold![1])).toBeGreaterThan(start);
      }
    });

    it('json: a partly shown node carries a folded marker with counts and offset', () => {
      const { tree } = catalogue(400);
      const r = renderSnapshot(tree, { format: 'json', maxChars: 20_000 });
      expect(r.chars).toBeLessThanOrEqual(20_000);
      const text = JSON.stringify(r.output);
      const m = /"folded":\{"children":(\d+),"nodes":(\d+),"refs":(\d+),"offset":(\d+)\}/.exec(text);
      expect(m).not.toBeNull();
      expect(Number(m![1]) + Number(m![4])).toBe(400);
      const s = shown(r.output as AriaNode[]);
      expect(s.nodes + r.omittedNodes).toBe(countForest(tree).nodes);
    });
  });
});
