import { type AriaElement, type AriaNode, indexRefs, isElement, shallow } from './tree.js';

// What changed between two snapshots of the same page, keyed by ref. A node without
// a ref (text, options) has no identity of its own, so its changes show up as a
// change of the nearest ref'd ancestor.
//
// Diffs carry text (issue 24 item 5): after "Save" the agent must read "Saved at 12:00"
// in the action's answer, not take another snapshot. An added node shows its name and
// text (bounded); a changed node says what changed in words (`text "A" → "B"`,
// `checked false → true`), never as raw JSON.

/** How much of a node's text a diff entry shows. */
export const DIFF_TEXT_CHARS = 120;

export interface DiffAdded {
  ref: string;
  role: string;
  /** The name a person reads (the accessible name, or an inferred one). */
  name?: string;
  /** Its text, bounded (DIFF_TEXT_CHARS). */
  text?: string;
  parentRef?: string;
}
export interface DiffRemoved {
  ref: string;
  role: string;
  name?: string;
}
export interface DiffChanged {
  ref: string;
  role?: string;
  name?: string;
  /** What changed, in words: `text "Cart: 2 items" → "Cart: 3 items"; checked false → true`. */
  summary: string;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
}
export interface SnapshotDiffResult {
  added: DiffAdded[];
  removed: DiffRemoved[];
  changed: DiffChanged[];
  unchanged: number;
}

/** The name a person reads: the accessible name, else an inferred one (seams §2). */
function personName(n: AriaElement): string | undefined {
  const name = n.name || (typeof n.inferredName === 'string' ? n.inferredName : '');
  return name || undefined;
}

function bounded(s: string, max = DIFF_TEXT_CHARS): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

/**
 * A node's text: its own `text`, its string children and the text of descendants that
 * have no ref of their own (those with refs are entries of their own). `deep` also takes
 * ref'd descendants (an added container shows what it holds).
 */
function textOf(n: AriaElement, deep: boolean, out: string[] = []): string[] {
  if (typeof n.text === 'string' && n.text) out.push(n.text);
  for (const c of n.children ?? []) {
    if (typeof c === 'string') out.push(c);
    else if (isElement(c) && (deep || !c.ref)) {
      const name = personName(c);
      // A named leaf (a link, a button) reads as its name.
      if (name && !(c.children ?? []).length && !c.text) out.push(name);
      else textOf(c, deep, out);
    }
  }
  return out;
}

/** A node's own facts plus its ref-less content, which it owns for diff purposes. */
function signature(n: AriaElement): Record<string, unknown> {
  const own = shallow(n);
  const content: unknown[] = [];
  for (const c of n.children ?? []) {
    if (!isElement(c)) content.push(c);
    else if (!c.ref) content.push(signature(c));
  }
  if (content.length) own.content = content;
  return own;
}

function parents(nodes: AriaNode[], parentRef: string | undefined, out: Map<string, string | undefined>): void {
  for (const n of nodes) {
    if (!isElement(n)) continue;
    if (n.ref) out.set(n.ref, parentRef);
    parents(n.children ?? [], n.ref ?? parentRef, out);
  }
}

const q = (v: unknown) => (typeof v === 'string' ? JSON.stringify(bounded(v, 80)) : v === undefined ? 'unset' : String(v));

/** Ref-less element children by role and name, for "now holds …" words. */
function heldElements(n: AriaElement): string[] {
  const out: string[] = [];
  for (const c of n.children ?? []) {
    if (!isElement(c) || c.ref) continue;
    const name = personName(c);
    out.push(`${c.role}${name ? ` ${JSON.stringify(bounded(name, 60))}` : ''}`);
  }
  return out;
}

/** What changed between two versions of one node, in words. */
export function changeInWords(before: AriaElement, after: AriaElement): string {
  const parts: string[] = [];
  const nameA = personName(before);
  const nameB = personName(after);
  if (nameA !== nameB) parts.push(`name ${q(nameA)} → ${q(nameB)}`);
  if (before.role !== after.role) parts.push(`role ${before.role} → ${after.role}`);
  const textA = bounded(textOf(before, false).join(' '));
  const textB = bounded(textOf(after, false).join(' '));
  if (textA !== textB) parts.push(textA && textB ? `text ${JSON.stringify(textA)} → ${JSON.stringify(textB)}` : textB ? `text now ${JSON.stringify(textB)}` : `text ${JSON.stringify(textA)} removed`);
  const skip = new Set(['role', 'name', 'ref', 'children', 'text', 'inferredName']);
  const keys = new Set([...Object.keys(before), ...Object.keys(after)].filter((k) => !skip.has(k)));
  for (const k of keys) {
    const a = before[k];
    const b = after[k];
    if (JSON.stringify(a) !== JSON.stringify(b)) parts.push(`${k} ${q(a)} → ${q(b)}`);
  }
  if (!parts.length) {
    // Same text and facts: the ref-less elements inside changed (an option selected, an icon swapped).
    const heldA = heldElements(before);
    const heldB = heldElements(after);
    const gained = heldB.filter((h) => !heldA.includes(h));
    const lost = heldA.filter((h) => !heldB.includes(h));
    if (gained.length) parts.push(`now holds ${gained.slice(0, 3).join(', ')}${gained.length > 3 ? ` and ${gained.length - 3} more` : ''}`);
    if (lost.length) parts.push(`no longer holds ${lost.slice(0, 3).join(', ')}${lost.length > 3 ? ` and ${lost.length - 3} more` : ''}`);
    if (!parts.length) {
      const states = (n: AriaElement) => (n.children ?? []).filter((c): c is AriaElement => isElement(c) && !c.ref).map((c) => `${personName(c) ?? c.role}${c.selected ? ' (selected)' : ''}${c.checked ? ' (checked)' : ''}`);
      const sa = states(before);
      const sb = states(after);
      const fresh = sb.filter((s) => !sa.includes(s));
      // The option that became selected says it; the one that lost it is implied.
      const now = fresh.some((s) => s.endsWith(')')) ? fresh.filter((s) => s.endsWith(')')) : fresh;
      parts.push(now.length ? `now ${now.slice(0, 3).join(', ')}` : 'its content changed');
    }
  }
  return parts.join('; ');
}

export function diffSnapshots(before: AriaNode[], after: AriaNode[]): SnapshotDiffResult {
  const a = indexRefs(before);
  const b = indexRefs(after);
  const parentOf = new Map<string, string | undefined>();
  parents(after, undefined, parentOf);
  const out: SnapshotDiffResult = { added: [], removed: [], changed: [], unchanged: 0 };
  for (const [ref, node] of b) {
    const old = a.get(ref);
    if (!old) {
      const p = parentOf.get(ref);
      const name = personName(node);
      // Its own text; a container whose text all sits in ref'd children shows theirs.
      let text = bounded(textOf(node, false).join(' '));
      if (!text) text = bounded(textOf(node, true).join(' '));
      if (text && name && text === bounded(name)) text = '';
      out.added.push({ ref, role: node.role, ...(name ? { name } : {}), ...(text ? { text } : {}), ...(p ? { parentRef: p } : {}) });
      continue;
    }
    const sa = signature(old);
    const sb = signature(node);
    if (JSON.stringify(sa) !== JSON.stringify(sb)) {
      const name = personName(node);
      out.changed.push({ ref, role: node.role, ...(name ? { name } : {}), summary: changeInWords(old, node), before: sa, after: sb });
    } else out.unchanged++;
  }
  for (const [ref, node] of a) {
    const name = personName(node);
    if (!b.has(ref)) out.removed.push({ ref, role: node.role, ...(name ? { name } : {}) });
  }
  return out;
}

/** A diff as lines a person or a model reads: one renderer, shared with MCP and the planners. */
export { diffInWords } from '@ariadne/schema';
