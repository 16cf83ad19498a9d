import type { Static } from 'typebox';
import type { SnapshotDiff } from './page.js';

// A snapshot diff (the page layer's, with text on added nodes and a summary on changed ones)
// as lines a person or a model reads. One renderer for the page layer, the MCP server (an
// HTTP client: it shares only this package) and the model planner.

export type DiffLike = Pick<Static<typeof SnapshotDiff>, 'added' | 'removed' | 'changed'>;

export interface DiffWordsOptions {
  /** `[e5]` (beside a snapshot's `[ref=e5]`) or `(ref e5)` (for models told refs apart from snapshot lines). */
  refs?: 'brackets' | 'words';
  maxLines?: number;
  /** The last line when lines were cut (default "… N more changes"). */
  more?: (n: number) => string;
}

const q = (s: string) => JSON.stringify(s.length > 120 ? `${s.slice(0, 119)}…` : s);

/** Only the focus moved (a clicked button becomes [active]): not the page reacting. */
export function focusOnlyChange(c: { before?: unknown; after?: unknown }): boolean {
  const b = (c.before ?? {}) as Record<string, unknown>;
  const a = (c.after ?? {}) as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter((k) => JSON.stringify(b[k]) !== JSON.stringify(a[k]));
  return keys.length > 0 && keys.every((k) => k === 'active' || k === 'focused');
}

export function diffInWords(d: DiffLike, opts: DiffWordsOptions = {}): string[] {
  const ref = (r: string) => (opts.refs === 'words' ? `(ref ${r})` : `[${r}]`);
  const inRef = (r: string) => (opts.refs === 'words' ? `in ref ${r}` : `in ${r}`);
  const lines: string[] = [];
  for (const x of d.added) lines.push(`+ ${x.role}${x.name ? ` ${q(x.name)}` : ''}${x.text ? `: ${q(x.text)}` : ''} ${ref(x.ref)}${x.parentRef ? ` ${inRef(x.parentRef)}` : ''}`);
  for (const x of d.removed) lines.push(`- ${x.role}${x.name ? ` ${q(x.name)}` : ''} ${ref(x.ref)}`);
  for (const x of d.changed) {
    if (focusOnlyChange(x)) continue;
    lines.push(`~ ${x.role ? `${x.role}${x.name ? ` ${q(x.name)}` : ''} ` : ''}${ref(x.ref)}: ${x.summary}`);
  }
  const max = opts.maxLines ?? 60;
  if (lines.length > max) return [...lines.slice(0, max), (opts.more ?? ((n) => `… ${n} more changes`))(lines.length - max)];
  return lines;
}
