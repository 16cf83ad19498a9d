// In-page, for the surface pass: drop-downs drawn without ARIA (jQuery Chosen's a.chosen-single,
// an old mat-select without a role, a hand-written div select, a Bootstrap dropdown button used
// as a select). select-shape.ts reads the shape (a box with one short value and a caret, or a
// class word that says select); here the pass decides, conservatively, that it is a value box
// and not a menu button, and names it by the text a person reads as its label.
//
// Kept when: a person can click it (the caller's evidence), nothing says it opens a menu (an
// aria-haspopup=menu, a list of menuitems or links beside it, a list beside it that does not
// hold the value it shows), and something says it holds a value: a label beside it, a class
// word (mat-select, chosen-single, custom-select ...), or the value it shows among the choices
// of the hidden list beside it.

import { type SelectRead, readDrawnSelect } from './select-shape.js';
import { norm, readText, readable } from './surface-names.js';

export interface SelectFound {
  read: SelectRead;
  name: { name: string; from: string } | null;
  pointer: boolean;
}

const MAX_NAME = 60;
const LABEL_TAGS = new Set(['label', 'mat-label', 'span', 'div', 'b', 'strong', 'em', 'small', 'font', 'dt', 'td', 'th', 'legend']);
const LIST = 'ul, ol, [role=listbox], [role=menu], [class*=menu], [class*=drop], [class*=list], [class*=option], [class*=result]';

function shown(el: Element): boolean {
  const r = el.getBoundingClientRect();
  // Off-screen (a closed drop parked at left:-9999px) is hidden too.
  if (r.width <= 1 || r.height <= 1 || r.right <= 0 || r.bottom <= 0) return false;
  const s = getComputedStyle(el);
  return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0;
}

/** Drop-down shaped elements among those given; of two within three levels, the outer one. */
export function selectShapes(elements: Iterable<Element>, clickable: (el: Element) => boolean): Map<Element, SelectRead> {
  const found = new Map<Element, SelectRead>();
  for (const el of elements) {
    // Cheap tests first: most elements of a large page hold too much to be a drop-down's box.
    if (el.childElementCount > 12 || el instanceof SVGElement) continue;
    const len = (el.textContent ?? '').length;
    if (len === 0 || len > 1500) continue;
    // A box shows one short value; more text is only its own hidden list of choices. Checked
    // before any layout read: on a 5,000-element page every box would be walked otherwise.
    if (len > 80 && (el.textContent ?? '').trim().length > 80 && !el.querySelector('ul, ol, [role=listbox], select, [class*=option], [class*=drop]')) continue;
    const r = readDrawnSelect(el, clickable);
    if (r) found.set(el, r);
  }
  for (const el of [...found.keys()]) {
    for (let up = el.parentElement, i = 0; up && i < 3; up = up.parentElement, i++) {
      if (found.has(up)) { found.delete(el); break; }
    }
  }
  return found;
}

/** The texts of a list's items (its leaves with text), at most 50. */
function itemTexts(list: Element): { texts: string[]; links: number; menuitems: number } {
  const texts: string[] = [];
  let links = 0;
  const menuitems = list.querySelectorAll('[role=menuitem], [role=menuitemcheckbox], [role=menuitemradio]').length + (list.getAttribute('role') === 'menu' ? 1 : 0);
  for (const a of Array.from(list.querySelectorAll('a[href]'))) if (!/^#?$|^javascript:/i.test(a.getAttribute('href') ?? '')) links++;
  for (const e of Array.from(list.querySelectorAll('li, [role=option], a, div, span')).slice(0, 200)) {
    if (e.querySelector('li, [role=option], a, div')) continue;
    const t = norm(e.textContent);
    if (t && t.length <= 80) texts.push(t);
    if (texts.length >= 50) break;
  }
  return { texts, links, menuitems };
}

/**
 * What the hidden list beside it says: 'menu' (menu items, links that go somewhere, choices that
 * do not hold the value shown), 'listed' (the value shown is one of its choices), or null (no
 * list in the page yet: an overlay built on open).
 */
export function listBeside(el: Element, value: string): 'menu' | 'listed' | null {
  const lists: Element[] = [];
  const ctl = (el.getAttribute('aria-controls') ?? el.getAttribute('aria-owns') ?? '').split(/\s+/)[0];
  const byId = ctl ? (el.getRootNode() as Document | ShadowRoot).getElementById?.(ctl) : null;
  if (byId) lists.push(byId);
  for (const root of [el, el.parentElement]) {
    if (!root) continue;
    for (let s = root.nextElementSibling; s && lists.length < 4; s = s.nextElementSibling) if (s.matches(LIST) || s.querySelector('li, [role=option], [role=menuitem]')) lists.push(s);
    if (lists.length) break;
  }
  for (const l of Array.from(el.querySelectorAll(LIST))) if (!shown(l)) lists.push(l);
  const want = value.toLowerCase();
  let sawItems = false;
  for (const l of lists) {
    const { texts, links, menuitems } = itemTexts(l);
    if (menuitems || links) return 'menu';
    if (!texts.length) continue;
    sawItems = true;
    if (texts.some((t) => t.toLowerCase() === want)) return 'listed';
  }
  // Choices beside it that do not hold what it shows: a menu's actions under a title ("Actions ▾"),
  // unless what it shows reads as a prompt ("-- Select --", "Choose a role").
  if (sawItems && !/^[-–—\s]*(?:select|choose|pick|please|none|any|all)\b/i.test(value)) return 'menu';
  return null;
}

function clip(s: string): string {
  return s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s;
}

/** Visible text in `scope` outside `skip` (bounded). */
function textOutside(scope: Element, skip: Element): string {
  let out = '';
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(), i = 0; t && i < 200; t = walker.nextNode(), i++) {
    if (skip.contains(t) || !t.parentElement || !/[\p{L}\p{N}]/u.test(t.nodeValue ?? '')) continue;
    if (t.parentElement.closest('script, style, template') || !shown(t.parentElement)) continue;
    out += ` ${t.nodeValue}`;
  }
  return norm(out);
}

function labelLike(e: Element, heading: boolean): string | null {
  if (!heading && !LABEL_TAGS.has(e.localName)) return null;
  if (e.querySelector('input, select, textarea, button, [tabindex]')) return null;
  const t = readText(e).replace(/\s*[:*]+\s*$/, '').replace(/^\s*\*\s*/, '');
  return t && t.length <= MAX_NAME && readable(t) ? t : null;
}

/** The visible label before `node` among its siblings (hidden ones skipped: a native select Chosen hides). */
function before(node: Element): string | null {
  for (let s = node.previousSibling; s; s = s.previousSibling) {
    if (s.nodeType === 3) {
      const t = norm(s.nodeValue).replace(/\s*[:*]+\s*$/, '');
      if (t) return t.length <= MAX_NAME && readable(t) ? t : null;
      continue;
    }
    if (s.nodeType !== 1) continue;
    const e = s as Element;
    if (e.localName === 'br' || !shown(e)) continue;
    if (!norm(e.textContent)) continue;
    return labelLike(e, false);
  }
  return null;
}

/** A floating label placed after the box in the markup (an old mat-form-field's <label><mat-label>). */
function after(node: Element): string | null {
  for (let s = node.nextElementSibling; s; s = s.nextElementSibling) {
    const l = s.matches('label, mat-label') ? s : s.querySelector(':scope > label, :scope > mat-label, :scope label, :scope mat-label');
    if (l && shown(l)) return labelLike(l, false);
    if (shown(s) && norm(s.textContent)) return null;
  }
  return null;
}

/**
 * The name a person reads for a drawn drop-down: its own aria-label or title, else the label
 * just before it (a <label> without for, a <span>, the cell to the left, the line above), else
 * a floating label after it in the same box; climbing only while the box holds no other text.
 */
export function selectName(el: Element): { name: string; from: string } | null {
  for (const [v, from] of [[norm(el.getAttribute('aria-label')), 'aria-label'], [norm(el.getAttribute('title')), 'title']] as const) {
    if (v && readable(v)) return { name: clip(v), from };
  }
  let node: Element = el;
  for (let up = 0; up < 4; up++) {
    const t = before(node) ?? after(node);
    if (t) return { name: clip(t), from: 'label' };
    const parent = node.parentElement;
    if (!parent || parent === document.body) break;
    if (textOutside(parent, node)) break;
    node = parent;
  }
  return null;
}
