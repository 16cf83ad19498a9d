import type { PageState } from '../page-state.js';
import { Bridge, type World } from '../bridge/bridge.js';
import { resolveInspectTarget } from '../bridge/targets.js';
import type { AncestorFacts, AnchorsFacts, Attrs, ContainerFacts, PatternFacts } from '../bridge/protocol.js';
import { indexRefs } from '../snapshot/tree.js';
import { ariaPath, descendantRefs, pathRefsToResolve } from './aria-path.js';
import { clip, dropTail, tokensOf, fitToBudget } from './budget.js';
import { newListId, refsOfListed } from '../targeting/selector.js';

// The exploration primitives of seed 000 (resolve_container, inspect_pattern,
// extract_anchors) over HTTP: one in-page call each, facts only, bounded by hard
// caps in the page and by a token budget here.

export type FactsFormat = 'json' | 'text';

export interface ExploreEnvelope {
  ref: string;
  url: string;
  format: FactsFormat;
  tokens: number;
  truncated: boolean;
  /** Set when the target is inside an iframe. */
  frame?: { url: string; name?: string };
  text?: string;
}

export interface ContainsRefs {
  count: number;
  refs: string[];
  /** False when the count is a lower bound (refs on a long path were not all resolved). */
  complete: boolean;
}

export interface ContainerAncestor extends Omit<AncestorFacts, 'outerRefInside'> {
  containsRefs?: ContainsRefs;
}

export interface ContainerResponse extends ExploreEnvelope {
  target?: ContainerFacts['target'];
  ancestors?: ContainerAncestor[];
  /** Why containsRefs is missing, when it is. */
  note?: string;
  omitted?: { refs: number; ancestors: number };
}

export type PatternResponse = ExploreEnvelope & Partial<PatternFacts>;
export type AnchorsResponse = ExploreEnvelope & Partial<AnchorsFacts>;

const DEFAULTS = {
  containerTokens: 1500,
  patternTokens: 2500,
  anchorsTokens: 2000,
  firstRefs: 5,
};

function frameOf(world: World): { url: string; name?: string } | undefined {
  if (!world.parentId) return undefined;
  return { url: world.url, ...(world.name ? { name: world.name } : {}) };
}

export function attrsText(a: Attrs): string {
  const parts = Object.entries(a).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  return parts.length ? ` [${parts.join(' ')}]` : '';
}

// ---- container ---------------------------------------------------------------

export async function exploreContainer(
  state: PageState,
  opts: { ref: string; maxTokens?: number; format?: FactsFormat; maxRefs?: number },
): Promise<ContainerResponse> {
  const bridge = Bridge.for(state);
  const target = await resolveInspectTarget(state, { ref: opts.ref });
  const tree = state.lastSnapshot?.tree;
  const path = tree ? ariaPath(tree, opts.ref) : null;
  const pathRefs = path ? pathRefsToResolve(path) : [];
  const items = [{ locator: target.locator, tag: 'target', single: true }, ...pathRefs.map((r) => ({ locator: state.page.locator(`aria-ref=${r}`), tag: r, single: true, optional: true }))];
  const { result, world } = await bridge.runOnCaught<ContainerFacts>(items, 'container', { pathRefs, maxText: 80 });
  const resolved = result.resolvedPathRefs;

  const index = tree ? indexRefs(tree) : new Map();
  const allPathRefs = path ? path.map((n) => n.ref).filter((r): r is string => !!r) : [];
  // A target inside an iframe: path refs up to the <iframe> node live in the parent
  // document, outside every ancestor reported here.
  const iframeNode = world.parentId && path ? [...path].reverse().find((n) => n.role === 'iframe' && n.ref) : undefined;
  const boundary = iframeNode ? allPathRefs.indexOf(iframeNode.ref!) : -1;
  const settled = new Set([...resolved, ...allPathRefs.slice(0, boundary + 1)]);
  const firstRefs = opts.maxRefs ?? DEFAULTS.firstRefs;
  const targetNode = index.get(opts.ref);
  const last = result.ancestors.length - 1;
  const ancestors: ContainerAncestor[] = result.ancestors.map((a, i) => {
    const { outerRefInside, ...rest } = a;
    const out: ContainerAncestor = { ...rest };
    const contains = (refs: string[], complete: boolean) => {
      out.containsRefs = { count: refs.length, refs: refs.slice(0, firstRefs), complete };
    };
    if (outerRefInside && index.has(outerRefInside)) {
      const node = index.get(outerRefInside)!;
      const refs = a.ref === outerRefInside ? descendantRefs(node) : [outerRefInside, ...descendantRefs(node)];
      // A path ref between this one and the next settled outer ref was skipped: the count may be low.
      const at = allPathRefs.indexOf(outerRefInside);
      const outer = allPathRefs.slice(0, at).filter((r) => settled.has(r));
      const prevAt = outer.length ? allPathRefs.indexOf(outer[outer.length - 1]) : -1;
      contains(refs, a.ref === outerRefInside || at - prevAt <= 1);
    } else if (iframeNode && i === last && a.tagName === 'body') {
      // The frame's body holds everything the snapshot shows under its <iframe>.
      contains(descendantRefs(iframeNode), true);
    } else if (targetNode) {
      // No path ref of this document resolved inside: the target's own subtree at least.
      contains([opts.ref, ...descendantRefs(targetNode)], false);
    }
    return out;
  });

  const response: ContainerResponse = {
    ref: opts.ref,
    url: state.page.url(),
    format: opts.format ?? 'json',
    tokens: 0,
    truncated: false,
    ...(frameOf(world) ? { frame: frameOf(world) } : {}),
    target: result.target,
    ancestors,
  };
  if (!path) response.note = tree ? 'The ref is not in the latest snapshot: containsRefs is left out.' : 'No snapshot taken on this page yet: containsRefs is left out.';
  return finish(response, opts.maxTokens ?? DEFAULTS.containerTokens, renderContainer, [
    (r) => shrinkRefs(r, 2),
    (r) => shrinkRefs(r, 0),
    (r) => {
      // Last resort: the outermost ancestors go (counted), the nearest stay.
      if (!r.ancestors || r.ancestors.length <= 3) return false;
      r.ancestors.pop();
      r.omitted = { refs: r.omitted?.refs ?? 0, ancestors: (r.omitted?.ancestors ?? 0) + 1 };
      return true;
    },
  ]);
}

/**
 * One bridge analysis on the element of a ref, wrapped in the envelope every
 * exploration response shares (ref, url, format, frame; tokens filled by finish()).
 */
async function factsAtRef<F extends object>(
  state: PageState,
  opts: { ref: string; format?: FactsFormat },
  analysis: 'pattern' | 'anchors',
  args: Record<string, unknown>,
) {
  const target = await resolveInspectTarget(state, { ref: opts.ref });
  const listId = newListId();
  const { result, world } = await Bridge.for(state).runOnCaught<F>([{ locator: target.locator, tag: 'target', single: true }], analysis, { ...args, listId } as never);
  // Each sibling / anchor with the ref to act on it, in entry order.
  const refs = await refsOfListed(state, world, listId);
  const entries = ((result as { siblings?: { ref?: string }[]; descendants?: { ref?: string }[] }).siblings ?? (result as { descendants?: { ref?: string }[] }).descendants ?? []);
  entries.forEach((e, k) => {
    if (refs[k]) e.ref = refs[k]!;
  });
  return {
    ref: opts.ref,
    url: state.page.url(),
    format: opts.format ?? 'json',
    tokens: 0,
    truncated: false,
    ...(frameOf(world) ? { frame: frameOf(world) } : {}),
    ...result,
  };
}

function shrinkRefs(r: ContainerResponse, to: number): boolean {
  let changed = false;
  for (const a of r.ancestors ?? []) {
    if (a.containsRefs && a.containsRefs.refs.length > to) {
      r.omitted = { refs: (r.omitted?.refs ?? 0) + a.containsRefs.refs.length - to, ancestors: r.omitted?.ancestors ?? 0 };
      a.containsRefs.refs = a.containsRefs.refs.slice(0, to);
      changed = true;
    }
  }
  return changed;
}

export function renderContainer(r: ContainerResponse): string {
  const lines: string[] = [];
  if (r.target) lines.push(`target ${r.ref}: ${r.target.tagName}${attrsText(r.target.attributes)}${r.target.text ? ` ${JSON.stringify(r.target.text)}` : ''}`);
  if (r.frame) lines.push(`in frame ${JSON.stringify(r.frame.url)}${r.frame.name ? ` name=${JSON.stringify(r.frame.name)}` : ''}`);
  for (const a of r.ancestors ?? []) {
    let line = `L${a.level} ${a.tagName}${attrsText(a.attributes)} children=${a.childElements}`;
    if (a.shadowHost) line += ' shadow-host';
    if (a.ref) line += ` ref=${a.ref}`;
    if (a.containsRefs) {
      const c = a.containsRefs;
      line += ` refs=${c.count}${c.complete ? '' : '+'}`;
      if (c.refs.length) line += ` (${c.refs.join(' ')}${c.count > c.refs.length ? ' …' : ''})`;
    }
    lines.push(line);
  }
  if (r.omitted?.ancestors) lines.push(`… ${r.omitted.ancestors} outer ancestors omitted`);
  if (r.note) lines.push(`note: ${r.note}`);
  return lines.join('\n');
}

/** Measure in the requested format, trim to budget, and fill in tokens/truncated (and text). */
function finish<T extends ExploreEnvelope>(r: T, maxTokens: number, render: (r: T) => string, steps: ((r: T) => boolean)[]): T {
  const text = r.format === 'text';
  const measure = (v: T) => tokensOf(text ? render(v) : v);
  const fitted = fitToBudget(r, maxTokens, measure, steps);
  const out = fitted.value;
  out.truncated = fitted.truncated;
  if (text) {
    const body = render(out);
    out.tokens = tokensOf(body);
    // Text mode: the facts travel as text only.
    const envelope: ExploreEnvelope = { ref: out.ref, url: out.url, format: 'text', tokens: out.tokens, truncated: out.truncated, text: body };
    if (out.frame) envelope.frame = out.frame;
    return envelope as T;
  }
  // Twice: the count is itself part of the body it measures.
  out.tokens = tokensOf(out);
  out.tokens = tokensOf(out);
  return out;
}

// ---- pattern -----------------------------------------------------------------

export async function explorePattern(
  state: PageState,
  opts: { ref: string; level: number; maxTokens?: number; format?: FactsFormat; maxSiblings?: number },
): Promise<PatternResponse> {
  const response: PatternResponse = await factsAtRef<PatternFacts>(state, opts, 'pattern', {
    level: opts.level,
    maxSiblings: opts.maxSiblings ?? 24,
    maxText: 60,
    maxTextItems: 4,
    maxOutline: 4,
  });
  const keepTarget = (s: { containsTarget?: true }) => !!s.containsTarget;
  return finish(response, opts.maxTokens ?? DEFAULTS.patternTokens, renderPattern, [
    (r) => {
      // Fewer siblings first: the repetition shows in a handful.
      if ((r.siblings?.length ?? 0) <= 4) return false;
      dropTail(r.siblings!, 0.25, keepTarget);
      r.omitted = { siblings: r.totalSiblings! - r.siblings!.length };
      return true;
    },
    (r) => trimEach(r.siblings ?? [], (s) => {
      if (s.containsText.length <= 2) return false;
      s.textOmitted = (s.textOmitted ?? 0) + s.containsText.length - 2;
      s.containsText = s.containsText.slice(0, 2);
      return true;
    }),
    (r) => trimEach(r.siblings ?? [], (s) => {
      if (s.outline.length <= 1) return false;
      s.outlineOmitted = (s.outlineOmitted ?? 0) + s.outline.length - 1;
      s.outline = s.outline.slice(0, 1);
      return true;
    }),
    (r) => {
      if ((r.siblings?.length ?? 0) <= 1) return false;
      dropTail(r.siblings!, 0.5, keepTarget);
      r.omitted = { siblings: r.totalSiblings! - r.siblings!.length };
      return (r.siblings?.length ?? 0) >= 1;
    },
    (r) => trimEach(r.siblings ?? [], (s) => {
      const before = JSON.stringify(s.containsText) + JSON.stringify(s.outline);
      s.containsText = s.containsText.map((t) => clip(t, 24));
      s.outline = s.outline.map((o) => (o.text ? { ...o, text: clip(o.text, 24) } : o));
      return before !== JSON.stringify(s.containsText) + JSON.stringify(s.outline);
    }),
  ]);
}

function trimEach<T>(list: T[], f: (x: T) => boolean): boolean {
  let changed = false;
  for (const x of list) changed = f(x) || changed;
  return changed;
}

export function renderPattern(r: PatternResponse): string {
  const lines: string[] = [];
  const c = r.containerAt!;
  lines.push(`container L${r.ancestorLevel}: ${c.tagName}${attrsText(c.attributes)}${r.inShadowRoot ? ' (shadow root children)' : ''}`);
  if (r.frame) lines.push(`in frame ${JSON.stringify(r.frame.url)}`);
  lines.push(`siblings: ${r.totalSiblings}, target in [${r.targetSiblingIndex}]${r.omitted?.siblings ? `, ${r.omitted.siblings} not shown` : ''}`);
  for (const s of r.siblings ?? []) {
    lines.push(`[${s.index}]${s.containsTarget ? '*' : ''} ${s.tagName}${attrsText(s.attributes)} children=${s.childElements}${(s as { ref?: string }).ref ? ` ref=${(s as { ref?: string }).ref}` : ''}`);
    if (s.containsText.length) lines.push(`    text: ${s.containsText.map((t) => JSON.stringify(t)).join(' | ')}${s.textOmitted ? ` (+${s.textOmitted})` : ''}`);
    if (s.outline.length) {
      const o = s.outline.map((i) => `${i.role ?? i.tag}${i.testId ? `#${i.testId}` : ''}${i.text ? ` ${JSON.stringify(i.text)}` : ''}`);
      lines.push(`    outline: ${o.join(', ')}${s.outlineOmitted ? ` (+${s.outlineOmitted})` : ''}`);
    }
  }
  return lines.join('\n');
}

// ---- anchors -----------------------------------------------------------------

export async function exploreAnchors(
  state: PageState,
  opts: { ref: string; level: number; maxTokens?: number; format?: FactsFormat; maxDescendants?: number; maxDepth?: number },
): Promise<AnchorsResponse> {
  const response: AnchorsResponse = await factsAtRef<AnchorsFacts>(state, opts, 'anchors', {
    level: opts.level,
    maxDescendants: opts.maxDescendants ?? 60,
    maxDepth: opts.maxDepth ?? 12,
    maxText: 80,
    scanLimit: 50_000,
  });
  return finish(response, opts.maxTokens ?? DEFAULTS.anchorsTokens, renderAnchors, [
    (r) => {
      const list = r.descendants ?? [];
      if (list.length <= 1) return false;
      const removed = dropTail(list, 0.25, (a) => !!a.isTarget);
      r.omitted = { anchors: r.omitted!.anchors + removed, beyondDepth: r.omitted!.beyondDepth };
      return removed > 0;
    },
  ]);
}

export function renderAnchors(r: AnchorsResponse): string {
  const lines: string[] = [];
  const a = r.ancestorAt!;
  lines.push(`anchors in L${a.level} ${a.tagName}${attrsText(a.attributes)}: ${r.totalAnchors} found, ${r.descendants?.length ?? 0} shown${r.omitted?.anchors ? `, ${r.omitted.anchors} omitted` : ''}`);
  for (const d of r.descendants ?? []) {
    const text = d.fullText ?? d.directText;
    const flags = [d.isTarget ? 'target' : '', d.containsTarget ? 'has-target' : '', d.hidden ? 'hidden' : ''].filter(Boolean);
    lines.push(`${'  '.repeat(Math.max(0, d.depth - 1))}d${d.depth}[${d.index}] ${d.tagName}${d.role && d.role !== d.tagName ? `(${d.role})` : ''}${attrsText(d.attributes)}${text ? ` ${JSON.stringify(text)}` : ''}${flags.length ? ` {${flags.join(',')}}` : ''}${(d as { ref?: string }).ref ? ` ref=${(d as { ref?: string }).ref}` : ''}`);
  }
  if (r.scanLimitReached) lines.push(`scan stopped at ${r.scannedElements} elements`);
  return lines.join('\n');
}
