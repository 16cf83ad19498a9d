import { type AriaElement, type AriaNode, countSubtree, isElement, shallow, STRUCTURAL_KEYS } from './tree.js';

// Renders a snapshot tree as Playwright-style YAML, as compact text, or as JSON,
// within a character budget. When the whole tree does not fit, the view is grown
// breadth-first (the page's outline first, then detail) and every subtree left out
// is replaced by one line that says how many nodes and refs it holds and which ref
// to zoom into. Nothing is cut silently.

export type RenderFormat = 'yaml' | 'text' | 'json';

export interface CollapsedInfo {
  ref: string;
  role: string;
  name?: string;
  nodes: number;
  refs: number;
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
}

const YAML_PLAIN = /^[A-Za-z0-9_(][^:#\n"'`{}[\],&*!|>%@]*$/;
const YAML_RESERVED = /^(true|false|null|yes|no|on|off|~|-?\d[\d.,e+-]*)$/i;

function yamlScalar(s: string): string {
  if (s.length > 0 && YAML_PLAIN.test(s) && !YAML_RESERVED.test(s) && s.trim() === s) return s;
  return JSON.stringify(s);
}

function attrs(n: AriaElement, format: RenderFormat): { before: string; after: string } {
  let before = '';
  let after = '';
  for (const [k, v] of Object.entries(n)) {
    if (STRUCTURAL_KEYS.has(k) || v === false || v === undefined || v === null) continue;
    const piece = v === true ? ` [${k}]` : ` [${k}=${String(v)}]`;
    // Playwright prints cursor after the ref; keep its order so YAML matches theirs.
    if (k === 'cursor') after += format === 'text' ? '' : piece;
    else before += piece;
  }
  return { before, after };
}

function head(n: AriaElement, format: RenderFormat): string {
  const { before, after } = attrs(n, format);
  const name = n.name ? ` ${JSON.stringify(n.name)}` : '';
  const ref = n.ref ? (format === 'text' ? ` [${n.ref}]` : ` [ref=${n.ref}]`) : '';
  return `${n.role}${name}${before}${ref}${after}`;
}

function pad(depth: number): string {
  return '  '.repeat(depth);
}

function stringLine(s: string, depth: number, format: RenderFormat): string {
  return format === 'text' ? `${pad(depth)}${JSON.stringify(s)}` : `${pad(depth)}- text: ${yamlScalar(s)}`;
}

function summary(c: { nodes: number; refs: number }, zoomRef: string | undefined): string {
  const zoom = zoomRef ? `; zoom with ref=${zoomRef}` : '';
  return `... ${c.nodes} nodes, ${c.refs} refs omitted${zoom}`;
}

/** One element's own line(s) when its children are shown, or when it is collapsed. */
function elementLines(n: AriaElement, depth: number, format: RenderFormat, collapsed: boolean): string[] {
  const dash = format === 'text' ? '' : '- ';
  const h = `${pad(depth)}${dash}${head(n, format)}`;
  const hasKids = (n.children?.length ?? 0) > 0;
  if (collapsed) {
    const inner = countSubtree(n);
    const c = { nodes: inner.nodes - 1, refs: inner.refs - (n.ref ? 1 : 0) };
    const s = summary(c, n.ref);
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

function lineCost(n: AriaNode, depth: number, format: RenderFormat, collapsed: boolean): number {
  if (!isElement(n)) return format === 'json' ? JSON.stringify(n).length + 1 : stringLine(n, depth, format).length + 1;
  if (format === 'json') {
    const own = JSON.stringify(shallow(n)).length + 16;
    return collapsed ? own + 40 : own;
  }
  return elementLines(n, depth, format, collapsed).reduce((a, l) => a + l.length + 1, 0);
}

/**
 * Decide which elements to expand: breadth-first, in document order within a level,
 * while the running cost stays within the budget.
 */
function plan(roots: AriaNode[], opts: RenderOptions, budget: number): { expanded: Set<AriaElement>; shownRoots: number } {
  const expanded = new Set<AriaElement>();
  let used = 0;
  let shownRoots = 0;
  for (const r of roots) {
    const c = lineCost(r, 0, opts.format, isElement(r) && (r.children?.length ?? 0) > 0);
    if (used + c > budget && shownRoots > 0) break;
    used += c;
    shownRoots++;
  }
  const queue: { n: AriaElement; depth: number }[] = [];
  for (const r of roots.slice(0, shownRoots)) if (isElement(r) && r.children?.length) queue.push({ n: r, depth: 0 });
  for (let i = 0; i < queue.length; i++) {
    const { n, depth } = queue[i];
    if (opts.depth !== undefined && depth >= opts.depth) continue;
    const kids = n.children ?? [];
    let delta = lineCost(n, depth, opts.format, false) - lineCost(n, depth, opts.format, true);
    for (const k of kids) delta += lineCost(k, depth + 1, opts.format, isElement(k) && (k.children?.length ?? 0) > 0);
    if (used + delta > budget) continue;
    used += delta;
    expanded.add(n);
    for (const k of kids) if (isElement(k) && k.children?.length) queue.push({ n: k, depth: depth + 1 });
  }
  return { expanded, shownRoots };
}

function emitText(nodes: AriaNode[], depth: number, format: RenderFormat, expanded: Set<AriaElement>, out: string[]): void {
  for (const n of nodes) {
    if (!isElement(n)) {
      out.push(stringLine(n, depth, format));
      continue;
    }
    const hasKids = (n.children?.length ?? 0) > 0;
    const open = !hasKids || expanded.has(n);
    out.push(...elementLines(n, depth, format, !open));
    if (open && hasKids) emitText(n.children!, depth + 1, format, expanded, out);
  }
}

function emitJson(nodes: AriaNode[], expanded: Set<AriaElement>): AriaNode[] {
  return nodes.map((n) => {
    if (!isElement(n)) return n;
    const hasKids = (n.children?.length ?? 0) > 0;
    if (!hasKids) return n;
    if (expanded.has(n)) return { ...shallow(n), children: emitJson(n.children!, expanded) } as unknown as AriaElement;
    const c = countSubtree(n);
    return { ...shallow(n), collapsed: { nodes: c.nodes - 1, refs: c.refs - (n.ref ? 1 : 0) } } as unknown as AriaElement;
  });
}

function collectOmitted(nodes: AriaNode[], expanded: Set<AriaElement>, nearestRef: string | undefined, acc: RenderResult): void {
  for (const n of nodes) {
    if (!isElement(n) || !n.children?.length) continue;
    if (expanded.has(n)) {
      collectOmitted(n.children, expanded, n.ref ?? nearestRef, acc);
      continue;
    }
    const c = countSubtree(n);
    acc.omittedNodes += c.nodes - 1;
    acc.omittedRefs += c.refs - (n.ref ? 1 : 0);
    const zoom = n.ref ?? nearestRef;
    if (zoom) acc.collapsed.push({ ref: zoom, role: n.role, ...(n.name ? { name: n.name } : {}), nodes: c.nodes - 1, refs: c.refs - (n.ref ? 1 : 0) });
  }
}

function measure(output: string | AriaNode[]): number {
  return typeof output === 'string' ? output.length : JSON.stringify(output).length;
}

export function renderSnapshot(roots: AriaNode[], opts: RenderOptions): RenderResult {
  let budget = Math.max(0, opts.maxChars);
  let result: RenderResult | null = null;
  // The cost model is an estimate for JSON; re-plan with a tighter budget if it overshot.
  for (let attempt = 0; attempt < 4; attempt++) {
    const { expanded, shownRoots } = plan(roots, opts, budget);
    const shown = roots.slice(0, shownRoots);
    let output: string | AriaNode[];
    if (opts.format === 'json') {
      output = emitJson(shown, expanded);
    } else {
      const lines: string[] = [];
      emitText(shown, 0, opts.format, expanded, lines);
      output = lines.join('\n');
    }
    result = { output, chars: measure(output), truncated: false, omittedNodes: 0, omittedRefs: 0, collapsed: [] };
    collectOmitted(shown, expanded, undefined, result);
    for (const r of roots.slice(shownRoots)) {
      const c = countSubtree(r);
      result.omittedNodes += c.nodes;
      result.omittedRefs += c.refs;
    }
    result.truncated = result.omittedNodes > 0;
    if (result.chars <= opts.maxChars || budget === 0) break;
    budget = Math.floor(budget * (opts.maxChars / result.chars) * 0.95);
  }
  result!.collapsed.sort((a, b) => b.nodes - a.nodes);
  return result!;
}
