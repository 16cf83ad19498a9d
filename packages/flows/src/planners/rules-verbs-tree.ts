import { conceptsOfName, ICON_CONCEPTS, iconNorm, rowVerbNames, type AriaElement, type AriaNode } from '@ariadne/page';
import type { PageWhich } from './rules-verbs.js';

// Finds, on a snapshot tree, the control a purpose wording means (rules-verbs.ts): a control
// whose name or inferred icon purpose is the verb, placed by the object's words (its row, its
// field's label, its section's heading), the pager's next/previous/last/N, the bulk control
// outside the ticked rows. One control or a refusal saying why; never the nearest guess.
// Pure: unit-tested on plain trees.

const CONTROLS = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'menuitem', 'tab', 'option', 'treeitem', 'menuitemcheckbox', 'menuitemradio']);
const CLICKABLE = new Set(['button', 'link', 'menuitem', 'tab', 'option', 'treeitem']);
const ROW_UNITS = new Set(['row', 'listitem', 'article']);
const STOP = new Set(['the', 'a', 'an', 'of', 'for', 'to', 'in', 'on', 'at', 'my', 'our', 'your', 'this', 'that', 'about', 'with', 'and', 'from', 'by']);

export interface Ctl { ref: string; role: string; name: string; from?: string; path: AriaElement[]; node: AriaElement }
export type Found = { ok: true; ref: string; name: string; why: string } | { ok: false; code: 'target_not_found' | 'ambiguous_target'; message: string };

const nameOf = (n: AriaElement) => n.name || String(n.inferredName ?? '');

/** Every text in a subtree: strings, names and text, in reading order. */
export function textsIn(n: AriaNode, out: string[] = []): string[] {
  if (typeof n === 'string') out.push(n);
  else {
    if (n.name) out.push(String(n.name));
    if (typeof n.text === 'string') out.push(n.text);
    for (const k of n.children ?? []) textsIn(k, out);
  }
  return out;
}

/** Every control with a ref, with its ancestors (outermost first). */
export function controlsOf(tree: AriaNode[]): Ctl[] {
  const out: Ctl[] = [];
  const walk = (nodes: AriaNode[], path: AriaElement[]) => {
    for (const n of nodes) {
      if (typeof n === 'string') continue;
      if (CONTROLS.has(n.role) && n.ref) out.push({ ref: n.ref, role: n.role, name: nameOf(n), from: n.inferredFrom as string | undefined, path, node: n });
      walk(n.children ?? [], [...path, n]);
    }
  };
  walk(tree, []);
  return out;
}

/** Content words, lower case, a plural's s dropped ("Invoices" → invoice). */
export function wordsOf(s: string): string[] {
  return iconNorm(s).split(/[^\p{L}\p{N}@#$.]+/u).map((w) => w.replace(/[.]+$/, '')).filter((w) => w && !STOP.has(w)).map((w) => (w.length > 3 && /[^s]s$/.test(w) ? w.slice(0, -1) : w));
}

function hasControl(n: AriaNode): boolean {
  return typeof n !== 'string' && ((CONTROLS.has(n.role) && Boolean(n.ref)) || (n.children ?? []).some(hasControl));
}

function textOf(n: AriaNode): string {
  if (typeof n === 'string') return n;
  const kids = (n.children ?? []).map(textOf).join(' ');
  return [kids ? '' : n.name ?? '', typeof n.text === 'string' ? n.text : '', kids].join(' ');
}

/** The concepts whose first purposes are the verb (bin for delete and remove; never × for remove). */
function conceptsFor(verb: string): number[] {
  return ICON_CONCEPTS.filter((c) => { const i = c.purposes.indexOf(verb); return i >= 0 && i < 3; }).map((c) => c.id);
}

/** 2: the control's words name the verb ("Copy", "Copy link", "Remove" for delete); 1: its icon means it; 0: neither. */
export function purposeOf(c: Pick<Ctl, 'name' | 'from'>, verb: string, object?: string[]): 0 | 1 | 2 {
  const n = iconNorm(c.name);
  if (!n) return 0;
  const names = [verb, ...rowVerbNames(verb).map((x) => x.toLowerCase())];
  // "Download invoice" for the March invoice; never "Archive all cards in this list" for one card:
  // with an object, the words after the verb must be the object's own (or say nothing more).
  const rest = (v: string) => n.slice(v.length + 1).split(/\s+/).filter(Boolean);
  const fits = (v: string) => !object || rest(v).every((w) => object.includes(w) || /^(?:it|this|item|entry|row|one)$/.test(w));
  if (names.some((v) => n === v || (n.startsWith(`${v} `) && fits(v)))) return 2;
  const want = conceptsFor(verb);
  return want.length && conceptsOfName(c.name, c.from).some((id) => want.includes(id)) ? 1 : 0;
}

/**
 * How near the object's words are to a control: each word's first ancestor level (0 = the
 * control's own name) at which it is read, from the control's own branch or from a sibling
 * branch that holds no control (a label, a cell, a heading: text that labels, not another
 * field's or row's text). Null when a word is never read so.
 */
export function nearness(c: Ctl, words: string[]): number | null {
  const at = new Map<string, number>();
  const see = (text: string, level: number) => { for (const w of wordsOf(text)) if (!at.has(w)) at.set(w, level); };
  see(c.name, 0);
  let child: AriaNode = c.node;
  for (let k = c.path.length - 1, level = 1; k >= 0; k--, level++) {
    const a = c.path[k];
    if (a.name && /^(?:region|group|dialog|alertdialog|navigation|form|complementary|article|tabpanel|menu)$/.test(a.role)) see(a.name, level);
    for (const s of a.children ?? []) if (s !== child && !hasControl(s)) see(textOf(s), level);
    if (words.every((w) => at.has(w))) break;
    child = a;
  }
  if (!words.every((w) => at.has(w))) return null;
  return words.reduce((sum, w) => sum + at.get(w)!, 0);
}

function pickNearest(cands: { c: Ctl; tier: number; score: number }[], what: string): Found {
  const best = cands.reduce((m, x) => Math.max(m, x.tier), 0);
  const top = cands.filter((x) => x.tier === best);
  const low = Math.min(...top.map((x) => x.score));
  const hits = top.filter((x) => x.score === low);
  if (hits.length > 1) return { ok: false, code: 'ambiguous_target', message: `${what}: ${hits.length} controls fit equally (${hits.map((h) => `a ${h.c.role}${h.c.name ? ` "${h.c.name}"` : ''} ${h.c.ref}`).join(', ')}); say which, e.g. "in the <X> row".` };
  const h = hits[0];
  return { ok: true, ref: h.c.ref, name: h.c.name, why: `a ${h.c.role} ${h.c.name ? `"${h.c.name}"` : '(no name)'}${h.tier === 1 ? ' (its icon means it)' : ''}` };
}

/**
 * "Copy invite link": a control named "Copy invite link" exactly; else the control whose name
 * or icon is the verb nearest the object's words (its label, row, card or section).
 */
export function controlForVerbObject(tree: AriaNode[], verb: string, object: string, nameOnly = false): Found {
  const all = controlsOf(tree).filter((c) => CLICKABLE.has(c.role));
  const what = `"${verb} ${object}" (the ${verb} control by "${object}")`;
  const whole = iconNorm(`${verb} ${object}`);
  const exact = all.filter((c) => iconNorm(c.name) === whole);
  if (exact.length === 1) return { ok: true, ref: exact[0].ref, name: exact[0].name, why: `named "${exact[0].name}"` };
  const words = wordsOf(object);
  const cands: { c: Ctl; tier: number; score: number }[] = [];
  let purposeful = 0;
  for (const c of all) {
    const tier = purposeOf(c, verb, words);
    if (!tier || (nameOnly && tier < 2)) continue;
    purposeful++;
    const score = nearness(c, words);
    if (score !== null) cands.push({ c, tier, score });
  }
  // "Copy the team invite link": a qualifier the page does not show before the words it does
  // ("Invite link"). Dropped only when two words or more remain, all read by one such control.
  if (!cands.length && words.length >= 3) {
    const fewer = words.slice(1);
    for (const c of all) {
      const tier = purposeOf(c, verb, fewer);
      if (!tier || (nameOnly && tier < 2)) continue;
      const score = nearness(c, fewer);
      if (score !== null) cands.push({ c, tier, score });
    }
  }
  if (!cands.length) {
    return { ok: false, code: 'target_not_found', message: purposeful
      ? `${what}: ${purposeful} control(s) on the page ${nameOnly ? 'are named' : 'mean'} "${verb}", but none sits by text reading "${object}"; nothing was clicked.`
      : `${what}: no control on the page is named "${verb}" or has an icon that means it; nothing was clicked.` };
  }
  return pickNearest(cands, what);
}

// --- Pagination ------------------------------------------------------------------------

const NEXT = /^(?:next|next page|go to next page|›|→|>|❯|⟩|⏵)$/i;
const PREV = /^(?:prev|previous|previous page|go to previous page|‹|←|<|❮|⟨|⏴)$/i;
const LAST = /^(?:last|last page|go to last page|»|⇥|⏭|>>|>\|)$/i;
const FIRST = /^(?:first|first page|go to first page|«|⇤|⏮|<<|\|<)$/i;
const PAGE_NUMBER = /^(?:(?:go\s+to\s+)?page\s+)?(\d{1,4})$/i;
const arrowConcept = (purpose: string) => ICON_CONCEPTS.filter((c) => c.purposes.includes(purpose) && c.pictures.some((p) => /arrow/.test(p))).map((c) => c.id);

function pageKind(c: Ctl): 'next' | 'previous' | 'first' | 'last' | number | null {
  const n = c.name.trim();
  const num = PAGE_NUMBER.exec(n);
  if (num) return Number(num[1]);
  if (LAST.test(n)) return 'last';
  if (FIRST.test(n)) return 'first';
  if (NEXT.test(n)) return 'next';
  if (PREV.test(n)) return 'previous';
  const ids = conceptsOfName(n, c.from);
  if (ids.some((i) => arrowConcept('next page').includes(i))) return 'next';
  if (ids.some((i) => arrowConcept('previous page').includes(i))) return 'previous';
  return null;
}

/** The pagers on the page: a container named for pages, or the smallest one holding two page-number controls. */
function pagers(tree: AriaNode[]): AriaElement[] {
  const out: AriaElement[] = [];
  const walk = (n: AriaNode): number => {
    if (typeof n === 'string') return 0;
    let nums = CLICKABLE.has(n.role) && n.ref && PAGE_NUMBER.test(nameOf(n).trim()) ? 1 : 0;
    const before = out.length;
    for (const k of n.children ?? []) nums += walk(k);
    if (out.length > before) return 0; // an inner pager already holds them
    const named = /\b(?:pagination|pager|pages|page navigation)\b/i.test(n.name ?? '') && hasControl(n);
    const counted = /\bpage\s+\d+\s+(?:of|\/)\s+\d+|\b\d+\s*[-–]\s*\d+\s+of\s+\d+/i.test(textOf(n)) && n.role !== 'row' && hasControl(n) && (n.children ?? []).length <= 12;
    if (named || nums >= 2 || counted) { out.push(n); return 0; }
    return nums;
  };
  for (const n of tree) walk(n);
  return out;
}

export function pageControl(tree: AriaNode[], which: PageWhich): Found {
  const what = typeof which === 'number' ? `page ${which}` : `the ${which} page`;
  const found = pagers(tree);
  if (!found.length) {
    // No pager, but one control named so in words ("Next page", "Page 3"): that control.
    const whole = typeof which === 'number' ? `page ${which}` : `${which} page`;
    const named = controlsOf(tree).filter((c) => CLICKABLE.has(c.role) && iconNorm(c.name) === whole);
    if (named.length === 1) return { ok: true, ref: named[0].ref, name: named[0].name, why: `named "${named[0].name}"` };
    return { ok: false, code: 'target_not_found', message: `${what}: the page has no pagination (no pager of page numbers, none named "Pagination"); nothing was clicked.` };
  }
  if (found.length > 1) return { ok: false, code: 'ambiguous_target', message: `${what}: the page has ${found.length} pagers; say which, e.g. "In the <X> section, go to the next page".` };
  const ctls = controlsOf([found[0]]).filter((c) => CLICKABLE.has(c.role)).map((c) => ({ c, k: pageKind(c) }));
  // « and » are first and last beside a ‹ and ›; alone they are previous and next (Bootstrap's pager).
  const single = (k: string, re: RegExp) => ctls.some((x) => x.k === k && re.test(x.c.name));
  for (const x of ctls) {
    if (x.k === 'last' && /^(?:»|>>)$/.test(x.c.name.trim()) && !single('next', /./)) x.k = 'next';
    if (x.k === 'first' && /^(?:«|<<)$/.test(x.c.name.trim()) && !single('previous', /./)) x.k = 'previous';
  }
  let hits = ctls.filter((x) => x.k === which);
  // "The last page" with no Last control: the highest page number; "the first page": page 1.
  if (!hits.length && (which === 'last' || which === 'first')) {
    const nums = ctls.filter((x) => typeof x.k === 'number') as { c: Ctl; k: number }[];
    const target = which === 'last' ? Math.max(...nums.map((x) => x.k)) : 1;
    hits = nums.filter((x) => x.k === target);
  }
  const offered = ctls.map((x) => (x.k === null ? x.c.name || '(unnamed)' : String(x.k))).join(', ');
  if (!hits.length) return { ok: false, code: 'target_not_found', message: `${what}: the pager has no such control (it offers ${offered || 'nothing'}); nothing was clicked.` };
  if (hits.length > 1) return { ok: false, code: 'ambiguous_target', message: `${what}: the pager has ${hits.length} such controls (${hits.map((h) => h.c.ref).join(', ')}).` };
  return { ok: true, ref: hits[0].c.ref, name: hits[0].c.name, why: `the pager's ${typeof which === 'number' ? `"${which}"` : which} control "${hits[0].c.name}"` };
}

// --- Bulk actions ------------------------------------------------------------------------

const SELECTION_TEXT = /\b\d+\s+(?:\p{L}+\s+)?(?:selected|chosen|ticked|checked)\b|\bselected\s*:\s*\d+/iu;

/** "Delete them" after ticking rows: the control meaning the verb outside every ticked row, in the selection bar when there is one. */
export function bulkControl(tree: AriaNode[], verb: string): Found {
  const all = controlsOf(tree);
  const what = `"${verb}" for the ticked rows`;
  const ticked = all.filter((c) => (c.role === 'checkbox' || c.role === 'switch') && c.node.checked === true);
  if (!ticked.length) return { ok: false, code: 'target_not_found', message: `${what}: no row is ticked on the page (tick the rows first); nothing was clicked.` };
  // A row's own controls act on that row only: those inside a row that holds a tick box are not bulk controls.
  const inRow = (c: Ctl) => c.path.some((a) => ROW_UNITS.has(a.role) && controlsOf([a]).some((x) => x.role === 'checkbox'));
  const cands = all.filter((c) => CLICKABLE.has(c.role) && !inRow(c)).map((c) => ({ c, tier: purposeOf(c, verb) })).filter((x) => x.tier > 0);
  if (!cands.length) return { ok: false, code: 'target_not_found', message: `${what}: no control outside the rows is named "${verb}" or has an icon that means it; nothing was clicked.` };
  const inBar = (c: Ctl) => c.path.some((a) => !ROW_UNITS.has(a.role) && SELECTION_TEXT.test((a.children ?? []).filter((s) => !hasControl(s)).map(textOf).join(' ')));
  const barred = cands.filter((x) => inBar(x.c));
  return pickNearest((barred.length ? barred : cands).map((x) => ({ ...x, score: 0 })), what);
}

// --- "Send X a password reset" -----------------------------------------------------------

const EXTRA_NAME_WORDS = new Set(['send', 'resend', 'email', 'mail', 'trigger', 'new', 'link', 'issue', 'give']);

/** A control whose name is the noun phrase ("Reset password" for "password reset"), word order aside. */
export function namedForNoun(name: string, noun: string): boolean {
  const want = wordsOf(noun);
  const have = wordsOf(name);
  return want.length > 0 && want.every((w) => have.includes(w)) && have.every((w) => want.includes(w) || EXTRA_NAME_WORDS.has(w));
}

/** The control named by the noun phrase in the row that shows the person (null refs: look in a menu next). */
export function nounControlFor(tree: AriaNode[], noun: string, who: string, only?: Set<string>): Found {
  const what = `"${noun}" for ${who}`;
  const words = wordsOf(who);
  const named = controlsOf(tree).filter((c) => CLICKABLE.has(c.role) && namedForNoun(c.name, noun));
  const fresh = only ? named.filter((c) => only.has(c.ref)) : named;
  let cands = fresh.map((c) => ({ c, tier: 1, score: only ? 0 : nearness(c, words) })).filter((x) => x.score !== null) as { c: Ctl; tier: number; score: number }[];
  // In the menu opened for that row only: the verb and what it acts on ("Remove member" for
  // "Remove Priya"), the one item of the menu that starts with the verb.
  const verb = wordsOf(noun);
  if (!cands.length && only && verb.length === 1) {
    const led = controlsOf(tree).filter((c) => only.has(c.ref) && CLICKABLE.has(c.role) && wordsOf(c.name)[0] === verb[0] && wordsOf(c.name).length <= 3);
    if (led.length === 1) cands = [{ c: led[0], tier: 1, score: 0 }];
  }
  if (!cands.length) return { ok: false, code: 'target_not_found', message: `${what}: no control named "${noun}" is in the row of "${who}"${only ? ' or in the menu that opened' : ''}; nothing was clicked.` };
  return pickNearest(cands, what);
}
