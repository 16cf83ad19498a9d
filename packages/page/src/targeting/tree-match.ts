import { isElement, type AriaElement, type AriaNode } from '../snapshot/tree.js';
import type { TargetAction, DescribedTarget } from './spec.js';

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
}

export interface TreeCandidate {
  ref: string;
  role: string;
  name?: string;
  context: string;
  /** Wording that picks this one (checked to resolve to it). */
  wording?: string;
}

export type TreeMatch =
  | { kind: 'hit'; ref: string; node: AriaElement; role: string; name: string; rung: string; why: string; group?: boolean }
  | { kind: 'ambiguous'; candidates: TreeCandidate[]; count: number; why: string }
  | { kind: 'none'; why: string };

export const CLICKABLE = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'option', 'treeitem', 'combobox', 'textbox', 'searchbox', 'spinbutton', 'slider', 'listbox', 'columnheader', 'summary']);
export const EDITABLE = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
export const CHECKABLE = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);
export const SELECTABLE = new Set(['combobox', 'listbox']);
const UNNAMED_LABELLED = new Set([...EDITABLE, ...CHECKABLE, 'slider']);
const ITEM_ROLES = new Set(['listitem', 'row', 'article']);
const LANDMARK_ALIASES: Record<string, string[]> = { dialog: ['dialog', 'alertdialog'], search: ['search', 'form'] };

const ROLE_FAMILY: Record<string, string[]> = {
  textbox: ['textbox', 'searchbox', 'combobox', 'spinbutton'],
  searchbox: ['searchbox', 'textbox', 'combobox'],
  combobox: ['combobox', 'listbox'],
  checkbox: ['checkbox', 'switch', 'menuitemcheckbox'],
  switch: ['switch', 'checkbox'],
  radio: ['radio', 'menuitemradio'],
  button: ['button'],
  link: ['link'],
  menuitem: ['menuitem', 'menuitemcheckbox', 'menuitemradio'],
  listitem: ['listitem', 'row', 'article'],
  img: ['img', 'image'],
};

export const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

function ownText(n: AriaElement): string {
  if (n.name) return n.name;
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
function pieces(n: AriaElement, out: string[] = []): string[] {
  if (n.name) out.push(norm(n.name));
  if (typeof n.text === 'string') out.push(norm(n.text));
  for (const c of n.children ?? []) {
    if (typeof c === 'string') out.push(norm(c));
    else pieces(c, out);
  }
  return out;
}

function isClickableNode(n: AriaElement): boolean {
  return CLICKABLE.has(n.role) || n.cursor === 'pointer';
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

export function flattenTree(tree: AriaNode[]): Flat[] {
  const out: Flat[] = [];
  const walk = (nodes: AriaNode[], ancestors: AriaElement[], up?: { list: AriaNode[]; i: number }) => {
    nodes.forEach((n, i) => {
      if (!isElement(n)) return;
      if (n.ref) {
        const name = ownText(n);
        const adjacent = !name && UNNAMED_LABELLED.has(n.role) ? adjacentText(nodes, i, n.role, up) : '';
        out.push({ node: n, ref: n.ref, ancestors, index: out.length, name, adjacent });
      }
      // An iframe's content is another frame: refs there are fine (f1e2), keep walking.
      walk(n.children ?? [], [...ancestors, n], { list: nodes, i });
    });
  };
  walk(tree, []);
  return out;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** 0 exact, 1 whole words at the start or end, 2 whole words inside, 3 substring; -1 no. */
const ICON_WORDS: [RegExp, RegExp][] = [
  [/^(?:delete|remove|destroy|trash|discard)$/, /^(?:×|✕|✖|x|🗑|🗑️|−|-)$/u],
  [/^(?:close|dismiss)$/, /^(?:×|✕|✖|x)$/u],
  [/^(?:add|new|plus)$/, /^\+$/],
  [/^(?:edit)$/, /^(?:✎|✏|✏️|🖉)$/u],
];

export function nameTier(name: string, phrase: string, quoted: boolean): number {
  const n = norm(name);
  const p = norm(phrase);
  if (!n || !p) return -1;
  if (n === p) return 0;
  // An icon button named by its glyph: "the delete button" is the ×.
  if (!quoted && ICON_WORDS.some(([w, g]) => w.test(p) && g.test(n))) return 2;
  if (quoted) {
    // Verbatim, but an icon glyph or a count around the name does not make it another name.
    const stripped = n.replace(/^[^\p{L}\p{N}"'“(]+|[^\p{L}\p{N}"'”)!?.]+$/gu, '').trim();
    return stripped === p ? 0 : -1;
  }
  const w = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRe(p)}($|[^\\p{L}\\p{N}])`, 'u');
  if (n.startsWith(p) && w.test(n)) return 1;
  if (n.endsWith(p) && w.test(n)) return 1;
  if (w.test(n)) return 2;
  if (n.includes(p)) return 3;
  return -1;
}

function familyFor(action: TargetAction, role: string | null): { roles: Set<string> | null; needClickable: boolean } {
  const hinted = role ? new Set(ROLE_FAMILY[role] ?? [role]) : null;
  switch (action) {
    case 'fill': case 'type': case 'clear':
      return { roles: hinted && [...hinted].some((r) => EDITABLE.has(r)) ? new Set([...hinted].filter((r) => EDITABLE.has(r))) : EDITABLE, needClickable: false };
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

function inLandmark(f: Flat, landmark: string): boolean {
  const roles = LANDMARK_ALIASES[landmark] ?? [landmark];
  return f.ancestors.some((a) => roles.includes(a.role)) || roles.includes(f.node.role);
}

/** The first clickable inside an element (a result row's link). */
function firstClickableInside(all: Flat[], f: Flat): Flat | null {
  const prefer = all.filter((o) => o.ancestors.includes(f.node) && isClickableNode(o.node) && !CHECKABLE.has(o.node.role));
  return prefer.find((o) => o.node.role === 'link') ?? prefer[0] ?? null;
}

interface Scoped {
  f: Flat;
  /** 0: the container shows the scope text exactly; 1: it contains it. */
  exact: number;
  container: AriaElement | null;
}

/** Keep candidates inside the nearest container that mentions the scope and holds no other candidate. */
function applyScope(cands: Flat[], scope: string): Scoped[] {
  const sc = norm(scope);
  const out: Scoped[] = [];
  for (const c of cands) {
    for (let i = c.ancestors.length - 1; i >= 0; i--) {
      const a = c.ancestors[i];
      if (!subtreeText(a).includes(sc)) continue;
      if (cands.filter((o) => o.ancestors.includes(a)).length === 1) out.push({ f: c, exact: pieces(a).includes(sc) ? 0 : 1, container: a });
      break;
    }
  }
  // The control's own label is the scope text ("the checkbox next to Buy milk" in a flat form).
  for (const c of cands) {
    if (out.some((o) => o.f === c)) continue;
    if (c.adjacent && norm(c.adjacent) === sc) out.push({ f: c, exact: 0, container: null });
  }
  const best = Math.min(...out.map((o) => o.exact));
  return out.filter((o) => o.exact === best);
}

export interface MatchOptions {
  /** Build a wording for each ambiguous candidate and check it (off for the inner checks). */
  wordings?: boolean;
}

export function matchOnTree(tree: AriaNode[] | Flat[], spec: DescribedTarget, action: TargetAction, opts: MatchOptions = { wordings: true }): TreeMatch {
  const all = (tree.length && 'index' in (tree[0] as object) ? tree : flattenTree(tree as AriaNode[])) as Flat[];
  const fam = familyFor(action, spec.role);
  const itemKind = spec.role === 'listitem' && !spec.phrase;
  let pool = all.filter((f) => {
    if (fam.roles && !fam.roles.has(f.node.role)) return false;
    if (!fam.roles && fam.needClickable && !isClickableNode(f.node)) return false;
    return true;
  });
  if (itemKind) pool = all.filter((f) => ITEM_ROLES.has(f.node.role) && !(f.node.children ?? []).some((c) => isElement(c) && c.role === 'columnheader'));
  if (spec.landmark) pool = pool.filter((f) => inLandmark(f, spec.landmark!));
  if (spec.withinOrdinal) {
    const items = all.filter((f) => ITEM_ROLES.has(f.node.role) && !(f.node.children ?? []).some((c) => isElement(c) && c.role === 'columnheader'));
    const k = spec.withinOrdinal === -1 ? items.length - 1 : spec.withinOrdinal - 1;
    const item = items[k];
    if (!item) return { kind: 'none', why: `there is no item/row #${spec.withinOrdinal}` };
    pool = pool.filter((f) => f.ancestors.includes(item.node));
  }
  const why: string[] = [];
  if (spec.landmark) why.push(`inside the ${spec.landmark} landmark`);

  // Tiers by name: exact first; an unnamed control's adjacent text counts as its name.
  let tiers: Flat[][];
  if (!spec.phrase) tiers = [pool];
  else {
    tiers = [[], [], [], []];
    for (const f of pool) {
      const t = Math.max(-1, nameTier(f.name, spec.phrase, !!spec.quoted));
      const ta = f.adjacent ? nameTier(f.adjacent, spec.phrase, !!spec.quoted) : -1;
      const best = [t, ta].filter((x) => x >= 0);
      if (best.length) tiers[Math.min(...best)].push(f);
    }
  }
  for (const [ti, tier] of tiers.entries()) {
    if (!tier.length) continue;
    // A derived reading: the whole name, in a container that shows the scope as a whole text.
    if (spec.strict && ti > 0) break;
    let cands = tier;
    let scoped: Scoped[] | null = null;
    if (spec.scope) {
      scoped = applyScope(cands, spec.scope);
      if (spec.strict) scoped = scoped.filter((x) => x.exact === 0);
      cands = scoped.map((s) => s.f);
      if (!cands.length) continue;
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
    if (spec.ordinal) {
      const k = spec.ordinal === -1 ? cands.length - 1 : spec.ordinal - 1;
      if (k < 0 || k >= cands.length) return { kind: 'none', why: `only ${cands.length} match${cands.length === 1 ? 'es' : ''} ${describe(spec)}, no #${spec.ordinal}` };
      cands = [cands[k]];
      why.push(`#${spec.ordinal === -1 ? 'last' : spec.ordinal} of ${tier.length} in reading order`);
    }
    if (cands.length === 1) {
      let hit = cands[0];
      if (itemKind && action === 'click' && !isClickableNode(hit.node)) hit = firstClickableInside(all, hit) ?? hit;
      const rung = !spec.phrase ? 'kind' : hit.name && nameTier(hit.name, spec.phrase, !!spec.quoted) >= 0 ? 'role' : 'adjacent-text';
      why.unshift(
        !spec.phrase
          ? `the only ${spec.role ?? action + 'able element'}${spec.scope ? ` in the container that mentions "${spec.scope}"` : ''}`
          : `${hit.node.role} whose ${rung === 'role' ? 'name' : 'adjacent text'} ${ti === 0 ? 'is' : 'contains'} "${spec.phrase}"${spec.scope ? `, in the container that mentions "${spec.scope}"` : ''}`,
      );
      return { kind: 'hit', ref: hit.ref, node: hit.node, role: hit.node.role, name: hit.name || hit.adjacent, rung: spec.scope ? 'scope' : spec.landmark ? 'landmark' : spec.ordinal ? 'ordinal' : rung, why: why.join('; ') };
    }
    return { kind: 'ambiguous', count: cands.length, why: `${cands.length} elements match ${describe(spec)}`, candidates: cands.slice(0, 10).map((c) => candidate(all, c, cands, spec, action, opts)) };
  }
  // A group named like the field (a split one-time-code input): its first box.
  if ((action === 'fill' || action === 'type') && spec.phrase && !spec.ordinal) {
    const groups = all.filter((f) => !EDITABLE.has(f.node.role) && nameTier(f.name, spec.phrase, !!spec.quoted) >= 0 && nameTier(f.name, spec.phrase, !!spec.quoted) <= 1);
    for (const g of groups) {
      const inner = all.find((o) => o.ancestors.includes(g.node) && ['textbox', 'searchbox', 'spinbutton'].includes(o.node.role));
      if (inner) return { kind: 'hit', ref: inner.ref, node: inner.node, role: inner.node.role, name: g.name, rung: 'group', why: `first box of the ${g.node.role} "${g.name}"`, group: true };
    }
  }
  // Static text as a click target: only quoted verbatim, and only when nothing interactive carries it.
  if (action === 'click' && spec.quoted && spec.phrase && !spec.role) {
    const carried = all.some((f) => isClickableNode(f.node) && nameTier(f.name, spec.phrase, true) >= 0);
    const statics = all.filter((f) => !isClickableNode(f.node) && norm(ownText(f.node)) === norm(spec.phrase) && (!spec.landmark || inLandmark(f, spec.landmark)));
    if (!carried && statics.length === 1) return { kind: 'hit', ref: statics[0].ref, node: statics[0].node, role: statics[0].node.role, name: spec.phrase, rung: 'text', why: `static ${statics[0].node.role} whose text is exactly "${spec.phrase}" (quoted; no interactive element carries it)` };
  }
  return { kind: 'none', why: `no ${fam.roles ? [...fam.roles].join('/') : fam.needClickable ? 'clickable element' : 'element'} matches ${describe(spec)}` };
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
export function nearestCandidates(tree: AriaNode[], spec: DescribedTarget, action: TargetAction, limit = 6): { ref: string; role: string; name: string; score: number }[] {
  const all = flattenTree(tree);
  const fam = familyFor(action, spec.role);
  const words = norm(`${spec.phrase} ${spec.scope ?? ''}`).split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 1);
  return all
    .map((f) => {
      const text = norm(f.name || f.adjacent);
      let score = words.filter((w) => text.includes(w)).length * 2;
      if (fam.roles?.has(f.node.role)) score += 1;
      else if (fam.needClickable && isClickableNode(f.node)) score += 1;
      return { ref: f.ref, role: f.node.role, name: (f.name || f.adjacent).slice(0, 80), score };
    })
    .filter((x) => x.score > 1 || (x.score > 0 && !words.length))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
}
