import { isElement, type AriaElement } from '../snapshot/tree.js';

// "the × at the right end of the purple announcement bar", "the Dismiss link in the cookie
// notice": a notice by what it is, when the page does not show those words. A notice bar is a
// strip of the page itself (not inside the main content, a list, a table, a form or a dialog):
// a sentence or more of its own text and at most three controls. Used by the matcher as a
// scope, like the selection bar and the blank row.

/** Scope words that say a notice is meant, not its text ("announcement", "the cookie banner"). */
export const NOTICE_WORDS = /^(?:the\s+)?(?:(?:site|top|global|promo(?:tional)?|promotion|marketing|sale|release|cookies?|consent|gdpr|info(?:rmation)?|news|update|maintenance|warning|beta)\s+)?(?:announcement|notice|notification|banner|promo(?:tion)?|cookies?(?:\s+consent)?|consent|alert|info|news|update|message)(?:\s+(?:bar|banner|strip|notice|message|box|area|ribbon))?$/i;

const CONTROL = new Set(['button', 'link', 'checkbox', 'switch', 'radio', 'combobox', 'textbox', 'menuitem', 'tab', 'option']);
const INSIDE = new Set(['main', 'article', 'list', 'listitem', 'table', 'row', 'grid', 'form', 'dialog', 'alertdialog', 'navigation', 'menu', 'listbox', 'tablist']);

/** Does this container look like a notice bar: its own words (three or more), one to three controls? */
function isNoticeBar(a: AriaElement): boolean {
  let controls = 0;
  const words: string[] = [];
  const walk = (e: AriaElement) => {
    if (CONTROL.has(e.role) || e.cursor === 'pointer') { controls++; return; }
    if (typeof e.text === 'string') words.push(e.text);
    for (const c of e.children ?? []) if (typeof c === 'string') words.push(c); else walk(c);
  };
  for (const c of a.children ?? []) if (typeof c === 'string') words.push(c); else if (isElement(c)) walk(c);
  return controls >= 1 && controls <= 3 && words.join(' ').split(/\s+/).filter((w) => /\p{L}/u.test(w)).length >= 3;
}

/** The notice bar holding a control (its nearest three containers), or null; never one inside content. */
export function noticeBarOf(ancestors: AriaElement[]): AriaElement | null {
  if (ancestors.some((a) => INSIDE.has(a.role))) return null;
  for (const a of ancestors.slice(-3).reverse()) if (isNoticeBar(a)) return a;
  return null;
}
