import { type AriaElement, type AriaNode, isElement, shallow, STRUCTURAL_KEYS } from './tree.js';

// Renders a snapshot tree as Playwright-style YAML, as compact text, or as JSON,
// within a character budget. When the whole tree does not fit, the view is grown
// breadth-first (the page's outline first, then detail). A node whose children do not
// all fit shows as many as fit, first ones first, and a fold line for the rest that
// says how many there are and which ref + offset pages on (so a list of 1,000 cards
// shows its first cards rather than one collapsed line). Every subtree left out is
// replaced by one line that says how many nodes and refs it holds and which ref to
// zoom into. Nothing is cut silently.

export type RenderFormat = 'yaml' | 'text' | 'json';

export interface CollapsedInfo {
  ref: string;
  role: string;
  name?: string;
  nodes: number;
  refs: number;
  /** Set on a fold: the children from this index on were left out; page on with ref + offset. */
  offset?: number;
  /** On a fold: how many children were left out. */
  more?: number;
}

export interface RenderResult {
  output: string | AriaNode[];
  chars: number;
  truncated: boolean;
  omittedNodes: number;
  omittedRefs: number;
  collapsed: CollapsedInfo[];
}

export interface RenderOptions {
  format: RenderFormat;
  maxChars: number;
  /** Nodes deeper than this are always collapsed (0 = only the roots). */
  depth?: number;
  /**
   * Paging: the roots (node: null) or the children of `node` shown start at index `start`
   * of the full list (the caller passes them already sliced); fold offsets count from there.
   */
  offset?: { node: AriaElement | null; start: number };
}

const YAML_PLAIN = /^[A-Za-z0-9_(][^:#\n"'`{}[\],&*!|>%@]*$/;
const YAML_RESERVED = /^(true|false|null|yes|no|on|off|~|-?\d[\d.,e+-]*)$/i;

function yamlScalar(s: string): string {
  if (s.length > 0 && YAML_PLAIN.test(s) && !YAML_RESERVED.test(s) && s.trim() === s) return s;
  return JSON.stringify(s);
}

// Roles that say a person can click them: the text format leaves their pointer mark out (it
// says nothing more); on any other role (a generic icon, a row) it is the only clue.
const CLICK_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'treeitem', 'checkbox', 'radio', 'switch', 'combobox', 'textbox', 'searchbox', 'spinbutton', 'slider']);

function attrs(n: AriaElement, format: RenderFormat): { before: string; after: string } {
  let before = n.inferredName && !n.name ? ` [inferred=${String(n.inferredFrom ?? 'text')}]` : '';
  let after = '';
  for (const [k, v] of Object.entries(n)) {
    if (STRUCTURAL_KEYS.has(k) || INFERRED_KEYS.has(k) || v === false || v === undefined || v === null) continue;
    // A field's kind: [multiline] for a textarea, [type=date] for an input.
    const piece = k === 'kind' ? (v === 'multiline' ? ' [multiline]' : ` [type=${String(v)}]`) : v === true ? ` [${k}]` : ` [${k}=${String(v)}]`;
    // Playwright prints cursor after the ref; keep its order so YAML matches theirs.
    if (k === 'cursor') after += format === 'text' && CLICK_ROLES.has(n.role) ? '' : piece;
    else before += piece;
  }
  return { before, after };
}

const INFERRED_KEYS = new Set(['inferredName', 'inferredFrom']);

function head(n: AriaElement, format: RenderFormat): string {
  const { before, after } = attrs(n, format);
  const shown = n.name || n.inferredName;
  const name = shown ? ` ${JSON.stringify(shown)}` : '';
  const ref = n.ref ? (format === 'text' ? ` [${n.ref}]` : ` [ref=${n.ref}]`) : '';
  return `${n.role}${name}${before}${ref}${after}`;
}

function pad(depth: number): string {
  return '  '.repeat(depth);
}

function stringLine(s: string, depth: number, format: RenderFormat): string {
  return format === 'text' ? `${pad(depth)}${JSON.stringify(s)}` : `${pad(depth)}- text: ${yamlScalar(s)}`;
}

/** Per-render memo of subtree sizes: the same subtree is asked about many times. */
class Sizes {
  private counts = new Map<AriaElement, { nodes: number; refs: number }>();
  private full = new Map<AriaElement, { chars: number; lines: number }>();
  constructor(private format: RenderFormat) {}

  /** Nodes and refs under n, n included. */
  count(n: AriaElement): { nodes: number; refs: number } {
    let c = this.counts.get(n);
    if (!c) {
      c = { nodes: 1, refs: n.ref ? 1 : 0 };
      for (const k of n.children ?? []) {
        if (!isElement(k)) c.nodes++;
        else {
          const s = this.count(k);
          c.nodes += s.nodes;
          c.refs += s.refs;
        }
      }
      this.counts.set(n, c);
    }
    return c;
  }

  /** Inner counts of a collapsed element: what its summary line stands for. */
  inner(n: AriaElement): { nodes: number; refs: number } {
    const c = this.count(n);
    return { nodes: c.nodes - 1, refs: c.refs - (n.ref ? 1 : 0) };
  }

  /** Characters the whole subtree takes rendered in full at this depth. */
  fullCost(n: AriaNode, depth: number): number {
    if (!isElement(n)) return lineCost(n, depth, this.format, false, this);
    let f = this.full.get(n);
    if (!f) {
      const own = lineCost(n, 0, this.format, false, this);
      f = { chars: own, lines: this.format === 'json' ? 0 : ownLineCount(n) };
      for (const k of n.children ?? []) {
        const kidChars = this.fullCost(k, 1);
        f.chars += kidChars;
        if (this.format !== 'json') f.lines += isElement(k) ? this.full.get(k)?.lines ?? 1 : 1;
      }
      // Stored at depth 0; deeper copies pay two spaces per line and level.
      this.full.set(n, f);
    }
    return f.chars + (this.format === 'json' ? 0 : 2 * depth * f.lines);
  }
}

function ownLineCount(n: AriaElement): number {
  const hasKids = (n.children?.length ?? 0) > 0;
  if (!hasKids && !n.url) return 1;
  return 1 + (n.url ? 1 : 0) + (typeof n.text === 'string' ? 1 : 0);
}

function summary(c: { nodes: number; refs: number }, zoomRef: string | undefined): string {
  const zoom = zoomRef ? `; zoom with ref=${zoomRef}` : '';
  return `... ${c.nodes} nodes, ${c.refs} refs omitted${zoom}`;
}

/** One element's own line(s) when its children are shown, or when it is collapsed. */
function elementLines(n: AriaElement, depth: number, format: RenderFormat, collapsed: boolean, sizes: Sizes): string[] {
  const dash = format === 'text' ? '' : '- ';
  const h = `${pad(depth)}${dash}${head(n, format)}`;
  const hasKids = (n.children?.length ?? 0) > 0;
  if (collapsed) {
    const s = summary(sizes.inner(n), n.ref);
    return [format === 'text' ? `${h} ${s}` : `${h}: ${JSON.stringify(s)}`];
  }
  const lines: string[] = [];
  const text = typeof n.text === 'string' ? n.text : undefined;
  if (!hasKids && !n.url) {
    lines.push(text !== undefined ? (format === 'text' ? `${h}: ${JSON.stringify(text)}` : `${h}: ${yamlScalar(text)}`) : h);
    return lines;
  }
  lines.push(format === 'text' ? h : `${h}:`);
  if (n.url) lines.push(format === 'text' ? `${pad(depth + 1)}url: ${n.url}` : `${pad(depth + 1)}- /url: ${yamlScalar(String(n.url))}`);
  if (text !== undefined) lines.push(stringLine(text, depth + 1, format));
  return lines;
}

function lineCost(n: AriaNode, depth: number, format: RenderFormat, collapsed: boolean, sizes: Sizes): number {
  if (!isElement(n)) return format === 'json' ? JSON.stringify(n).length + 1 : stringLine(n, depth, format).length + 1;
  if (format === 'json') {
    const own = JSON.stringify(shallow(n)).length + 16;
    return collapsed ? own + 40 : own;
  }
  return elementLines(n, depth, format, collapsed, sizes).reduce((a, l) => a + l.length + 1, 0);
}

interface Fold {
  more: number;
  role: string;
  ref?: string;
  offset: number;
  nodes: number;
  refs: number;
}

/** What the left-out children `kids[from..]` hold, and how to page on to them. */
function foldOf(kids: AriaNode[], from: number, owner: AriaElement | null, base: number, sizes: Sizes): Fold {
  let nodes = 0;
  let refs = 0;
  const roles = new Set<string>();
  for (let i = from; i < kids.length; i++) {
    const k = kids[i];
    if (!isElement(k)) {
      nodes++;
      roles.add('text');
      continue;
    }
    const c = sizes.count(k);
    nodes += c.nodes;
    refs += c.refs;
    roles.add(k.role);
  }
  const role = roles.size === 1 ? [...roles][0] : 'nodes';
  return { more: kids.length - from, role, ...(owner?.ref ? { ref: owner.ref } : {}), offset: base + from, nodes, refs };
}

function foldLine(f: Fold, depth: number, format: RenderFormat): string {
  const where = f.ref ? `ref=${f.ref}, offset=${f.offset}` : `offset=${f.offset}`;
  const what = `… ${f.more} more ${f.role} (${where})`;
  return format === 'text' ? `${pad(depth)}${what}` : `${pad(depth)}- ${what}`;
}

/** Cost of a fold line; the count's digits vary little, so an estimate with the real numbers. */
function foldCost(kids: AriaNode[], from: number, owner: AriaElement | null, base: number, depth: number, format: RenderFormat, sizes: Sizes): number {
  if (format === 'json') return 90;
  return foldLine(foldOf(kids, from, owner, base, sizes), depth, format).length + 1;
}

interface Plan {
  /** Element → how many of its children are shown (all of them when it fits). */
  expanded: Map<AriaElement, number>;
  shownRoots: number;
  /** Index in the full list of the first child shown (paging). */
  offsetBase: (n: AriaElement | null) => number;
}

/** A partially shown node opens at least this many children when it can. */
const MIN_PARTIAL = 10;

/**
 * Decide which elements to expand and how many children each shows: breadth-first, in
 * document order within a level, while the running cost stays within the budget. A node
 * whose children do not all fit shows the first ones with room reserved for their own
 * content (so the next level can open them), or at least as many collapsed lines as fit;
 * budget left at the end fills those partial nodes with further collapsed children.
 */
function plan(roots: AriaNode[], opts: RenderOptions, budget: number, sizes: Sizes): Plan {
  const expanded = new Map<AriaElement, number>();
  const base = (n: AriaElement | null) => (opts.offset && opts.offset.node === n ? opts.offset.start : 0);
  let used = 0;
  let shownRoots = 0;
  for (let i = 0; i < roots.length; i++) {
    const r = roots[i];
    const c = lineCost(r, 0, opts.format, isElement(r) && (r.children?.length ?? 0) > 0, sizes);
    const reserve = i + 1 < roots.length ? foldCost(roots, i + 1, null, base(null), 0, opts.format, sizes) : 0;
    if (used + c + reserve > budget && shownRoots > 0) break;
    used += c;
    shownRoots++;
  }
  if (shownRoots < roots.length) used += foldCost(roots, shownRoots, null, base(null), 0, opts.format, sizes);

  const partial: { n: AriaElement; depth: number }[] = [];
  const queue: { n: AriaElement; depth: number }[] = [];
  const collapsedCost = (k: AriaNode, depth: number) => lineCost(k, depth, opts.format, isElement(k) && (k.children?.length ?? 0) > 0, sizes);
  for (const r of roots.slice(0, shownRoots)) if (isElement(r) && r.children?.length) queue.push({ n: r, depth: 0 });
  for (let i = 0; i < queue.length; i++) {
    const { n, depth } = queue[i];
    if (opts.depth !== undefined && depth >= opts.depth) continue;
    const kids = n.children ?? [];
    const open = lineCost(n, depth, opts.format, false, sizes) - lineCost(n, depth, opts.format, true, sizes);
    let all = open;
    for (const k of kids) all += collapsedCost(k, depth + 1);
    let shown = kids.length;
    if (used + all > budget) {
      // Partial: the first children, as many as fit, and a fold line for the rest.
      const room = budget - used - open - foldCost(kids, 0, n, base(n), depth + 1, opts.format, sizes);
      if (room <= 0) continue;
      let byFull = 0;
      for (let acc = 0; byFull < kids.length; byFull++) {
        acc += sizes.fullCost(kids[byFull], depth + 1);
        if (acc > room) break;
      }
      let byLine = 0;
      for (let acc = 0; byLine < kids.length; byLine++) {
        acc += collapsedCost(kids[byLine], depth + 1);
        if (acc > room) break;
      }
      shown = byFull >= MIN_PARTIAL ? byFull : Math.min(byLine, Math.max(byFull, MIN_PARTIAL));
      if (shown === 0) continue;
      all = open + foldCost(kids, shown, n, base(n), depth + 1, opts.format, sizes);
      for (let j = 0; j < shown; j++) all += collapsedCost(kids[j], depth + 1);
      if (used + all > budget) continue;
      partial.push({ n, depth });
    }
    used += all;
    expanded.set(n, shown);
    for (let j = 0; j < shown; j++) {
      const k = kids[j];
      if (isElement(k) && k.children?.length) queue.push({ n: k, depth: depth + 1 });
    }
  }
  // Fill: budget left over goes to more children of the partial nodes, in BFS order.
  for (const { n, depth } of partial) {
    const kids = n.children ?? [];
    let shown = expanded.get(n)!;
    const before = foldCost(kids, shown, n, base(n), depth + 1, opts.format, sizes);
    used -= before;
    while (shown < kids.length) {
      const c = collapsedCost(kids[shown], depth + 1);
      const fold = shown + 1 < kids.length ? foldCost(kids, shown + 1, n, base(n), depth + 1, opts.format, sizes) : 0;
      if (used + c + fold > budget) break;
      used += c;
      shown++;
    }
    used += shown < kids.length ? foldCost(kids, shown, n, base(n), depth + 1, opts.format, sizes) : 0;
    expanded.set(n, shown);
  }
  return { expanded, shownRoots, offsetBase: base };
}

function emitText(nodes: AriaNode[], depth: number, format: RenderFormat, p: Plan, sizes: Sizes, out: string[]): void {
  for (const n of nodes) {
    if (!isElement(n)) {
      out.push(stringLine(n, depth, format));
      continue;
    }
    const kids = n.children ?? [];
    const shown = kids.length === 0 ? 0 : p.expanded.get(n);
    out.push(...elementLines(n, depth, format, shown === undefined, sizes));
    if (!shown) continue;
    emitText(kids.slice(0, shown), depth + 1, format, p, sizes, out);
    if (shown < kids.length) out.push(foldLine(foldOf(kids, shown, n, p.offsetBase(n), sizes), depth + 1, format));
  }
}

function emitJson(nodes: AriaNode[], p: Plan, sizes: Sizes): AriaNode[] {
  return nodes.map((n) => {
    if (!isElement(n)) return n;
    const kids = n.children ?? [];
    if (kids.length === 0) return n;
    const shown = p.expanded.get(n);
    if (shown === kids.length) return { ...shallow(n), children: emitJson(kids, p, sizes) } as unknown as AriaElement;
    if (shown) {
      const f = foldOf(kids, shown, n, p.offsetBase(n), sizes);
      return { ...shallow(n), children: emitJson(kids.slice(0, shown), p, sizes), folded: { children: f.more, nodes: f.nodes, refs: f.refs, offset: f.offset } } as unknown as AriaElement;
    }
    return { ...shallow(n), collapsed: sizes.inner(n) } as unknown as AriaElement;
  });
}

function collectOmitted(nodes: AriaNode[], p: Plan, sizes: Sizes, nearestRef: string | undefined, acc: RenderResult): void {
  for (const n of nodes) {
    if (!isElement(n) || !n.children?.length) continue;
    const kids = n.children;
    const shown = p.expanded.get(n);
    if (shown !== undefined) {
      collectOmitted(kids.slice(0, shown), p, sizes, n.ref ?? nearestRef, acc);
      if (shown < kids.length) {
        const f = foldOf(kids, shown, n, p.offsetBase(n), sizes);
        acc.omittedNodes += f.nodes;
        acc.omittedRefs += f.refs;
        const zoom = n.ref ?? nearestRef;
        if (zoom) acc.collapsed.push({ ref: zoom, role: f.role, nodes: f.nodes, refs: f.refs, more: f.more, ...(n.ref ? { offset: f.offset } : {}) });
      }
      continue;
    }
    const c = sizes.inner(n);
    acc.omittedNodes += c.nodes;
    acc.omittedRefs += c.refs;
    const zoom = n.ref ?? nearestRef;
    if (zoom) acc.collapsed.push({ ref: zoom, role: n.role, ...(n.name ? { name: n.name } : {}), nodes: c.nodes, refs: c.refs });
  }
}

function measure(output: string | AriaNode[]): number {
  return typeof output === 'string' ? output.length : JSON.stringify(output).length;
}

export function renderSnapshot(roots: AriaNode[], opts: RenderOptions): RenderResult {
  const sizes = new Sizes(opts.format);
  const offsetBase = (n: AriaElement | null) => (opts.offset && opts.offset.node === n ? opts.offset.start : 0);
  let budget = Math.max(0, opts.maxChars);
  let result: RenderResult | null = null;
  // The cost model is an estimate (JSON especially); re-plan with a tighter budget if it overshot.
  for (let attempt = 0; attempt < 5; attempt++) {
    const p = plan(roots, opts, budget, sizes);
    const shown = roots.slice(0, p.shownRoots);
    let output: string | AriaNode[];
    if (opts.format === 'json') {
      output = emitJson(shown, p, sizes);
    } else {
      const lines: string[] = [];
      emitText(shown, 0, opts.format, p, sizes, lines);
      if (p.shownRoots < roots.length) lines.push(foldLine(foldOf(roots, p.shownRoots, null, offsetBase(null), sizes), 0, opts.format));
      output = lines.join('\n');
    }
    result = { output, chars: measure(output), truncated: false, omittedNodes: 0, omittedRefs: 0, collapsed: [] };
    collectOmitted(shown, p, sizes, undefined, result);
    if (p.shownRoots < roots.length) {
      const f = foldOf(roots, p.shownRoots, null, offsetBase(null), sizes);
      result.omittedNodes += f.nodes;
      result.omittedRefs += f.refs;
    }
    result.truncated = result.omittedNodes > 0;
    if (result.chars <= opts.maxChars || budget === 0) break;
    budget = Math.floor(budget * (opts.maxChars / result.chars) * 0.95);
  }
  result!.collapsed.sort((a, b) => b.nodes - a.nodes);
  return result!;
}
