import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { countForest, findRef } from './tree.js';
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

  if (opts.diff && previous) {
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

  const r = renderSnapshot(roots, { format, maxChars, depth: opts.depth });
  const view: SnapshotView = { ...base, snapshot: r.output, tokens: 0, truncated: r.truncated };
  if (r.truncated) {
    const top = r.collapsed.slice(0, 20);
    view.truncation = {
      omittedNodes: r.omittedNodes,
      omittedRefs: r.omittedRefs,
      collapsed: top,
      hint: top.length
        ? `Left out ${r.omittedNodes} nodes (${r.omittedRefs} refs) to fit ${opts.depth !== undefined ? `depth=${opts.depth} and ` : ''}maxTokens=${maxTokens}. Zoom in with ?ref=${top[0].ref}, or raise maxTokens.`
        : `Left out ${r.omittedNodes} nodes to fit maxTokens=${maxTokens}; raise maxTokens.`,
    };
  }
  view.tokens = estimateTokens(JSON.stringify(view).length);
  return view;
}
