import type { Locator } from 'playwright-core';
import type { ActionEffect } from '@ariadne/schema';

// A click that a plain-English description resolved to something a person reads rather than
// operates (a heading, a paragraph, a caption, a cell's text), after which nothing on the page
// reacted, most likely hit the landmark the description used to place the control ("the fourth
// star under 'How are we doing?'", "the › arrow after '1 – 6 of 9'"), not the control itself.
// Answering ok there is a silent wrong pass; the caller gets no_effect instead. Refs and
// selectors are exempt: the caller named exactly that element.

/**
 * Roles of text that is read, not operated. Generic boxes, images, list items and cells are
 * not here: on weakly built pages they are the click targets (a div tile with a listener, an
 * icon, a row), and one whose handler only sends a request must still pass.
 */
const READ_ONLY_ROLES = new Set([
  'heading', 'paragraph', 'text', 'caption', 'status', 'note', 'term', 'definition', 'blockquote',
  'strong', 'emphasis', 'time', 'code', 'label', 'columnheader', 'rowheader', 'figure',
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
export function inertClick(action: string, target: { role?: string; name?: string; static?: boolean } | undefined, effect: (Parameters<typeof pageReacted>[0]) | undefined, extra: { dialog?: boolean; newPages?: number } = {}): string | null {
  if (!CLICKS.has(action) || !target?.role || !effect) return null;
  if (!READ_ONLY_ROLES.has(target.role) && !target.static) return null;
  if (pageReacted(effect) || extra.dialog || (extra.newPages ?? 0) > 0) return null;
  const what = `${target.role}${target.name ? ` "${target.name.length > 60 ? `${target.name.slice(0, 60)}…` : target.name}"` : ''}`;
  return `The description led to ${what}, which is not a control, and nothing on the page visibly reacted to the ${action} (no DOM change, value or navigation): it most likely names a landmark near the control, not the control.`;
}

/**
 * Signs in the page that the element is meant to be clicked although its role is text: a
 * pointer cursor, an onclick, a tabindex, or an interactive ancestor (a word inside a link).
 */
export async function looksClickable(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => {
    const interactive = 'a[href], button, input, select, textarea, summary, label, [onclick], [tabindex], [role=button], [role=link], [role=menuitem], [role=tab], [role=checkbox], [role=switch], [role=option]';
    if (el.closest(interactive)) return true;
    return getComputedStyle(el).cursor === 'pointer';
  }, undefined, { timeout: 1000 }).catch(() => true);
}
