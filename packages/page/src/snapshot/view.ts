import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { type AriaElement, type AriaNode, countForest, findRef } from './tree.js';
import { renderSnapshot, type RenderFormat, type RenderOptions } from './render.js';
import { diffSnapshots } from './diff.js';

// GET snapshot: one full-page AI snapshot, then the view the caller asked for (a ref's
// subtree, a depth limit, a diff, a token budget) is cut from it on the server.

export const CHARS_PER_TOKEN = 4;
export const DEFAULT_MAX_TOKENS = 8000;
/** Room kept for the response's own fields around the snapshot text. */
const ENVELOPE_CHARS = 400;

export interface SnapshotViewOptions {
  maxTokens?: number;
  ref?: string;
  /** Page through a wide node: its children (or the page's roots, without ref) from this index. */
  offset?: number;
  depth?: number;
  format?: RenderFormat;
  diff?: boolean;
  timeoutMs: number;
}

export interface SnapshotView {
  snapshotId: string;
  pageId: string;
  url: string;
  title: string;
  format: RenderFormat;
  snapshot?: unknown;
  diff?: ReturnType<typeof diffSnapshots> & { since: string | null };
  tokens: number;
  totalNodes: number;
  totalRefs: number;
  truncated: boolean;
  truncation?: {
    omittedNodes: number;
    omittedRefs: number;
    collapsed: { ref: string; role: string; name?: string; nodes: number; refs: number; more?: number; offset?: number }[];
    hint: string;
  };
}

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

export async function snapshotView(state: PageState, opts: SnapshotViewOptions): Promise<SnapshotView> {
  const { current, previous } = await state.snapshot(opts.timeoutMs);
  const format = opts.format ?? 'yaml';
  const maxTokens = opts.maxTokens ?? DEFAULT_MAX_TOKENS;
  const maxChars = Math.max(100, maxTokens * CHARS_PER_TOKEN - ENVELOPE_CHARS);
  let roots = current.tree;
  if (opts.ref) {
    const node = findRef(current.tree, opts.ref);
    if (!node) {
      const stale = state.isStaleRef(opts.ref);
      throw new AppError(stale ? 'ref_stale' : 'ref_not_found', stale
        ? `Ref ${opts.ref} belongs to a page this tab has navigated away from.`
        : `Ref ${opts.ref} is not in the current snapshot.`, { ref: opts.ref, hint: 'Take a fresh snapshot (without ref) and use a ref from it.' });
    }
    roots = [node];
  }
  const totals = countForest(roots);
  // Paging: the zoomed node's children (or the roots) from `offset` on; what comes before
  // counts as left out, so shown + omitted still adds up to the totals.
  let offset: { node: AriaElement | null; start: number } | undefined;
  let skipped = { nodes: 0, refs: 0 };
  if (opts.offset) {
    const list = opts.ref ? roots[0] as AriaElement : null;
    const items = list ? list.children ?? [] : roots;
    const start = Math.min(opts.offset, items.length);
    skipped = countForest(items.slice(0, start));
    if (list) {
      const sliced: AriaElement = { ...list, children: items.slice(start) };
      roots = [sliced];
      offset = { node: sliced, start };
    } else {
      roots = items.slice(start);
      offset = { node: null, start };
    }
  }
  const [url, title] = [state.page.url(), await state.page.title().catch(() => '')];
  const base = {
    snapshotId: current.id,
    pageId: state.id,
    url,
    title,
    format,
    totalNodes: totals.nodes,
    totalRefs: totals.refs,
  };

  // A diff only makes sense against the same document: on a new page (or the first
  // snapshot of a tab) the caller gets the full snapshot instead.
  if (opts.diff && previous && previous.epoch === current.epoch) {
    const d = diffSnapshots(previous.tree, current.tree);
    // Diffs are bounded like everything else: keep the lists within the budget.
    const view: SnapshotView = { ...base, diff: { since: previous.id, ...d }, tokens: 0, truncated: false };
    let chars = JSON.stringify(view).length;
    if (chars > maxChars) {
      const omitted = { added: 0, removed: 0, changed: 0 };
      const lists = ['changed', 'added', 'removed'] as const;
      while (chars > maxChars && lists.some((k) => view.diff![k].length > 0)) {
        const k = lists.reduce((a, b) => (view.diff![a].length >= view.diff![b].length ? a : b));
        const cut = Math.max(1, Math.ceil(view.diff![k].length / 4));
        (view.diff![k] as unknown[]).splice(-cut, cut);
        omitted[k] += cut;
        chars = JSON.stringify(view).length;
      }
      view.truncated = true;
      view.truncation = {
        omittedNodes: omitted.added + omitted.removed + omitted.changed,
        omittedRefs: omitted.added + omitted.removed + omitted.changed,
        collapsed: [],
        hint: `Diff cut to fit maxTokens=${maxTokens}: ${omitted.changed} changed, ${omitted.added} added, ${omitted.removed} removed entries left out. Take a full snapshot to see the page.`,
      };
    }
    view.tokens = estimateTokens(JSON.stringify(view).length);
    return view;
  }

  // The budget covers the whole response body, not only the snapshot text: JSON
  // escaping (quotes, newlines) and the truncation summary add to it. Render, measure
  // the body, and shrink the text budget until the body fits.
  const limit = maxTokens * CHARS_PER_TOKEN;
  let textBudget = maxChars;
  let maxCollapsed = 20;
  let view!: SnapshotView;
  for (let attempt = 0; attempt < 8; attempt++) {
    view = budgetedView(base, roots, { format, maxChars: textBudget, depth: opts.depth, offset }, maxTokens, maxCollapsed, skipped);
    const chars = JSON.stringify(view).length;
    if (chars <= limit) break;
    if (textBudget <= 100 && maxCollapsed <= 1) break; // cannot get smaller: the envelope alone is over
    if (maxCollapsed > 1 && chars - limit < 2000) maxCollapsed = Math.max(1, maxCollapsed >> 1);
    textBudget = Math.max(100, Math.floor(textBudget * (limit / chars) * 0.97) - 50);
  }
  return view;
}

function budgetedView(base: Omit<SnapshotView, 'snapshot' | 'tokens' | 'truncated'>, roots: AriaNode[], render: RenderOptions, maxTokens: number, maxCollapsed: number, skipped: { nodes: number; refs: number }): SnapshotView {
  const r = renderSnapshot(roots, render);
  const truncated = r.truncated || skipped.nodes > 0;
  const view: SnapshotView = { ...base, snapshot: r.output, tokens: 0, truncated };
  if (truncated) {
    const top = r.collapsed.slice(0, maxCollapsed);
    const omittedNodes = r.omittedNodes + skipped.nodes;
    const omittedRefs = r.omittedRefs + skipped.refs;
    // Point at the fold that leaves out the most, if any: paging on is the usual next step.
    const fold = r.collapsed.find((c) => c.offset !== undefined);
    const before = render.offset?.start ? ` (${skipped.nodes} nodes before offset=${render.offset.start} not shown)` : '';
    const next = fold ? `Page on with ?ref=${fold.ref}&offset=${fold.offset}` : top.length ? `Zoom in with ?ref=${top[0].ref}` : '';
    view.truncation = {
      omittedNodes,
      omittedRefs,
      collapsed: top,
      hint: next
        ? `Left out ${omittedNodes} nodes (${omittedRefs} refs)${before} to fit ${render.depth !== undefined ? `depth=${render.depth} and ` : ''}maxTokens=${maxTokens}. ${next}, or raise maxTokens.`
        : `Left out ${omittedNodes} nodes${before} to fit maxTokens=${maxTokens}; raise maxTokens.`,
    };
  }
  // tokens counts the body it is part of, its own digits included.
  const chars = JSON.stringify(view).length;
  view.tokens = estimateTokens(chars + String(estimateTokens(chars)).length - 1);
  return view;
}
