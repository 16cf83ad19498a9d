// In-page, for the surface pass: toggle switches drawn without ARIA (a clickable pill with a
// knob, no role, no aria-checked, no text). Found by layout (switch-state.ts reads the shape
// and the state), kept only with evidence a person can click them (a pointer, a button, a
// handler attribute, a tabindex, a label over a hidden checkbox, a listener the browser
// reports), and named by the text a person reads as their label: the text beside them in their
// row (the first line of a label + description), or in a table cell of their own, the column's
// header (the row is then the scope: "the Active switch in Tom's row").

import { type SwitchRead, readSwitch } from './switch-state.js';
import { columnHeader, norm, readable } from './surface-names.js';

export interface SwitchFound {
  read: SwitchRead;
  /** The checkbox it hides (as switch-state.ts finds it), when there is one. */
  box: Element | null;
  name: { name: string; from: string } | null;
  /** Shown by a pointer cursor (else another sign of a handler). */
  pointer: boolean;
}

const MAX_NAME = 60;
const CONTROL_TAGS = 'button, select, textarea, input, a[href], [role=button], [role=link]';

/** Words directly inside (a pill with words is a badge): read without layout, before any. */
function ownWords(el: Element): boolean {
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === 3 && readable(n.nodeValue ?? '')) return true;
  return false;
}

/** Switch-shaped elements among those the snapshot walked; ancestors win over a track or knob inside them. */
export function switchShapes(elements: Iterable<Element>): Map<Element, SwitchRead> {
  const found = new Map<Element, SwitchRead>();
  for (const el of elements) {
    // Cheap tests first: most elements of a large page hold too much to be a switch.
    if (el.childElementCount > 4 || el.localName === 'input' || el instanceof SVGElement || ownWords(el)) continue;
    const r = readSwitch(el);
    if (r) found.set(el, r);
  }
  for (const el of [...found.keys()]) {
    for (let up = el.parentElement, i = 0; up && i < 3; up = up.parentElement, i++) {
      if (found.has(up)) { found.delete(el); break; }
    }
  }
  return found;
}

/** Evidence a person can click it (besides the caller's: handler attributes, tabindex, listeners). */
export function switchClickable(el: Element): { pointer: boolean; other: boolean } {
  const pointer = getComputedStyle(el).cursor === 'pointer';
  const label = el.closest('label');
  const boxLabel = Boolean(label && (label.control as HTMLInputElement | null)?.type === 'checkbox');
  return { pointer, other: el.localName === 'button' || el.getAttribute('role') === 'button' || boxLabel };
}

/** The checkbox a switch hides: its label's, inside it, or beside it (switch-state.ts reads the same one). */
export function hiddenBox(el: Element): HTMLInputElement | null {
  const isBox = (e: Element | null | undefined): e is HTMLInputElement => e instanceof HTMLInputElement && (e.type === 'checkbox' || e.type === 'radio');
  for (const c of [el.closest('label')?.control, el.querySelector('input'), el.previousElementSibling, el.nextElementSibling]) if (isBox(c)) return c;
  return null;
}

function clip(s: string): string {
  return s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s;
}

function shown(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (r.width <= 2 || r.height <= 2) return false;
  const s = getComputedStyle(el);
  return s.visibility !== 'hidden' && s.display !== 'none';
}

/**
 * The lines of text inside `scope` outside `skip` and outside other controls, in reading order:
 * text runs grouped by the block (or inline-block) that holds them.
 */
function lines(scope: Element, skip: Element): string[] {
  const out: { key: Element; text: string }[] = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  let count = 0;
  for (let t = walker.nextNode(); t && count < 200; t = walker.nextNode(), count++) {
    const text = norm(t.nodeValue);
    const parent = t.parentElement;
    if (!text || !parent || skip.contains(t)) continue;
    if (parent.closest(CONTROL_TAGS) || parent.closest('script, style, template') || !shown(parent)) continue;
    // The line is the nearest box below the scope that is not inline.
    let key: Element = parent;
    while (key !== scope && key.parentElement && key.parentElement !== scope && getComputedStyle(key).display === 'inline') key = key.parentElement;
    const last = out[out.length - 1];
    if (last && last.key === key) last.text = `${last.text} ${text}`;
    else out.push({ key, text });
  }
  return out.map((l) => l.text);
}

const LABEL_LINE = (t: string) => readable(t) && t.length <= MAX_NAME && t.split(' ').length <= 8;

/** Text of the elements an aria-labelledby names. */
function labelledBy(el: Element): string {
  const ids = (el.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
  const root = el.getRootNode() as Document | ShadowRoot;
  return norm(ids.map((id) => root.getElementById?.(id)?.textContent ?? '').join(' '));
}

/**
 * The name a person reads for a switch: its own aria-label / labelledby / title, the hidden
 * checkbox's label, the column header when it sits alone in a table cell, else the first short
 * line of text in the nearest row around it that holds no other switch.
 */
export function switchName(el: Element, switches: Set<Element>): { name: string; from: string } | null {
  for (const [v, from] of [[norm(el.getAttribute('aria-label')), 'aria-label'], [labelledBy(el), 'aria-label'], [norm(el.getAttribute('title')), 'title']] as const) {
    if (v && readable(v)) return { name: clip(v), from };
  }
  const label = el.closest('label');
  const input = (label?.control ?? el.querySelector('input')) as HTMLInputElement | null;
  if (input) {
    const own = norm(input.getAttribute('aria-label'));
    if (own && readable(own)) return { name: clip(own), from: 'aria-label' };
    for (const l of Array.from(input.labels ?? [])) {
      const t = lines(l, el)[0];
      if (t && LABEL_LINE(t)) return { name: t, from: 'label' };
    }
  }
  // Alone in a table cell: the column names the setting; the row is which one.
  const cell = el.closest('td, th, [role=cell], [role=gridcell]');
  if (cell && !lines(cell, el).some(readable)) {
    const head = columnHeader(cell);
    if (head) return readable(head) ? { name: clip(head), from: 'column' } : null;
    // A settings table without a header row: the text in its row ("Dark mode" | switch).
    const row = cell.closest('tr, [role=row]');
    if (!row || [...switches].some((s) => s !== el && row.contains(s))) return null;
    const first = lines(row, el).find(readable);
    return first && LABEL_LINE(first) ? { name: first, from: 'label' } : null;
  }
  let node: Element = el;
  for (let i = 0; i < 5; i++) {
    const up = node.parentElement;
    if (!up || up === document.body || up === document.documentElement) break;
    if ([...switches].some((s) => s !== el && up.contains(s))) break;
    if (up.matches('tr, [role=row], table, [role=grid], ul, ol, [role=list]')) break;
    const text = lines(up, el);
    if (text.length) {
      const first = text.find(readable);
      return first && LABEL_LINE(first) ? { name: first, from: 'label' } : null;
    }
    if (norm(up.textContent).length > 400) break;
    node = up;
  }
  return null;
}
