import { AppError } from '@ariadne/schema';
import type { PageState, SnapshotRecord } from '../page-state.js';
import { type AriaElement, type AriaNode, type Counts, countForest, findRef } from './tree.js';
import { renderSnapshot, type RenderFormat, type RenderOptions, type RenderResult } from './render.js';
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
  /** The page's title as the caller just read it (an action's settle wait does): no round trip for it (undefined: read it). */
  title?: string | Promise<string | undefined>;
  /**
   * The snapshot must run in the page after the Playwright calls already sent (an action's
   * settle look): it then takes Playwright's public path, which keeps their order.
   */
  afterPendingCalls?: boolean;
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

/** How long a title read may be served again while the page's snapshot does not change. */
export const TITLE_REUSE_MS = 2000;

/**
 * The page's title for this snapshot. Reading it is a round trip to the page that costs
 * the server about as much CPU as the rest of a small snapshot, so while the tree is
 * unchanged (same document, same nodes) the title read with the previous snapshot is
 * served again, for at most TITLE_REUSE_MS; then, and on any change, it is read again.
 */
async function titleFor(state: PageState, current: SnapshotRecord, previous: SnapshotRecord | null): Promise<string> {
  const known = state.titleRead;
  const now = Date.now();
  if (known && current.unchanged && previous && known.snapshotId === previous.id && now - known.at < TITLE_REUSE_MS) {
    known.snapshotId = current.id;
    return known.title;
  }
  const title = await state.page.title().catch(() => '');
  state.titleRead = { title, snapshotId: current.id, at: now };
  return title;
}

/**
 * Renders of one tree, kept per tab while the page does not change: a page polled while
 * nothing happens answers a deep-equal tree again and again (SnapshotRecord.unchanged), and
 * rendering is a pure function of the tree and the options, so the render of the previous
 * snapshot is served again for the same options. A memo object always stands for one tree
 * content: any change (or a new document) starts a new one.
 */
interface RenderMemo {
  /** The latest snapshot whose tree this memo's renders are of. */
  snapshotId: string;
  renders: Map<string, RenderResult>;
  /** Per scope (ref, offset): the totals and what paging skipped, counted once. */
  counts: Map<string, { totals: Counts; skipped: Counts }>;
}
const renderMemos = new WeakMap<PageState, RenderMemo>();
/** Renders kept per tab (one per option set and text budget; a poller uses one or two). */
export const RENDER_MEMO_ENTRIES = 4;
/** Larger renders (a caller's very large maxTokens) are not kept: memory per tab stays bounded. */
export const RENDER_MEMO_MAX_CHARS = 200_000;

function renderMemo(state: PageState, current: SnapshotRecord, previous: SnapshotRecord | null): RenderMemo {
  const known = renderMemos.get(state);
  if (known && current.unchanged && previous && known.snapshotId === previous.id) {
    known.snapshotId = current.id;
    return known;
  }
  const fresh: RenderMemo = { snapshotId: current.id, renders: new Map(), counts: new Map() };
  renderMemos.set(state, fresh);
  return fresh;
}

/** renderSnapshot through the tab's memo; `scope` names what roots are (ref, offset). */
function memoRender(memo: RenderMemo, scope: string, roots: AriaNode[], render: RenderOptions): RenderResult {
  const key = `${scope}|${render.format}|${render.maxChars}|${render.depth ?? ''}`;
  const hit = memo.renders.get(key);
  if (hit) return hit;
  const r = renderSnapshot(roots, render);
  if (r.chars <= RENDER_MEMO_MAX_CHARS) remember(memo.renders, key, r);
  return r;
}

function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= RENDER_MEMO_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, value);
}

export async function snapshotView(state: PageState, opts: SnapshotViewOptions): Promise<SnapshotView> {
  const { current, previous } = await state.snapshot(opts.timeoutMs, { afterPendingCalls: opts.afterPendingCalls });
  const memo = renderMemo(state, current, previous);
  const scope = `${opts.ref ?? ''}|${opts.offset ?? ''}`;
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
  const counted = memo.counts.get(scope);
  const totals = counted?.totals ?? countForest(roots);
  // Paging: the zoomed node's children (or the roots) from `offset` on; what comes before
  // counts as left out, so shown + omitted still adds up to the totals.
  let offset: { node: AriaElement | null; start: number } | undefined;
  let skipped = { nodes: 0, refs: 0 };
  if (opts.offset) {
    const list = opts.ref ? roots[0] as AriaElement : null;
    const items = list ? list.children ?? [] : roots;
    const start = Math.min(opts.offset, items.length);
    skipped = counted?.skipped ?? countForest(items.slice(0, start));
    if (list) {
      const sliced: AriaElement = { ...list, children: items.slice(start) };
      roots = [sliced];
      offset = { node: sliced, start };
    } else {
      roots = items.slice(start);
      offset = { node: null, start };
    }
  }
  if (!counted) remember(memo.counts, scope, { totals, skipped });
  const url = state.page.url();
  const given = await opts.title;
  const title = given ?? (await titleFor(state, current, previous));
  if (given !== undefined) state.titleRead = { title, snapshotId: current.id, at: Date.now() };
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
    let chars: number;
    const render: RenderOptions = { format, maxChars: textBudget, depth: opts.depth, offset };
    ({ view, chars } = budgetedView(base, memoRender(memo, scope, roots, render), render, maxTokens, maxCollapsed, skipped));
    if (chars <= limit) break;
    if (textBudget <= 100 && maxCollapsed <= 1) break; // cannot get smaller: the envelope alone is over
    if (maxCollapsed > 1 && chars - limit < 2000) maxCollapsed = Math.max(1, maxCollapsed >> 1);
    textBudget = Math.max(100, Math.floor(textBudget * (limit / chars) * 0.97) - 50);
  }
  return view;
}

/** The view of this render (cut to render.maxChars), and the length of its JSON body. */
function budgetedView(base: Omit<SnapshotView, 'snapshot' | 'tokens' | 'truncated'>, r: RenderResult, render: RenderOptions, maxTokens: number, maxCollapsed: number, skipped: { nodes: number; refs: number }): { view: SnapshotView; chars: number } {
  const truncated = r.truncated || skipped.nodes > 0;
  const view: SnapshotView = { ...base, snapshot: r.output, tokens: 0, truncated };
  if (truncated) {
    const top = r.collapsed.slice(0, maxCollapsed).map((c) => ({ ...c })); // the render may be memoized: copies
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
  // tokens counts the body it is part of, its own digits included (measured with tokens: 0,
  // one digit): measured once, here.
  const chars = JSON.stringify(view).length;
  view.tokens = estimateTokens(chars + String(estimateTokens(chars)).length - 1);
  return { view, chars: chars - 1 + String(view.tokens).length };
}
