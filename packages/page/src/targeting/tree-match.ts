import { displayName, isElement, type AriaElement, type AriaNode } from '../snapshot/tree.js';
import type { TargetAction, DescribedTarget } from './spec.js';
import { CROSS_GLYPHS, isIconWords, sameIcon } from './iconography.js';
import { BLANK_ROW_WORDS, isBlankRow } from './blank-row.js';
import { NOTICE_WORDS, noticeBarOf } from './notice-bar.js';
import { scopeByWords } from './scope-words.js';

// Candidates on the accessibility snapshot tree (one ariaSnapshotJSON per attempt), ranked
// and filtered by what the action can act on. Pure: unit-tested on plain trees.
//  - click → a clickable element (interactive role, or cursor:pointer); static text only
//    when the name was quoted verbatim and nothing interactive carries it;
//  - fill/type → an editable control; check → checkbox/radio/switch; select → combobox/listbox.
// An unnamed control takes the text right next to it as its label (an unassociated
// <label>, a to-do row's text), so "Buy milk" finds the row's checkbox.

export interface Flat {
  node: AriaElement;
  ref: string;
  ancestors: AriaElement[];
  index: number;
  /** Accessible name, or the text the element shows. */
  name: string;
  /** Text next to an unnamed control (its visual label). */
  adjacent: string;
  /** A field's kind (multiline, date, password, text, ...): the tree's, or probed by the resolver. */
  kind?: string;
  /** A checkable control whose name every row repeats ("Toggle Todo"): its row's text names it. */
  sharedName?: boolean;
}

/** A person's name for the element: the accessible name, else the inferred one (seam §2). */
export const personName = displayName;

export interface TreeCandidate {
  ref: string;
  role: string;
  name?: string;
  context: string;
  /** Wording that picks this one (checked to resolve to it). */
  wording?: string;
}

export type TreeMatch =
  | { kind: 'hit'; ref: string; node: AriaElement; role: string; name: string; rung: string; why: string; group?: boolean; static?: boolean; accounted?: string[] }
  | { kind: 'ambiguous'; candidates: TreeCandidate[]; count: number; why: string }
  | { kind: 'none'; why: string };

export const CLICKABLE = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'combobox', 'textbox', 'searchbox', 'spinbutton', 'slider', 'listbox', 'columnheader', 'summary']);
export const EDITABLE = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
export const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
export const SELECTABLE = new Set(['combobox', 'listbox']);
const UNNAMED_LABELLED = new Set([...EDITABLE, ...CHECKABLE, 'slider']);
const ITEM_ROLES = new Set(['listitem', 'row', 'article']);
const LANDMARK_ALIASES: Record<string, string[]> = { dialog: ['dialog', 'alertdialog'], search: ['search', 'form'], menu: ['menu', 'menubar', 'listbox'] };

const ROLE_FAMILY: Record<string, string[]> = {
  textbox: ['textbox', 'searchbox', 'combobox', 'spinbutton'],
  searchbox: ['searchbox', 'textbox', 'combobox'],
  combobox: ['combobox', 'listbox'],
  checkbox: ['checkbox', 'switch', 'menuitemcheckbox'],
  switch: ['switch', 'checkbox'],
  radio: ['radio', 'menuitemradio'],
  // "the Cheque option for Payment Method", "the Reset password option in the menu": people call any choice an option.
  option: ['option', 'radio', 'menuitemradio', 'menuitem', 'menuitemcheckbox'],
  button: ['button'],
  link: ['link'],
  menuitem: ['menuitem', 'menuitemcheckbox', 'menuitemradio'],
  listitem: ['listitem', 'row', 'article'],
  img: ['img', 'image'],
};

/**
 * Can an element of this role be what the words' kind names? Only the one confusion that
 * matters is refused: a field for a control ("the search button" is never the search text
 * box) and a control for a field. "Button" still covers radio and toggle buttons, "check"
 * a radio, as people say them.
 */
export function roleFits(wanted: string | null, actual: string | undefined): boolean {
  if (!wanted || !actual) return true;
  const fields = ['textbox', 'searchbox', 'spinbutton'];
  const controls = ['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem'];
  if (controls.includes(wanted) && fields.includes(actual)) return false;
  if (fields.includes(wanted) && controls.includes(actual)) return false;
  return true;
}

export const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

function ownText(n: AriaElement): string {
  const named = personName(n);
  if (named) return named;
  if (typeof n.text === 'string' && n.text) return n.text;
  return (n.children ?? []).filter((c): c is string => typeof c === 'string').join(' ');
}

const textCache = new WeakMap<AriaElement, string>();
export function subtreeText(n: AriaElement): string {
  let t = textCache.get(n);
  if (t !== undefined) return t;
  const parts: string[] = [];
  if (n.name) parts.push(n.name);
  if (typeof n.text === 'string') parts.push(n.text);
  for (const c of n.children ?? []) parts.push(typeof c === 'string' ? c : subtreeText(c));
  t = norm(parts.join(' '));
  textCache.set(n, t);
  return t;
}

/** The subtree's text as shown (case kept). */
function rawText(n: AriaElement): string {
  const parts: string[] = [];
  if (n.name) parts.push(n.name);
  if (typeof n.text === 'string') parts.push(n.text);
  for (const c of n.children ?? []) parts.push(typeof c === 'string' ? c : rawText(c));
  return parts.join(' ').replace(/\s+/g, ' ').trim();
}

/** Every text piece in a subtree (names, text, strings), normalized: "mentions exactly". */
const labelCache = new WeakMap<AriaElement, string>();
function labelText(n: AriaElement): string {
  let t = labelCache.get(n);
  if (t === undefined) {
    t = pieces(n, [], true).join(' \u0000 ');
    labelCache.set(n, t);
  }
  return t;
}

/**
 * The words a container shows, read as one line in order, controls' names left out: a bar's
 * "<strong>Northwind 2.0</strong> — two-factor sign-in is here" is one text to a person.
 */
const lineCache = new WeakMap<AriaElement, string>();
function lineText(n: AriaElement): string {
  let t = lineCache.get(n);
  if (t !== undefined) return t;
  const out: string[] = [];
  const walk = (e: AriaElement) => {
    if (CONTROL_NAMES.has(e.role)) return;
    const kids = e.children ?? [];
    if (!kids.length) {
      const own = e.name || (typeof e.text === 'string' ? e.text : '');
      if (own) out.push(own);
      return;
    }
    for (const c of kids) if (typeof c === 'string') out.push(c); else walk(c);
  };
  walk(n);
  t = norm(out.join(' '));
  lineCache.set(n, t);
  return t;
}

const CONTROL_NAMES = new Set(['button', 'menuitem', 'tab', 'switch', 'checkbox', 'radio', 'option', 'menuitemcheckbox', 'menuitemradio']);
/** Every text piece in a subtree (names, text, strings), as compared; `labelsOnly` leaves out controls' names. */
export function pieces(n: AriaElement, out: string[] = [], labelsOnly = false): string[] {
  if (labelsOnly && CONTROL_NAMES.has(n.role)) return out;
  if (n.name) out.push(norm(n.name));
  if (typeof n.text === 'string') out.push(norm(n.text));
  for (const c of n.children ?? []) {
    if (typeof c === 'string') out.push(norm(c));
    else pieces(c, out, labelsOnly);
  }
  return out;
}

export function isClickableNode(n: AriaElement): boolean {
  return CLICKABLE.has(n.role) || n.cursor === 'pointer';
}

/**
 * A click target: a clickable node, or one the surface pass marked clickable (an onclick, a
 * tabindex, a click listener Chromium reported: a bare Material icon). Only for choosing what
 * to click: a marked text (a to-do's label that edits on double-click) still labels its box.
 */
function isClickTarget(n: AriaElement): boolean {
  return isClickableNode(n) || n.clickable === true;
}

/** The text beside an unnamed control: a sibling string or non-interactive element, this level or one up. */
function adjacentText(siblings: AriaNode[], i: number, role: string, parentSiblings?: { list: AriaNode[]; i: number }): string {
  const textOf = (c: AriaNode): string => (typeof c === 'string' ? c.trim() : !isClickableNode(c) && !UNNAMED_LABELLED.has(c.role) ? rawText(c) : '');
  const after = CHECKABLE.has(role);
  const order = after ? [1, -1] : [-1, 1];
  for (const dir of order) {
    for (let k = i + dir; k >= 0 && k < siblings.length; k += dir) {
      const c = siblings[k];
      if (typeof c !== 'string' && (isClickableNode(c) || UNNAMED_LABELLED.has(c.role))) break;
      const t = textOf(c);
      if (t) return t;
    }
  }
  if (parentSiblings && siblings.filter((c) => typeof c !== 'string' && UNNAMED_LABELLED.has(c.role)).length === 1) {
    return adjacentText(parentSiblings.list, parentSiblings.i, role);
  }
  return '';
}

/** The text right before a field at its level (a string or a non-interactive element), if any. */
function textBefore(siblings: AriaNode[], i: number): string {
  for (let k = i - 1; k >= 0; k--) {
    const c = siblings[k];
    if (typeof c === 'string') {
      if (c.trim()) return shortLabel(c.trim()) ? c.trim() : '';
      continue;
    }
    if (isClickableNode(c) || UNNAMED_LABELLED.has(c.role) || ['paragraph', 'heading', 'list', 'listitem', 'table', 'row'].includes(c.role)) return '';
    const t = rawText(c);
    if (t) return shortLabel(t) ? t : '';
  }
  return '';
}

/** A label, not a sentence: a few words, no sentence punctuation inside. */
function shortLabel(t: string): boolean {
  return t.length <= 30 && t.split(/\s+/).length <= 4 && !/[.;!?,](?=\s|$)/.test(t.replace(/[.:]$/, ''));
}

export function flattenTree(tree: AriaNode[]): Flat[] {
  const out: Flat[] = [];
  const walk = (nodes: AriaNode[], ancestors: AriaElement[], up?: { list: AriaNode[]; i: number }) => {
    nodes.forEach((n, i) => {
      if (!isElement(n)) return;
      if (n.ref) {
        const name = ownText(n);
        // An unnamed control's visual label; a field named only by its placeholder ("Ex. Ann")
        // also answers to the text right before it (a <mat-label>, an unassociated label).
        // A named checkbox too keeps the text beside it: used only when its name is one every
        // row repeats (a web-components to-do's "Toggle Todo"), see sharedName below.
        // A clickable box without a name (a plan card, a tile) goes by its heading: "the Team card".
        // A control drawn as a card (a radio card, a plan tile as a button) shows its name
        // inside: its heading or first line ("Team" over "$12 / month"), not the text beside it.
        const title = !name && !EDITABLE.has(n.role) && isClickableNode(n) && (n.children ?? []).some(isElement) ? headingOf(n) ?? firstText(n) : null;
        const adjacent = title ? title : !name && UNNAMED_LABELLED.has(n.role) ? adjacentText(nodes, i, n.role, up) : name && EDITABLE.has(n.role) ? textBefore(nodes, i) : name && CHECKABLE.has(n.role) ? adjacentText(nodes, i, n.role, up) : !name && !CLICKABLE.has(n.role) && isClickableNode(n) ? headingOf(n) ?? '' : '';
        const kind = n.kind;
        out.push({ node: n, ref: n.ref, ancestors, index: out.length, name, adjacent, ...(kind ? { kind } : {}) });
      }
      // An iframe's content is another frame: refs there are fine (f1e2), keep walking.
      walk(n.children ?? [], [...ancestors, n], { list: nodes, i });
    });
  };
  walk(tree, []);
  // Checkable controls sharing one name: the name tells none of them apart.
  const counts = new Map<string, number>();
  for (const f of out) if (CHECKABLE.has(f.node.role) && f.name) counts.set(norm(f.name), (counts.get(norm(f.name)) ?? 0) + 1);
  // Only an accessible name repeated: a name read off the page (a switch's column header, its
  // row's label) already is the text a person goes by, and the cell beside it names nothing.
  for (const f of out) if (CHECKABLE.has(f.node.role) && f.node.name && (counts.get(norm(f.name)) ?? 0) > 1 && f.adjacent) f.sharedName = true;
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** 0 exact, 1 whole words at the start or end, 2 whole words inside, 3 substring; -1 no. */
const CROSS = CROSS_GLYPHS.join('|');
const ICON_WORDS: [RegExp, RegExp][] = [
  [/^(?:delete|remove|destroy|trash|discard)$/, new RegExp(`^(?:${CROSS}|x|🗑|🗑️|−|-)$`, 'u')],
  [/^(?:close|dismiss|x)$/, new RegExp(`^(?:${CROSS}|x|close|dismiss)$`, 'u')],
  [/^(?:add|new|plus)$/, /^\+$/],
  [/^(?:edit)$/, /^(?:✎|✏|✏️|🖉)$/u],
];

export function nameTier(name: string, phrase: string, quoted: boolean): number {
  const n = norm(name);
  const p = norm(phrase);
  if (!n || !p) return -1;
  if (n === p) return 0;
  // "user name" is "Username"; "e-mail" is "Email".
  const compact = (t: string) => t.replace(/[\s-]+/g, '');
  if (compact(n) === compact(p) && compact(p).length >= 4) return 0;
  // The letter x for the × glyph (the close control people call "x").
  if (p === 'x' && (n === '╳' || n === 'x' || CROSS_GLYPHS.includes(n))) return 0;
  // An icon button named by its glyph: "the delete button" is the ×.
  if (!quoted && ICON_WORDS.some(([w, g]) => w.test(p) && g.test(n))) return 2;
  const w = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(p)}($|[^\\p{L}\\p{N}])`, 'u');
  if (quoted) {
    // Verbatim, but an icon glyph or a count around the name does not make it another name;
    // a renamed control ("Username" → "Your username") still matches as whole words at an
    // end, ranked after any exact match.
    const stripped = n.replace(/^[^\p{L}\p{N}"'“(]+|[^\p{L}\p{N}"'”)!?.]+$/gu, '').trim();
    if (stripped === p) return 0;
    return (n.startsWith(p) || n.endsWith(p)) && w.test(n) ? 1 : -1;
  }
  if (n.startsWith(p) && w.test(n)) return 1;
  if (n.endsWith(p) && w.test(n)) return 1;
  if (w.test(n)) return 2;
  // A substring, but never a longer number ("Invoice 12" is not "Invoice 123").
  const at = n.indexOf(p);
  if (at >= 0 && !(/\p{N}$/u.test(p) && /\p{N}/u.test(n[at + p.length] ?? '')) && !(/^\p{N}/u.test(p) && /\p{N}/u.test(n[at - 1] ?? ''))) return 3;
  return -1;
}

function familyFor(action: TargetAction, role: string | null): { roles: Set<string> | null; needClickable: boolean } {
  const hinted = role ? new Set(ROLE_FAMILY[role] ?? [role]) : null;
  switch (action) {
    case 'fill': case 'type': case 'clear': {
      // A slider takes a value too ("Set Volume to 80": a range input is filled with it).
      if (hinted?.has('slider')) return { roles: new Set(['slider']), needClickable: false };
      const fields = hinted && [...hinted].some((r) => EDITABLE.has(r)) ? new Set([...hinted].filter((r) => EDITABLE.has(r))) : new Set(EDITABLE);
      if (action === 'fill' && (!hinted || hinted.has('textbox'))) fields.add('slider');
      return { roles: fields, needClickable: false };
    }
    case 'check': case 'uncheck':
      return { roles: hinted && [...hinted].some((r) => CHECKABLE.has(r)) ? new Set([...hinted].filter((r) => CHECKABLE.has(r))) : CHECKABLE, needClickable: false };
    case 'select':
      return { roles: hinted && [...hinted].some((r) => SELECTABLE.has(r) || r === 'radio') ? hinted : SELECTABLE, needClickable: false };
    case 'click':
      return { roles: hinted, needClickable: true };
    default:
      return { roles: hinted, needClickable: false };
  }
}

/** The roles that stand for a landmark the words name ("dialog": dialog, alertdialog). */
export function landmarkRoles(landmark: string): string[] {
  return LANDMARK_ALIASES[landmark] ?? [landmark];
}

function inLandmark(f: Flat, landmark: string): boolean {
  const roles = landmarkRoles(landmark);
  return f.ancestors.some((a) => roles.includes(a.role)) || roles.includes(f.node.role);
}

/** The first clickable inside an element (a result row's link). */
function firstClickableInside(all: Flat[], f: Flat): Flat | null {
  const prefer = all.filter((o) => o.ancestors.includes(f.node) && isClickableNode(o.node) && !CHECKABLE.has(o.node.role));
  return prefer.find((o) => o.node.role === 'link') ?? prefer[0] ?? null;
}

export interface Scoped {
  f: Flat;
  /** 0: the container shows the scope text as a whole text; 1: as a name leading a run of text ("Jamie Lee @jamie_l · 6h"). */
  exact: number;
  container: AriaElement | null;
}

/** Trailing punctuation aside ("Lunch?" as the row shows it, "Lunch" as a step may say it). */
const bare = (s: string) => norm(s).replace(/[.!?;,:]+$/, '');

/**
 * A title with its count badge run into it ("Review1": a heading's name is its text, an inline
 * <span>1</span> glued on): the scope "Review" or "Review 1". Only after a letter, so "Invoice 12"
 * is never "Invoice 123".
 */
const squash = (t: string) => t.replace(/(?<=\p{L})\s+(?=\d)/gu, '');
const mentions = (t: string, scb: string) => t.includes(scb) || (/\p{L}\s+\d/u.test(scb) && squash(t).includes(squash(scb)));
function withCount(p: string, scb: string): boolean {
  if (squash(p) === squash(scb) && p !== scb) return /\p{L}\s*\d{1,4}$/u.test(p);
  return /\p{L}$/u.test(scb) && p.startsWith(scb) && /^\s*[([]?\d{1,4}[)\]]?$/.test(p.slice(scb.length));
}

/**
 * A name followed, in one run of text, by what says more about it: a handle, a time, a place
 * ("Jamie Lee @jamie_l · 6h", "Ivo Brandt — 2 days ago"). The name is a whole text there, as
 * much as in a cell of its own; "Walk the dog later" is not, nor "Invoice 7 (void)" (a bracket
 * often tells rows apart).
 */
// A label before its value ("Approver: J. Patel") leads the line as a name does.
const AFTER_NAME = /^\s*(?:[@·•|—–]|[-:]\s)/;
const leadsWith = (p: string, scb: string) => p.length > scb.length && p.startsWith(scb) && AFTER_NAME.test(p.slice(scb.length));
// A handle ("@noor.h") is a whole text wherever it stands as a word: it names one account.
const handleIn = (p: string, scb: string) => /^@[\p{L}\p{N}._-]{2,}$/u.test(scb) && new RegExp(`(?:^|[\\s(])${escapeRe(scb)}(?=$|[\\s·•|),])`, 'u').test(p);

/**
 * How a text piece shows the scope (bare, as compared): 0 as a whole text ("Weekly Digest" also
 * as "The Weekly Digest"), 1 as a name leading a run of text or a handle in it, -1 not at all.
 * One test for the scope's container and for the rows beside it, so the two never disagree.
 */
function showsScope(p: string, scb: string): number {
  const b = bare(p);
  if (b === scb || b === `the ${scb}`) return 0;
  return leadsWith(b, scb) || handleIn(p, scb) ? 1 : -1;
}

/** Another row's name: not the scope, but starting with its first word or extending it ("Invoice 123", "Q3 report draft"). */
function lookalike(p: string, sc: string): boolean {
  if (!p || p === sc || leadsWith(p, sc)) return false;
  if (p.startsWith(sc) || sc.startsWith(p)) return true;
  const first = (t: string) => t.split(/[^\p{L}\p{N}@#]+/u).find(Boolean) ?? '';
  const f = first(sc);
  return f.length >= 2 && first(p) === f;
}

/** The rows, items and cards inside a container that show the text as a whole text of their own. */
function rowsShowing(a: AriaElement, scb: string): AriaElement[] {
  const out: AriaElement[] = [];
  const walk = (n: AriaElement) => {
    for (const k of n.children ?? []) {
      if (!isElement(k)) continue;
      if (ITEM_ROLES.has(k.role) && labelText(k).includes(scb) && pieces(k, [], true).some((p) => showsScope(p, scb) >= 0)) out.push(k);
      else walk(k);
    }
  };
  walk(a);
  return out;
}

/**
 * Keep candidates inside the nearest container that mentions the scope and holds no other
 * candidate — and only when that container shows the scope as a whole text of its own (a cell,
 * a heading, a name, a label): "Invoice 12" never scopes to the "Invoice 123" row, "Walk the dog"
 * never to "Walk the dog later", "@ben" never to a post that mentions @ben in its prose. The
 * nearest mentioning container decides: a look-alike row is never passed over for a wider one.
 */
export function applyScope(cands: Flat[], scope: string, labelsOnly = false, many = false): Scoped[] {
  // "Rochella Parks (@rochella_p)": the name is the scope, the words in brackets only narrow it.
  const aside = /^(.+?)\s*\(([^()]{1,60})\)$/.exec(scope.trim());
  if (aside) {
    const asIs = scopedBy(cands, scope, labelsOnly, many);
    if (asIs.length) return asIs;
    const detail = norm(aside[2]);
    return scopedBy(cands, aside[1], labelsOnly, many).filter((x) => x.container && subtreeText(x.container).includes(detail));
  }
  // "the 'Weekly digest — A summary of your projects every Monday' row": two lines of a row as
  // read off a screenshot, joined by a dash. The first is the scope, the rest must be in it too.
  const lines = /^(.+?\S)\s+[—–-]\s+(\S.+)$/.exec(scope.trim());
  if (lines) {
    const asIs = scopedBy(cands, scope, labelsOnly, many);
    if (asIs.length) return asIs;
    const rest = norm(lines[2]);
    return scopedBy(cands, lines[1], labelsOnly, many).filter((x) => x.container && subtreeText(x.container).includes(rest));
  }
  const asShown = scopedBy(cands, scope, labelsOnly, many);
  // No container shows it as a whole text: the words in a person's own order (scope-words.ts).
  return asShown.length ? asShown : scopeByWords(cands, scope, many);
}

function scopedBy(cands: Flat[], scope: string, labelsOnly: boolean, many: boolean): Scoped[] {
  const sc = norm(scope);
  const scb = bare(scope);
  const out: Scoped[] = [];
  for (const c of cands) {
    const ownLabel = [c.name, c.adjacent].filter(Boolean).map(bare);
    for (let i = c.ancestors.length - 1; i >= 0; i--) {
      const a = c.ancestors[i];
      // Mentioned by its text, headings, labels and links: the names of buttons (a row's
      // "Delete Invoice 7" icon buttons) are not the row's own text.
      if (!mentions(subtreeText(a), scb) || !(mentions(labelText(a), scb) || lineText(a).includes(scb))) continue;
      // A reading the words did not state ("Export Invoice 12" read as "Invoice 12" near
      // "Export"): its scope is a text or a label, never another control's name (a verb dropped).
      const texts = pieces(a, [], labelsOnly);
      const whole = texts.some((p) => p === sc || showsScope(p, scb) === 0 || withCount(bare(p), scb)) || (!labelsOnly && bare(lineText(a)) === scb);
      const own = whole || texts.some((p) => showsScope(p, scb) === 1);
      // The mention is the candidate's own label ("Push notifications" for "the Push notifications
      // switch in Notifications"): not the scope, so the search climbs on to a wider container.
      if (!own && ownLabel.length && texts.filter((p) => mentions(bare(p), scb)).every((p) => ownLabel.includes(bare(p)))) continue;
      // The container is where the scope text and the candidate meet. Too wide when the
      // candidate's own branch of it shows a look-alike of the scope ("Invoice 123" beside the
      // one visible Share button, the other rows' buttons hidden until hover): that branch is
      // another row, and its control is never the scoped row's.
      const branch = i + 1 < c.ancestors.length ? c.ancestors[i + 1] : null;
      const rival = branch ? pieces(branch, [], true).some((p) => lookalike(bare(p), scb)) : false;
      // The scope text sits in a row, item or card the candidate is not in (a toolbar's Delete
      // for "the e-mail from Rochelle Park"): that row is the scope, and the candidate is outside it.
      const elsewhere = own && rowsShowing(a, scb).some((r) => !c.ancestors.includes(r));
      // One candidate in it, or several when an ordinal picks among them ("the first button in the 1010 row").
      if (own && !rival && !elsewhere && (many || cands.filter((o) => o.ancestors.includes(a)).length === 1)) out.push({ f: c, exact: whole ? 0 : 1, container: a });
      break;
    }
  }
  // The control's own label is the scope text ("the checkbox next to Buy milk" in a flat form).
  for (const c of cands) {
    if (out.some((o) => o.f === c)) continue;
    if (c.adjacent && bare(c.adjacent) === scb) out.push({ f: c, exact: 0, container: null });
  }
  const best = Math.min(...out.map((o) => o.exact));
  return out.filter((o) => o.exact === best);
}

const headingLevel = (f: Flat) => Number(f.node.level ?? 6) || 6;

/**
 * The part of the page under the one heading that shows the text, when its container holds
 * other headings of its rank (sections written as a heading and what follows it): the flat
 * index range; null otherwise (a card with its own title: its container decides).
 */
function headingRange(all: Flat[], text: string): { from: number; to: number } | null {
  const tb = bare(text);
  const heads = all.filter((f) => f.node.role === 'heading' && bare(f.name) === tb);
  if (heads.length !== 1) return null;
  const h = heads[0];
  const parent = h.ancestors[h.ancestors.length - 1];
  const rank = (f: Flat) => f !== h && f.node.role === 'heading' && headingLevel(f) <= headingLevel(h);
  if (!parent || !all.some((f) => rank(f) && f.ancestors.includes(parent))) return null;
  const next = all.find((f) => f.index > h.index && rank(f));
  return { from: h.index, to: next ? next.index : Number.POSITIVE_INFINITY };
}

/**
 * Is a scoped candidate (and the container its scope found) inside the wider container that
 * shows the text: a heading's section, else the innermost container showing it as a whole text
 * of its own. Null when no one such container is there.
 */
function withinTest(all: Flat[], pool: Flat[], text: string): ((x: Scoped) => boolean) | null {
  const flatOf = new Map(all.map((f) => [f.node, f]));
  const range = headingRange(all, text);
  if (range) {
    const inRange = (f: Flat | undefined) => Boolean(f) && f!.index > range.from && f!.index < range.to;
    return (x) => inRange(x.f) && (!x.container || inRange(flatOf.get(x.container)));
  }
  const inside = applyScope(pool, text, true, true).filter((x) => x.exact <= 1 && x.container);
  // The innermost such container only: the board that holds the card is not the card.
  const nearest = inside.filter((x) => !inside.some((y) => y.container !== x.container && y.f.ancestors.includes(x.container!)));
  const boxes = new Set(nearest.map((x) => x.container!));
  if (boxes.size !== 1) return null;
  const box = [...boxes][0];
  return (x) => x.f.ancestors.includes(box) && (!x.container || x.container === box || Boolean(flatOf.get(x.container)?.ancestors.includes(box)));
}

export interface MatchOptions {
  /** Build a wording for each ambiguous candidate and check it (off for the inner checks). */
  wordings?: boolean;
  /** Only these elements (a kind's fields), and names up to this tier (internal). */
  only?: (f: Flat) => boolean;
  maxTier?: number;
  /** A dialog's title words were tried as a scope first (internal). */
  titleTried?: boolean;
  /** The words' own role was tried alone first (internal). */
  exactTried?: boolean;
}

/** A field's kind: the tree's or the probed one; a text box with none is a one-line text field. */
export function kindOf(f: Flat): string | undefined {
  const k = f.kind ?? f.node.kind;
  if (k) return k === 'search' || k === 'email' || k === 'tel' || k === 'url' ? k : k;
  return ['textbox', 'searchbox'].includes(f.node.role) ? 'text' : undefined;
}

const ONE_LINE = new Set(['text', 'search', 'email', 'tel', 'url']);
function kindFits(f: Flat, kind: string): boolean {
  const k = kindOf(f);
  return k === kind || (kind === 'text' && k !== undefined && ONE_LINE.has(k));
}

/** Names of the choices a list offers (a <select>'s options, a listbox's options). */
export function offered(n: AriaElement): string[] {
  const out: string[] = [];
  const walk = (c: AriaElement) => {
    for (const k of c.children ?? []) {
      if (!isElement(k)) continue;
      if (k.role === 'option') out.push(k.name ?? rawText(k));
      else walk(k);
    }
  };
  walk(n);
  return out;
}

/**
 * The controls right before and after this one among the clickable controls of its nearest
 * box that holds several (a toolbar, a row's actions): a person's "next to".
 */
function neighbours(all: Flat[], f: Flat): Flat[] {
  for (let up = f.ancestors.length - 1; up >= Math.max(0, f.ancestors.length - 3); up--) {
    const box = f.ancestors[up];
    const row = all.filter((o) => o.ancestors.includes(box) && isClickableNode(o.node) && !all.some((p) => p !== o && o.ancestors.includes(p.node) && p.ancestors.includes(box) && isClickableNode(p.node)));
    const i = row.findIndex((o) => o === f || f.ancestors.includes(o.node));
    if (row.length < 2 || i < 0) continue;
    return [row[i - 1], row[i + 1]].filter((x): x is Flat => Boolean(x));
  }
  return [];
}

/** An element named by its picture, not by words: no accessible word name (an inferred one, a glyph, none). */
export function iconLike(f: Flat): boolean {
  return !/[\p{L}\p{N}]/u.test(f.node.name ?? '') || Boolean(f.node.inferredName);
}

export function matchOnTree(tree: AriaNode[] | Flat[], spec: DescribedTarget, action: TargetAction, opts: MatchOptions = { wordings: true }): TreeMatch {
  const all = (tree.length && 'index' in (tree[0] as object) ? tree : flattenTree(tree as AriaNode[])) as Flat[];
  // A field named by its kind ("the date field", "the password box"): a field of that kind named
  // so, else one named so (whole words only), else the one of that kind.
  if (spec.kind && !opts.only) {
    const kind = spec.kind;
    const { kind: _k, ...plain } = spec;
    void _k;
    const ofKind = (f: Flat) => !EDITABLE.has(f.node.role) || kindFits(f, kind);
    if (plain.phrase) {
      const both = matchOnTree(all, plain, action, { ...opts, only: ofKind });
      if (both.kind !== 'none') return both;
      const named = matchOnTree(all, plain, action, { ...opts, maxTier: 2, only: () => true });
      if (named.kind !== 'none') return named;
    }
    const m = matchOnTree(all, { ...plain, phrase: '', quoted: false }, action, { ...opts, only: ofKind });
    if (m.kind === 'none') return { kind: 'none', why: `no ${kind === 'multiline' ? 'multi-line text field (textarea)' : `${kind} field`}${plain.phrase ? ` named "${plain.phrase}"` : ''}` };
    return m;
  }
  // "Expand the section": the one collapsed disclosure on the page (a control marked
  // aria-expanded=false, the summary of a closed <details>, shown as a group holding only it).
  if (spec.collapsed && !spec.phrase) {
    const closed = all.filter((f) => (f.node.expanded === false && isClickableNode(f.node)) || (f.ancestors.length > 0 && f.ancestors[f.ancestors.length - 1].role === 'group' && (f.ancestors[f.ancestors.length - 1].children ?? []).filter(isElement).length === 1 && f.node.role === 'generic' && Boolean(f.name)));
    if (closed.length === 1) return { kind: 'hit', ref: closed[0].ref, node: closed[0].node, role: closed[0].node.role, name: closed[0].name, rung: 'kind', why: `the only collapsed section ("${closed[0].name}")` };
    if (closed.length > 1) return { kind: 'ambiguous', count: closed.length, why: `${closed.length} collapsed sections`, candidates: closed.slice(0, 10).map((c) => ({ ref: c.ref, role: c.node.role, name: c.name, context: '', wording: `Expand the ${c.name} section` })) };
    return { kind: 'none', why: 'no collapsed section (nothing marked aria-expanded=false, no closed <details>)' };
  }
  // "the Email address field in the invite dialog" in the dialog titled "Invite a member": the
  // title words name the dialog loosely; the one open dialog whose title holds them all.
  if (spec.landmark === 'dialog' && spec.scope && !opts.titleTried) {
    const asIs = matchOnTree(all, spec, action, { ...opts, titleTried: true });
    if (asIs.kind !== 'none') return asIs;
    const boxes = dialogsTitled(all, spec.scope);
    if (boxes.length !== 1) return asIs;
    const only = opts.only;
    const m = matchOnTree(all, { ...spec, scope: undefined }, action, { ...opts, titleTried: true, only: (f) => f.ancestors.includes(boxes[0]) && (!only || only(f)) });
    return m.kind === 'hit' ? { ...m, why: `${m.why}; in the dialog "${boxes[0].name || headingOf(boxes[0]) || spec.scope}"` } : m.kind === 'none' ? asIs : m;
  }
  const fam = familyFor(action, spec.role);
  // "the checkbox in Lena's row" beside the row's switch: the kind the words name, alone first;
  // the family (a switch for "checkbox", people say either) only when none of that kind fits.
  if (spec.role && fam.roles && fam.roles.size > 1 && fam.roles.has(spec.role) && !opts.exactTried && EXACT_FIRST.has(spec.role)) {
    const only = opts.only;
    const exact = matchOnTree(all, spec, action, { ...opts, exactTried: true, only: (f) => f.node.role === spec.role && (!only || only(f)) });
    if (exact.kind !== 'none') return exact;
    opts = { ...opts, exactTried: true };
  }
  const itemKind = spec.role === 'listitem' && !spec.phrase;
  // "Click the close button" on a clickable <span>: people call any clickable thing a button.
  const looseButton = action === 'click' && fam.roles?.has('button');
  // Words that name an icon by its picture or purpose ("the ⋯ button", "the bin"): any control
  // showing that icon, a link drawn as an icon button too (people call any icon a button).
  const pictured = Boolean(spec.phrase) && !spec.quoted && isIconWords(spec.phrase);
  // Words a scope of this match stood for without the page showing them ("announcement" for a
  // notice bar, "bin" for the neighbour a picture was placed by): the prove stage takes them as shown.
  const accounted: string[] = [];
  let notice: string | null = null;
  let pool = all.filter((f) => {
    if (opts.only && !opts.only(f)) return false;
    if (fam.roles && !fam.roles.has(f.node.role) && !(looseButton && isClickTarget(f.node) && !CLICKABLE.has(f.node.role)) && !(looseButton && pictured && f.node.role === 'link' && iconLike(f))) return false;
    if (!fam.roles && fam.needClickable && !isClickTarget(f.node)) return false;
    return true;
  });
  // A list that offers the choices ("Select Kenya from the list").
  if (spec.offers?.length) {
    const want = spec.offers.map((v) => norm(v));
    pool = pool.filter((f) => {
      const have = offered(f.node).map((o) => norm(o));
      return want.every((w) => have.includes(w));
    });
    if (!pool.length) return { kind: 'none', why: `no list offers ${spec.offers.map((v) => `"${v}"`).join(', ')}` };
  }
  if (spec.checked !== undefined) pool = pool.filter((f) => Boolean(f.node.checked) === spec.checked);
  // A list or field by the value it shows ("the drop-down showing Europe/London").
  if (spec.showing) {
    const want = norm(spec.showing);
    pool = pool.filter((f) => [f.node.value, ...(f.node.role === 'textbox' ? [rawText(f.node)] : [])].some((v) => typeof v === 'string' && norm(v) === want));
    if (!pool.length) return { kind: 'none', why: `nothing of that kind shows "${spec.showing}"` };
  }
  // An icon: named by its picture only ("the trash icon"), never a control with a word name.
  if (spec.icon) pool = pool.filter(iconLike);
  // An option in the group the words name ("Express shipping"): inside a group whose own name is the scope.
  if (spec.group && spec.scope) {
    const g = bare(spec.scope);
    pool = pool.filter((f) => f.ancestors.some((a) => ['group', 'radiogroup'].includes(a.role) && bare(a.name ?? '') === g));
    spec = { ...spec, scope: undefined, strict: false };
    if (!pool.length) return { kind: 'none', why: `no group named "${g}" holds a ${fam.roles ? [...fam.roles].join('/') : 'control'}` };
  }
  // "the chain-link button in the toolbar" on a page whose toolbar says no "toolbar": a
  // role=toolbar, else a box holding a row of three or more clickable icons (its direct children).
  if (spec.scope && TOOLBAR_WORDS.test(spec.scope.trim()) && !all.some((f) => labelText(f.node).includes(bare(spec.scope!)))) {
    const bar = (a: AriaElement) => a.role === 'toolbar' || (a.children ?? []).filter((c) => isElement(c) && isClickableNode(c) && !/[\p{L}\p{N}]{2,}/u.test(c.name ?? '')).length >= 3;
    pool = pool.filter((f) => f.ancestors.slice(-2).some(bar));
    spec = { ...spec, scope: undefined };
    if (!pool.length) return { kind: 'none', why: 'no toolbar (a role=toolbar, or a row of three or more icon controls) holds it' };
  }
  // "the trash icon in the selection bar": the bar a list shows while rows are ticked ("2
  // selected"), when the page does not show those words itself.
  if (spec.scope && SELECTION_BAR.test(spec.scope.trim()) && !all.some((f) => labelText(f.node).includes(bare(spec.scope!)))) {
    const bar = (a: AriaElement) => pieces(a, []).some((p) => /^\d+\s+(?:[\p{L}]+\s+)?selected$/iu.test(bare(p)));
    pool = pool.filter((f) => f.ancestors.slice(-3).some(bar));
    spec = { ...spec, scope: undefined };
    if (!pool.length) return { kind: 'none', why: 'no selection bar (a bar showing "N selected") holds it' };
  }
  // "the × at the right end of the purple announcement bar": a notice bar of the page, when the
  // page does not show those words itself; one bar only (two: say which by its words).
  if (spec.scope && NOTICE_WORDS.test(spec.scope.trim()) && !all.some((f) => labelText(f.node).includes(bare(spec.scope!)))) {
    const bars = new Set<AriaElement>();
    pool = pool.filter((f) => { const bar = noticeBarOf(f.ancestors); if (bar) bars.add(bar); return Boolean(bar); });
    notice = spec.scope;
    accounted.push(notice);
    spec = { ...spec, scope: undefined };
    if (!pool.length) return { kind: 'none', why: 'no notice bar (a strip of the page with a sentence and one to three controls) holds it' };
    if (bars.size > 1) return { kind: 'none', why: `${bars.size} notice bars on the page; say which by its words` };
  }
  // "the Date box in the empty row": a table's row for a new entry (blank-row.ts), when the
  // page does not show those words itself.
  if (spec.scope && BLANK_ROW_WORDS.test(spec.scope.trim()) && !all.some((f) => bare(labelText(f.node)) === bare(spec.scope!))) {
    const inBlank = pool.filter((f) => f.ancestors.some((a) => isBlankRow(a)));
    pool = inBlank.length ? inBlank : pool.filter((f) => f.ancestors.some((a) => isBlankRow(a, false)));
    spec = { ...spec, scope: undefined };
    if (!pool.length) return { kind: 'none', why: 'no row for a new entry (fields only, all empty) holds it' };
  }
  // "the heart next to the bin icon": a control whose neighbour control shows that picture.
  if (spec.nextTo) {
    const by = spec.nextTo;
    accounted.push(by);
    pool = pool.filter((f) => neighbours(all, f).some((n) => sameIcon(n.name, by, n.node.inferredFrom) || nameTier(n.name, by, false) === 0));
    if (!pool.length) return { kind: 'none', why: `nothing of that kind sits next to a "${by}"` };
  }
  // An icon-only control: no letter or digit in its name (×, 🗑, or none at all).
  if (spec.unnamed) pool = pool.filter((f) => !/[\p{L}\p{N}]/u.test(f.name));
  if (itemKind) pool = all.filter((f) => ITEM_ROLES.has(f.node.role) && !(f.node.children ?? []).some((c) => isElement(c) && c.role === 'columnheader'));
  if (spec.landmark) pool = pool.filter((f) => inLandmark(f, spec.landmark!));
  // A column by its header: only when the page has a header of that name (else the words are colour).
  if (spec.column && all.some((f) => HEADER_ROLES.has(f.node.role) && bare(f.name) === bare(spec.column!))) pool = pool.filter((f) => inColumn(f, spec.column!));
  if (spec.withinOrdinal) {
    const items = all.filter((f) => ITEM_ROLES.has(f.node.role) && !(f.node.children ?? []).some((c) => isElement(c) && c.role === 'columnheader'));
    const k = spec.withinOrdinal === -1 ? items.length - 1 : spec.withinOrdinal - 1;
    const item = items[k];
    if (!item) return { kind: 'none', why: `there is no item/row #${spec.withinOrdinal}` };
    pool = pool.filter((f) => f.ancestors.includes(item.node));
  }
  // A nested scope's wider container ("on the 'Fix login' card"): only what is inside the
  // nearest container showing that text as a whole text of its own.
  // A nested scope's wider container ("on the 'Fix login' card", "in Connected apps"): the
  // inner scope is found as usual, among all candidates (so a look-alike elsewhere still makes
  // it ambiguous), then kept only when its container lies inside the wider one.
  let inWithin: ((x: Scoped) => boolean) | null = null;
  if (spec.within) {
    inWithin = withinTest(all, pool, spec.within);
    if (!inWithin) return { kind: 'none', why: `no one container shows "${spec.within}"` };
  }
  const why: string[] = [];
  if (spec.landmark) why.push(`inside the ${spec.landmark} landmark`);
  if (spec.within) why.push(`inside the container that shows "${spec.within}"`);
  if (spec.nextTo) why.push(`next to the "${spec.nextTo}" control`);
  if (notice) why.push(`in the notice bar (read as "${notice}")`);

  // Tiers by name: exact first; an unnamed control's adjacent text counts as its name.
  let tiers: Flat[][];
  if (!spec.phrase) tiers = [pool];
  else {
    tiers = [[], [], [], []];
    for (const f of pool) {
      let t = Math.max(-1, nameTier(f.name, spec.phrase, !!spec.quoted));
      // An icon named by its picture: "the bin icon" is the element named trash (iconography.ts).
      if (t < 0 && !spec.quoted && iconLike(f) && sameIcon(f.name, spec.phrase, f.node.inferredFrom)) t = 2;
      // A named field's text-before counts only for what a field takes (fill, type, clear); a
      // checkbox's text beside it when its own name is one every row repeats.
      const useAdjacent = f.adjacent && (!f.name || ['fill', 'type', 'clear'].includes(action) || f.sharedName);
      const ta = useAdjacent ? nameTier(f.adjacent, spec.phrase, !!spec.quoted) : -1;
      const best = [t, ta].filter((x) => x >= 0 && x <= (opts.maxTier ?? 3));
      if (best.length) tiers[Math.min(...best)].push(f);
    }
  }
  // One control drawn in two nodes (a clickable <span> around an icon font's <i>, both read
  // "delete"): the inner one is the outer's picture, not a second match.
  for (const [ti, tier] of tiers.entries()) {
    if (tier.length < 2) continue;
    const said = (t: string) => norm(t.replace(/[_-]+/g, ' ')); // a ligature's text "bookmark_border" is its name "bookmark border"
    const named = new Map(tier.map((f) => [f.node, said(f.name)]));
    tiers[ti] = tier.filter((f) => !f.ancestors.some((a) => named.get(a) === said(f.name)));
  }
  // Counting icons ("the 4th star of Dana's post", "Give it 3 stars"): "star" and "star 4" are
  // one picture, so the name tiers are one pool, and the scope picks the run.
  if (spec.phrase && (spec.run || (spec.ordinal && pictured))) tiers = [[...tiers[0], ...tiers[1], ...tiers[2]].sort((a, b) => a.index - b.index), [], [], tiers[3]];
  for (const [ti, tier] of tiers.entries()) {
    if (!tier.length) continue;
    // A derived reading: the whole name, in a container that shows the scope as a whole text.
    // An icon reading ("the × delete icon" → "×") matches by picture (tier 2): that is its whole name.
    if (spec.strict && ti > 0 && !(spec.icon && ti <= 2)) break;
    let cands = tier;
    let scoped: Scoped[] | null = null;
    if (spec.scope) {
      scoped = applyScope(cands, spec.scope, !!spec.strict, Boolean(spec.ordinal));
      // With an ordinal, the innermost container (the row) only, and all of them in that one.
      if (spec.ordinal) {
        const all0 = scoped;
        scoped = all0.filter((x) => !all0.some((y) => y.container !== x.container && x.container && y.f.ancestors.includes(x.container)));
        if (new Set(scoped.map((x) => x.container)).size > 1) scoped = [];
      }
      if (spec.strict) scoped = scoped.filter((x) => x.exact <= 1);
      if (inWithin) scoped = scoped.filter(inWithin);
      cands = scoped.map((s) => s.f);
      if (!cands.length) continue;
    }
    // A real button beats a clickable look-alike with the same name.
    if (cands.length > 1 && looseButton) {
      const real = cands.filter((c) => fam.roles!.has(c.node.role));
      if (real.length) cands = real;
    }
    // Interactive elements beat static ones with the same name (assert/hover pools hold both).
    if (cands.length > 1 && !itemKind) {
      const inter = cands.filter((c) => isClickableNode(c.node));
      if (inter.length) cands = inter;
    }
    cands = [...cands].sort((a, b) => a.index - b.index);
    // "the navigation" with a site nav and a footer nav: the one outside the footer.
    if (cands.length > 1 && spec.landmark === 'navigation') {
      const outside = cands.filter((c) => !c.ancestors.some((a) => a.role === 'contentinfo'));
      if (outside.length) cands = outside;
    }
    if (spec.ordinal && (pictured || spec.run)) {
      // Icons in runs (a rating's stars, a toolbar's arrows): "the 4th star" counts inside one
      // run of like icons in one container; several runs and no scope saying which is no answer.
      const runs = runsOf(cands);
      if (spec.run && runs.length !== 1) return { kind: 'none', why: runs.length ? `${runs.length} groups of "${spec.phrase}" icons${spec.scope ? ` near "${spec.scope}"` : ''}, not one run to count in` : `no run of "${spec.phrase}" icons` };
      if (spec.run && spec.run > 1 && runs[0].length !== spec.run) return { kind: 'none', why: `the run of "${spec.phrase}" icons has ${runs[0].length}, not ${spec.run}` };
      if (runs.filter((r) => r.length > 1).length > 1) return { kind: 'ambiguous', count: runs.length, why: `${runs.length} runs of "${spec.phrase}" icons; say whose (its row or card)`, candidates: runs.slice(0, 10).map((r) => candidate(all, r[0], runs.map((x) => x[0]), { ...spec, ordinal: undefined }, action, { ...opts, wordings: false })) };
    }
    if (spec.ordinal) {
      const k = spec.ordinal === -1 ? cands.length - 1 : spec.ordinal - 1;
      if (k < 0 || k >= cands.length) return { kind: 'none', why: `only ${cands.length} match${cands.length === 1 ? 'es' : ''} ${describe(spec)}, no #${spec.ordinal}` };
      cands = [cands[k]];
      why.push(`#${spec.ordinal === -1 ? 'last' : spec.ordinal} of ${tier.length} in reading order`);
    }
    if (cands.length === 1) {
      let hit = cands[0];
      if (itemKind && action === 'click' && !isClickableNode(hit.node)) hit = firstClickableInside(all, hit) ?? hit;
      // By its accessible name (role + name), by a name a person reads beside it (a label without
      // for: the tree's inferred label, or the text next to it), or by its picture (an inferred icon name).
      const accessible = Boolean(hit.node.name) && (nameTier(hit.node.name!, spec.phrase, !!spec.quoted) >= 0 || sameIcon(hit.node.name!, spec.phrase, hit.node.inferredFrom));
      const pictured = !hit.node.name && hit.node.inferredName && !['label', 'text', 'column'].includes(hit.node.inferredFrom ?? '');
      const byIcon = Boolean(spec.phrase) && !spec.quoted && !accessible && iconLike(hit) && nameTier(hit.name, spec.phrase, false) < 0 && sameIcon(hit.name, spec.phrase, hit.node.inferredFrom);
      const rung = !spec.phrase ? 'kind' : accessible ? 'role' : pictured || byIcon ? 'inferred-name' : 'adjacent-text';
      why.unshift(
        !spec.phrase
          ? `the only ${spec.role ?? action + 'able element'}${spec.scope ? ` in the container that mentions "${spec.scope}"` : ''}`
          : `${hit.node.role} whose ${rung === 'role' ? 'name' : rung === 'inferred-name' ? `${pictured ? 'inferred' : 'icon'} name ("${hit.name}", from its ${hit.node.inferredFrom ?? 'icon text'})` : 'adjacent text'} ${rung === 'inferred-name' && norm(hit.name) !== norm(spec.phrase) ? 'means' : ti === 0 ? 'is' : 'contains'} "${spec.phrase}"${spec.scope ? `, in the container that mentions "${spec.scope}"` : ''}`,
      );
      return { kind: 'hit', ref: hit.ref, node: hit.node, role: hit.node.role, name: hit.name || hit.adjacent, rung: spec.scope ? 'scope' : spec.landmark ? 'landmark' : spec.ordinal ? 'ordinal' : rung, why: why.join('; '), ...(accounted.length ? { accounted } : {}) };
    }
    return { kind: 'ambiguous', count: cands.length, why: `${cands.length} elements match ${describe(spec)}`, candidates: cands.slice(0, 10).map((c) => candidate(all, c, cands, spec, action, opts)) };
  }
  // A group named like the field (a split one-time-code input): its first box.
  if ((action === 'fill' || action === 'type') && spec.phrase && !spec.ordinal && !spec.strict && !spec.scope) {
    // Only a named group (aria-label/labelledby), never a paragraph that happens to say the words.
    const groups = all.filter((f) => ['group', 'generic', 'region', 'form'].includes(f.node.role) && f.node.name && nameTier(f.node.name, spec.phrase, !!spec.quoted) >= 0 && nameTier(f.node.name, spec.phrase, !!spec.quoted) <= 1);
    for (const g of groups) {
      const inner = all.find((o) => o.ancestors.includes(g.node) && ['textbox', 'searchbox', 'spinbutton'].includes(o.node.role));
      if (inner) return { kind: 'hit', ref: inner.ref, node: inner.node, role: inner.node.role, name: g.name, rung: 'group', why: `first box of the ${g.node.role} "${g.name}"`, group: true };
    }
  }
  // Static text as a click target: only quoted verbatim, and only when nothing interactive carries it.
  if (action === 'click' && spec.quoted && spec.phrase && !spec.role) {
    const carried = all.some((f) => isClickableNode(f.node) && nameTier(f.name, spec.phrase, true) >= 0);
    const statics = all.filter((f) => !isClickableNode(f.node) && norm(ownText(f.node)) === norm(spec.phrase) && (!spec.landmark || inLandmark(f, spec.landmark)));
    if (!carried && statics.length === 1) return { kind: 'hit', ref: statics[0].ref, node: statics[0].node, role: statics[0].node.role, name: spec.phrase, rung: 'text', why: `static ${statics[0].node.role} whose text is exactly "${spec.phrase}" (quoted; no interactive element carries it)`, static: true };
  }
  return { kind: 'none', why: `no ${fam.roles ? [...fam.roles].join('/') : fam.needClickable ? 'clickable element' : 'element'} matches ${describe(spec)}` };
}

const HEADER_ROLES = new Set(['columnheader']);
const CELL_ROLES = new Set(['cell', 'gridcell', 'columnheader', 'rowheader']);

/** Is the element in the cell under the column header named so (same position in its row)? */
function inColumn(f: Flat, column: string): boolean {
  const at = f.ancestors.findLastIndex((a) => CELL_ROLES.has(a.role));
  if (at < 1) return false;
  const cell = f.ancestors[at];
  const row = f.ancestors[at - 1];
  const table = f.ancestors.slice(0, at - 1).findLast((a) => ['table', 'grid', 'treegrid'].includes(a.role));
  if (!table || row.role !== 'row') return false;
  const cells = (r: AriaElement) => (r.children ?? []).filter((c): c is AriaElement => isElement(c) && CELL_ROLES.has(c.role));
  const pos = cells(row).indexOf(cell);
  const header = findRow(table, (r) => cells(r).some((c) => c.role === 'columnheader'));
  if (!header || pos < 0) return false;
  const h = cells(header)[pos];
  return Boolean(h) && bare(h.name || subtreeText(h)) === bare(column);
}

/** The first row under a table (through its row groups) that satisfies the test. */
function findRow(n: AriaElement, test: (r: AriaElement) => boolean): AriaElement | null {
  for (const c of n.children ?? []) {
    if (!isElement(c)) continue;
    if (c.role === 'row') { if (test(c)) return c; continue; }
    const r = findRow(c, test);
    if (r) return r;
  }
  return null;
}

/** Word stems to compare a title with ("invite" in "Invitation"): the first five letters. */
const stem = (w: string) => w.toLowerCase().slice(0, 5);

/** The open dialogs whose name or heading holds every word of the title (by stem). */
function dialogsTitled(all: Flat[], title: string): AriaElement[] {
  const dialogs = all.filter((f) => landmarkRoles('dialog').includes(f.node.role)).map((f) => f.node);
  return dialogs.filter((d) => titledBy(d, title));
}

/** Does a box's name or first heading hold every word of the title the words gave it ("the invite dialog": "Invite a teammate")? */
export function titledBy(box: AriaElement, title: string): boolean {
  const want = title.split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3).map(stem);
  if (!want.length) return false;
  const have = `${box.name ?? ''} ${headingOf(box) ?? ''}`.split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(stem);
  return want.every((w) => have.includes(w));
}

// Kinds people tell apart when both sit in one row (a selection checkbox and an Active switch).
const EXACT_FIRST = new Set(['checkbox', 'switch', 'radio']);

const SELECTION_BAR = /^(?:the\s+)?(?:selection|selected|bulk(?:[- ]actions?)?|batch(?:[- ]actions?)?)\s+(?:bar|toolbar|banner|strip|header|panel)$/i;
const TOOLBAR_WORDS = /^(?:the\s+)?(?:(?:top|main|editor|formatting|format|icon|button|action|actions)\s+)?(?:tool ?bar|icon ?bar|button ?bar|action ?bar|formatting bar)$/i;

/** Candidates grouped by the element that holds them directly: the runs of like icons, in reading order. */
function runsOf(cands: Flat[]): Flat[][] {
  const by = new Map<AriaElement | null, Flat[]>();
  for (const c of cands) {
    const p = c.ancestors[c.ancestors.length - 1] ?? null;
    if (!by.has(p)) by.set(p, []);
    by.get(p)!.push(c);
  }
  return [...by.values()];
}

function describe(spec: DescribedTarget): string {
  const bits = [spec.phrase ? `"${spec.phrase}"` : `a ${spec.role ?? 'control'}`];
  if (spec.scope) bits.push(`near/in "${spec.scope}"`);
  if (spec.landmark) bits.push(`in the ${spec.landmark}`);
  return bits.join(' ');
}

const ORD = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth'];

/** A candidate with the words that pick it: its container's own text, else its position. */
function candidate(all: Flat[], c: Flat, cands: Flat[], spec: DescribedTarget, action: TargetAction, opts: MatchOptions): TreeCandidate {
  const name = c.name || c.adjacent;
  const holder = [...c.ancestors].reverse().find((a) => cands.filter((o) => o.ancestors.includes(a)).length === 1);
  const context = holder ? subtreeText(holder).slice(0, 80) : '';
  const out: TreeCandidate = { ref: c.ref, role: c.node.role, ...(name ? { name } : {}), context };
  if (!opts.wordings) return out;
  const base = spec.phrase ? `"${spec.phrase}"` : `the ${spec.role ?? c.node.role}`;
  const kind = spec.phrase ? ` ${c.node.role}` : '';
  const tries: { words: string; spec: DescribedTarget }[] = [];
  if (holder) {
    // The container's heading or first own text line names it.
    const label = headingOf(holder) ?? firstText(holder);
    if (label && norm(label) !== norm(spec.phrase)) tries.push({ words: `${base}${kind} in the "${label}" ${containerNoun(holder)}`, spec: { ...spec, scope: label, ordinal: undefined, role: spec.role ?? c.node.role as never } });
  }
  const pos = cands.indexOf(c) + 1;
  const ordWord = pos === cands.length ? 'last' : ORD[pos - 1] ?? `${pos}th`;
  tries.push({ words: `the ${ordWord} ${spec.phrase ? `"${spec.phrase}" ` : ''}${spec.role ?? c.node.role}${spec.scope ? ` next to "${spec.scope}"` : ''}${spec.landmark ? ` in the ${spec.landmark}` : ''}`, spec: { ...spec, ordinal: pos === cands.length ? -1 : pos, role: spec.role ?? c.node.role as never } });
  for (const t of tries) {
    const m = matchOnTree(all, t.spec, action, { wordings: false });
    if (m.kind === 'hit' && m.ref === c.ref) {
      out.wording = t.words;
      break;
    }
  }
  return out;
}

/**
 * Wordings for candidates another rung found ambiguous (two fields with one label, two texts):
 * each checked on the tree to pick its own element, as for the tree's own ambiguities.
 */
export function wordingsForRefs(all: Flat[], refs: (string | undefined)[], spec: DescribedTarget, action: TargetAction): (string | undefined)[] {
  const cands = refs.map((r) => (r ? all.find((f) => f.ref === r) : undefined));
  const known = cands.filter((c): c is Flat => Boolean(c));
  return cands.map((c) => (c ? candidate(all, c, known, spec, action, { wordings: true }).wording : undefined));
}

function headingOf(a: AriaElement): string | null {
  for (const c of a.children ?? []) {
    if (!isElement(c)) continue;
    if (c.role === 'heading') return ownText(c) || null;
    const h = headingOf(c);
    if (h) return h;
  }
  return null;
}

function firstText(a: AriaElement): string | null {
  for (const c of a.children ?? []) {
    if (typeof c === 'string' && c.trim()) return c.trim();
    if (isElement(c) && !isClickableNode(c)) {
      if (typeof c.text === 'string' && c.text.trim()) return c.text.trim();
      const t = firstText(c);
      if (t) return t;
    }
  }
  return typeof a.text === 'string' && a.text.trim() ? a.text.trim() : null;
}

function containerNoun(a: AriaElement): string {
  return a.role === 'listitem' ? 'item' : a.role === 'row' ? 'row' : a.role === 'article' ? 'card' : 'section';
}

/** Nearest elements by role and by words, for a miss (shadow DOM content is in the tree too). */
export function nearestCandidates(tree: AriaNode[], spec: DescribedTarget, action: TargetAction, limit = 6): { ref: string; role: string; name: string; score: number; match: 'text' | 'role' | 'text+role' }[] {
  const all = flattenTree(tree);
  const fam = familyFor(action, spec.role);
  const words = norm(`${spec.phrase} ${spec.scope ?? ''}`).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
  // By text (the words, in names and shown text; open shadow roots are in the tree too) and
  // by role (the kind of control the action needs): the text matches first, then, when they
  // are few, controls of the right kind so a miss always shows what could be meant.
  const scored = all.map((f) => {
    const text = norm(f.name || f.adjacent);
    const hits = words.filter((w) => text.includes(w)).length;
    const kind = fam.roles ? fam.roles.has(f.node.role) : Boolean(fam.needClickable && isClickTarget(f.node));
    const match = hits && kind ? 'text+role' : hits ? 'text' : 'role';
    return { ref: f.ref, role: f.node.role, name: (f.name || f.adjacent).slice(0, 80), score: hits * 2 + (kind ? 1 : 0), match: match as 'text' | 'role' | 'text+role' };
  });
  const byText = scored.filter((x) => x.score > 1 || (x.score > 0 && !words.length)).sort((a, b) => b.score - a.score).slice(0, limit);
  const byRole = scored.filter((x) => x.score === 1 && x.name).slice(0, Math.max(0, Math.min(3, limit - byText.length)));
  return [...byText, ...byRole];
}

/**
 * "the new todo input", "the add task field": the field that creates a new <noun> — the page's
 * only text box, when a heading names the noun ("todos", "Tasks"). Never a guess among several
 * fields, never on a page that does not say what it lists.
 */
export function newItemField(all: Flat[], spec: DescribedTarget): TreeMatch {
  const m = /^(?:new|add(?:\s+an?)?|create(?:\s+an?)?)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)$/iu.exec(spec.phrase.trim());
  if (!m || spec.scope || spec.quoted) return { kind: 'none', why: '' };
  const noun = norm(m[1]).replace(/-/g, '').replace(/(?:es|s)$/, '');
  const fields = all.filter((f) => f.node.role === 'textbox');
  if (fields.length !== 1 || noun.length < 3) return { kind: 'none', why: `${fields.length} text boxes, not one` };
  // A heading, or a short title text of its own (a toolbar's "todos"), names the noun.
  const names = (t: string) => norm(t).replace(/-/g, '').split(/[^\p{L}\p{N}]+/u).some((w) => w.replace(/(?:es|s)$/, '') === noun);
  const short = (t: string) => t.trim().split(/\s+/).length <= 2;
  const says = all.some((f) => (f.node.role === 'heading' && names(f.name)) || (!isClickableNode(f.node) && !UNNAMED_LABELLED.has(f.node.role) && [f.node.name ?? '', typeof f.node.text === 'string' ? f.node.text : '', ...(f.node.children ?? []).filter((c): c is string => typeof c === 'string')].some((t) => t && short(t) && names(t))));
  if (!says) return { kind: 'none', why: `no heading or title names "${m[1]}"` };
  const f = fields[0];
  return { kind: 'hit', ref: f.ref, node: f.node, role: f.node.role, name: f.name, rung: 'new-item-field', why: `the page's only text box, on a page whose heading names "${m[1]}" (read as the field that adds one)` };
}
