import type { ActionEffect } from '@ariadne/schema';

// A click that a plain-English description resolved to something a person reads rather than
// operates (a heading, a paragraph, a caption, a cell's text), after which nothing on the page
// reacted, most likely hit the landmark the description used to place the control ("the fourth
// star under 'How are we doing?'", "the › arrow after '1 – 6 of 9'"), not the control itself.
// Answering ok there is a silent wrong pass; the caller gets no_effect instead. Refs and
// selectors are exempt: the caller named exactly that element.

/** Roles of elements that are read, not operated. */
const READ_ONLY_ROLES = new Set([
  'heading', 'paragraph', 'text', 'generic', 'none', 'presentation', 'cell', 'gridcell', 'rowheader',
  'columnheader', 'listitem', 'list', 'img', 'image', 'figure', 'caption', 'status', 'note', 'term',
  'definition', 'blockquote', 'strong', 'emphasis', 'time', 'code', 'label', 'group', 'region',
  'article', 'row', 'rowgroup', 'table', 'banner', 'contentinfo', 'main', 'navigation', 'complementary',
]);

const CLICKS = new Set(['click', 'dblclick']);

/**
 * Did the page react in a way a person sees (DOM, values, navigation)? Requests alone do not
 * count: many pages send a beacon on every click (analytics, click logs), landmark or not.
 * `changed` counts only when the page layer could not watch the document (dom unknown).
 */
export function pageReacted(e: Pick<ActionEffect, 'changed' | 'navigated'> & { dom?: number; values?: boolean }): boolean {
  return Boolean(e.navigated || (e.dom ?? 0) > 0 || e.values || (e.changed && e.dom === undefined));
}

/**
 * Why a described click on a read-only element that changed nothing is not a pass, or null
 * when it stands (a control, a reaction seen, or the effect unknown).
 */
export function inertClick(action: string, target: { role?: string; name?: string } | undefined, effect: (Parameters<typeof pageReacted>[0]) | undefined, extra: { dialog?: boolean; newPages?: number } = {}): string | null {
  if (!CLICKS.has(action) || !target?.role || !effect) return null;
  if (!READ_ONLY_ROLES.has(target.role)) return null;
  if (pageReacted(effect) || extra.dialog || (extra.newPages ?? 0) > 0) return null;
  const what = `${target.role}${target.name ? ` "${target.name.length > 60 ? `${target.name.slice(0, 60)}…` : target.name}"` : ''}`;
  return `The description led to ${what}, which is not a control, and nothing on the page visibly reacted to the ${action} (no DOM change, value or navigation): it most likely names a landmark near the control, not the control.`;
}
