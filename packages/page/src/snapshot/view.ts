import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { type AriaNode, countForest, findRef } from './tree.js';
import { renderSnapshot, type RenderFormat } from './render.js';
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
    collapsed: { ref: string; role: string; name?: string; nodes: number; refs: number }[];
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
    view = budgetedView(base, roots, { format, maxChars: textBudget, depth: opts.depth }, maxTokens, maxCollapsed);
    const chars = JSON.stringify(view).length;
    if (chars <= limit) break;
    if (textBudget <= 100 && maxCollapsed <= 1) break; // cannot get smaller: the envelope alone is over
    if (maxCollapsed > 1 && chars - limit < 2000) maxCollapsed = Math.max(1, maxCollapsed >> 1);
    textBudget = Math.max(100, Math.floor(textBudget * (limit / chars) * 0.97) - 50);
  }
  return view;
}

function budgetedView(base: Omit<SnapshotView, 'snapshot' | 'tokens' | 'truncated'>, roots: AriaNode[], render: { format: RenderFormat; maxChars: number; depth?: number }, maxTokens: number, maxCollapsed: number): SnapshotView {
  const r = renderSnapshot(roots, render);
  const view: SnapshotView = { ...base, snapshot: r.output, tokens: 0, truncated: r.truncated };
  if (r.truncated) {
    const top = r.collapsed.slice(0, maxCollapsed);
    view.truncation = {
      omittedNodes: r.omittedNodes,
      omittedRefs: r.omittedRefs,
      collapsed: top,
      hint: top.length
        ? `Left out ${r.omittedNodes} nodes (${r.omittedRefs} refs) to fit ${render.depth !== undefined ? `depth=${render.depth} and ` : ''}maxTokens=${maxTokens}. Zoom in with ?ref=${top[0].ref}, or raise maxTokens.`
        : `Left out ${r.omittedNodes} nodes to fit maxTokens=${maxTokens}; raise maxTokens.`,
    };
  }
  // tokens counts the body it is part of, its own digits included.
  const chars = JSON.stringify(view).length;
  view.tokens = estimateTokens(chars + String(estimateTokens(chars)).length - 1);
  return view;
}
