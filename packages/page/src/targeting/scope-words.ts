import type { AriaElement } from '../snapshot/tree.js';
import { pieces, subtreeText, type Flat, type Scoped } from './tree-match.js';

// A scope a person words in their own order: "the login redirect fix" for the card "Fix login
// redirect", "the privacy policy card" for "Update privacy policy", "the Monday summary of my
// projects" for the row "Weekly digest — A summary of your projects every Monday". Read only
// when no container shows the scope as a whole text (applyScope), and only when one row, item
// or card holds every content word of it as a whole word (a word's ending aside: "projects" is
// "project"), no other does, and it holds the one candidate: "Invoice 12" is never "Invoice 123"
// (12 is no word there), and two rows with the words are no answer.

const FILLER = new Set(['the', 'a', 'an', 'of', 'my', 'your', 'our', 'their', 'his', 'her', 'its', 'this', 'that', 'to', 'for', 'in', 'on', 'at', 'by', 'with', 'and', 'from', 'about', 'me', 'us', 'i', 'we', 'you', 'these', 'those', 'all', 'is', 'are', 'was', 'were', 'be', 'been', 'has', 'have', 'per']);
// What a person calls the item itself, not a word it shows.
const KIND = new Set(['card', 'cards', 'row', 'rows', 'line', 'lines', 'item', 'items', 'entry', 'entries', 'record', 'tile', 'task', 'todo', 'post', 'message', 'one']);
const ROW_ROLES = new Set(['listitem', 'row', 'article']);
/** A card, a settings row, a sentence: what one container of a person's words can hold. */
const COMPACT_CHARS = 200;

/** A word as compared: case aside, a plural or verb ending aside. */
export function stem(w: string): string {
  const s = w.toLowerCase();
  if (s.length <= 4) return s;
  return s.replace(/(?:ies)$/, 'y').replace(/(?:ing|ed|es|s)$/, '').slice(0, 6);
}

export function contentWords(scope: string): string[] {
  return scope.toLowerCase().replace(/['’]s\b/g, '').split(/[^\p{L}\p{N}@#]+/u).filter((w) => w && !FILLER.has(w) && !KIND.has(w));
}

function wordsOf(text: string): Set<string> {
  return new Set(text.split(/[^\p{L}\p{N}@#]+/u).filter(Boolean).map(stem));
}

const CHECKABLE_ROLES = new Set(['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/**
 * Does the subtree hold a box of its own (another row's checkbox, radio or switch, whose words
 * are its label)? A header's ⋯ beside a list's title is no such row: its words title the list.
 */
function hasControl(n: AriaElement): boolean {
  return CHECKABLE_ROLES.has(n.role) || (n.children ?? []).some((k) => typeof k !== 'string' && hasControl(k));
}

function headingsIn(n: AriaElement, out: AriaElement[] = []): AriaElement[] {
  for (const k of n.children ?? []) if (typeof k !== 'string') (k.role === 'heading' ? out.push(k) : headingsIn(k, out));
  return out;
}

/**
 * The words `a` holds for the candidate: its own branch, and the parts of `a` that hold no
 * control (a card's title, a row's text cell, a heading) — never a sibling row's words ("Red"
 * and "Blue" beside the Teal box are other boxes' labels).
 */
function holdsFor(a: AriaElement, c: Flat, want: string[]): boolean {
  const have = new Set<string>();
  for (const w of wordsOf(a.name ?? '')) have.add(w);
  for (const k of a.children ?? []) {
    if (typeof k === 'string') { for (const w of wordsOf(k)) have.add(w); continue; }
    if (k === c.node || c.ancestors.includes(k) || !hasControl(k)) for (const w of wordsOf(subtreeText(k))) have.add(w);
    // A header with a menu button in it ("Review 2 ⋯"): its heading's words are the container's title.
    else for (const h of headingsIn(k)) for (const w of wordsOf(subtreeText(h))) have.add(w);
  }
  return want.every((w) => have.has(w));
}

/** Does this element hold every one of the words? */
function holdsAll(a: AriaElement, want: string[]): boolean {
  const have = wordsOf(subtreeText(a));
  return want.every((w) => have.has(w));
}

/**
 * Does a part of `a` other than the candidate's own branch hold every word, and another
 * candidate with it? Then the words are that item's (another row's delete, not this one).
 */
function wordsElsewhere(a: AriaElement, want: string[], c: Flat, cands: Flat[]): boolean {
  const others = cands.filter((o) => o !== c);
  const walk = (n: AriaElement): boolean => {
    for (const k of n.children ?? []) {
      if (typeof k === 'string' || !holdsAll(k, want)) continue;
      if (!c.ancestors.includes(k) && k !== c.node && others.some((o) => o.node === k || o.ancestors.includes(k))) return true;
      if (walk(k)) return true;
    }
    return false;
  };
  return walk(a);
}

/**
 * The sentence of running text a control sits in, when it is a direct child of a paragraph
 * of strings and inline controls ("To attach scanned receipts <a>click here</a>. For the
 * policy <a>see this page</a>."): its words, or null when `a` is no such text.
 */
function sentenceOf(a: AriaElement, c: Flat, cands: Flat[]): string[] | null {
  const kids = a.children ?? [];
  // Running text: sentences ending in a full stop, not a list of labelled boxes.
  if (!kids.some((k) => typeof k === 'string' && /[.!?](?:\s|$)/.test(k)) || !kids.includes(c.node)) return null;
  const sentences: string[][] = [[]];
  const controls: number[] = [];
  let at = -1;
  for (const k of kids) {
    if (typeof k !== 'string') {
      if (k === c.node) at = sentences.length - 1;
      if (cands.some((o) => o.node === k)) controls.push(sentences.length - 1);
      sentences[sentences.length - 1].push(subtreeText(k));
      continue;
    }
    const parts = k.split(/(?<=[.!?])\s+/);
    parts.forEach((p, i) => {
      if (i > 0) sentences.push([]);
      sentences[sentences.length - 1].push(p.toLowerCase());
    });
  }
  // The one control of its sentence.
  return at >= 0 && controls.filter((i) => i === at).length === 1 ? sentences[at] : null;
}

/**
 * The words titling the containers around a row: their names (a table's caption, a region's
 * label) and their headings ("Expense Lines" over the table) — what "the taxi expense" takes
 * its second word from.
 */
function titleWords(outer: AriaElement[]): Set<string> {
  const out = new Set<string>();
  for (const a of outer) {
    for (const w of wordsOf(a.name ?? '')) out.add(w);
    for (const k of a.children ?? []) if (typeof k !== 'string' && k.role === 'heading') for (const w of wordsOf(subtreeText(k))) out.add(w);
  }
  return out;
}

/** A row holding every word but one, that one in a title around it: "the taxi expense" in the Expense Lines table. */
function titledRow(a: AriaElement, outer: AriaElement[], want: string[]): boolean {
  if (!ROW_ROLES.has(a.role)) return false;
  const have = wordsOf(subtreeText(a));
  const missing = want.filter((w) => !have.has(w));
  return missing.length === 1 && want.length - missing.length >= 1 && titleWords(outer).has(missing[0]);
}

/**
 * The words as a name the page shows, or a name that begins with them ("Walk the dog" in "Walk
 * the dog later", "Invoice 7" in "Invoice 7 (void)"): those are names, and a name is matched
 * whole or not at all (applyScope) — a missing item is never another that extends its name.
 */
function namesTheWords(pieces: string[], scope: string): boolean {
  const sc = scope.toLowerCase().replace(/^(?:the|a|an)\s+/, '').replace(/[.!?;,:]+$/, '').replace(/\s+/g, ' ').trim();
  return pieces.some((p) => p === sc || p.startsWith(`${sc} `) || p.startsWith(`${sc}(`));
}

export function scopeByWords(cands: Flat[], scope: string, many: boolean): Scoped[] {
  const want = [...new Set(contentWords(scope).map(stem))];
  // One word is a name, and names are matched whole (applyScope); a sentence is no scope.
  // A handle or a tag names one account exactly ("@ann_b"): never by its pieces.
  // Two things joined ("Red and Blue", "A, B") are a list of names, not one item's words.
  if (want.length < 2 || want.length > 6 || !cands.length || /[@#]/.test(scope) || /\s(?:and|or)\s|,/i.test(scope)) return [];
  const roots = new Set(cands.map((c) => c.ancestors[0] ?? c.node));
  if (namesTheWords([...roots].flatMap((r) => pieces(r)), scope)) return [];
  const out: Scoped[] = [];
  for (const c of cands) {
    // A control drawn as a card that shows the words itself ("Team · $12 / user / month").
    if (holdsAll(c.node, want) && subtreeText(c.node).length <= COMPACT_CHARS && !cands.some((o) => o !== c && o.ancestors.includes(c.node))) {
      out.push({ f: c, exact: 1, container: c.node });
      continue;
    }
    for (let i = c.ancestors.length - 1; i >= 0; i--) {
      const a = c.ancestors[i];
      const titled = titledRow(a, c.ancestors.slice(0, i), want);
      if (!titled && !holdsAll(a, want)) continue;
      const sentence = sentenceOf(a, c, cands);
      // Every word by the candidate, not in a sibling row that has controls of its own.
      if (!titled && !sentence && !holdsFor(a, c, want)) break;
      // The words of one row or card, not of a whole layout table that happens to hold them all.
      if (!ROW_ROLES.has(a.role) && subtreeText(a).length > COMPACT_CHARS) break;
      // The words are in a row this candidate is not in (a toolbar's control): not its scope.
      if (wordsElsewhere(a, want, c, cands)) break;
      if (many || cands.filter((o) => o.ancestors.includes(a)).length === 1) out.push({ f: c, exact: 1, container: a });
      // Prose with several links: the one in the sentence that says the words.
      else if (sentence) {
        const words = wordsOf(sentence.join(' '));
        if (want.every((w) => words.has(w))) out.push({ f: c, exact: 1, container: a });
      }
      break;
    }
  }
  // Two containers hold the words: which one the person meant is not known.
  const containers = new Set(out.map((o) => o.container));
  return containers.size === 1 ? out : [];
}
