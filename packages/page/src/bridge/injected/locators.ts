// Facts for locator synthesis, gathered in one pass around the target: the stable
// containers above it (test ids, ids, landmark roles, semantic tags, classes, plain
// structure), how many elements each container locator would match on the page, and
// which texts inside the target's container occur in no other match (content filters
// for filter({ hasText })). The host composes candidates from these and proves each
// one on the live page; nothing here is trusted without that proof.

import { deepContains, deepQueryAll, elementText, isHeading, isVisible, labelOf, normText, parentOf, roleOf, tagOf, testIdOf, truncate, TEST_ID_ATTRS } from './dom.js';
import { bestSelector, stableClasses, deepMatches } from './selectors.js';

export type Step =
  | { m: 'getByRole'; role: string; name?: string; exact?: boolean }
  | { m: 'getByTestId'; value: string }
  | { m: 'locator'; selector: string }
  | { m: 'getByLabel' | 'getByPlaceholder' | 'getByAltText' | 'getByTitle' | 'getByText'; text: string; exact?: boolean };

export interface ContainerCandidate {
  level: number;
  kind: 'testid' | 'test-attr' | 'id' | 'role' | 'tag' | 'class' | 'structural';
  step: Step;
  tag: string;
  matchCount: number;
  /** Texts of this container found in no other match, best first. */
  filterTexts: string[];
  /** When filterTexts is empty only because ancestors match too: texts unique among the rest. */
  nestedFilterTexts?: string[];
  /** Elements inside with the target's tag and label (the target included): above 1, role + name inside is not unique. */
  similarInside: number;
}

export interface LocatorFacts {
  tag: string;
  markupRole?: string;
  own: { testId?: { attr: string; value: string }; labels: string[]; placeholder?: string; alt?: string; title?: string; text?: string };
  containers: ContainerCandidate[];
  css: string;
}

const LANDMARK_ROLES = new Set(['listitem', 'row', 'article', 'region', 'form', 'navigation', 'dialog', 'group', 'complementary', 'tabpanel', 'banner', 'contentinfo', 'main', 'listbox', 'menu', 'table', 'list']);
const SEMANTIC_TAGS = new Set(['article', 'section', 'form', 'nav', 'aside', 'header', 'footer', 'main', 'li', 'tr', 'fieldset', 'dialog', 'table', 'ul', 'ol', 'details', 'figure', 'tbody']);
// Roles whose locator needs a name to be worth anything as a container.
const NAMED_ONLY = new Set(['region', 'form', 'group', 'navigation', 'list', 'table', 'main', 'banner', 'contentinfo']);

const lower = (s: string) => normText(s).toLowerCase();

function ariaLabel(el: Element): string | undefined {
  const v = el.getAttribute('aria-label');
  return v && v.trim() ? normText(v) : undefined;
}

/** Texts inside `c` usable as content filters, best first: headings, labels, test-id'd text, then other text. */
function textCandidates(c: Element, target: Element, cache: Map<Node, string>, max: number): string[] {
  const headings: string[] = [];
  const strong: string[] = [];
  const other: string[] = [];
  const seen = new Set<string>();
  const add = (list: string[], raw: string) => {
    const t = normText(raw);
    if (t.length < 2 || t.length > 80 || seen.has(t.toLowerCase())) return;
    seen.add(t.toLowerCase());
    list.push(t);
  };
  let visited = 0;
  const rec = (el: Element) => {
    for (let ch = el.firstElementChild; ch; ch = ch.nextElementSibling) {
      if (++visited > 3000) return;
      const tag = tagOf(ch);
      if (tag === 'script' || tag === 'style' || tag === 'template') continue;
      if (ch !== target && isVisible(ch)) {
        if (isHeading(ch)) add(headings, elementText(ch, cache));
        else if (tag === 'label' || tag === 'legend' || tag === 'th' || tag === 'dt' || tag === 'caption' || testIdOf(ch)) add(strong, elementText(ch, cache));
        let own = '';
        for (let n = ch.firstChild; n; n = n.nextSibling) if (n.nodeType === 3) own += n.nodeValue ?? '';
        if (own.trim()) add(other, own);
      }
      rec(ch);
      if (ch.shadowRoot) rec(ch.shadowRoot as unknown as Element);
    }
  };
  // The container's own text first among the plain texts (a list item's label).
  let ownText = '';
  for (let n = c.firstChild; n; n = n.nextSibling) if (n.nodeType === 3) ownText += n.nodeValue ?? '';
  if (ownText.trim()) add(other, ownText);
  rec(c);
  if (c.shadowRoot) rec(c.shadowRoot as unknown as Element);
  return [...headings, ...strong, ...other].slice(0, max);
}

/**
 * Texts of `c` that no other match contains. With `skipAncestors`, matches that are
 * ancestors of `c` do not count (nested lists: the outer item contains the inner's
 * text); such a filter needs an outer container to scope it.
 */
function uniqueTexts(c: Element, matches: Element[], target: Element, cache: Map<Node, string>, skipAncestors = false): string[] {
  if (matches.length <= 1) return [];
  const others = matches.filter((m) => m !== c && !(skipAncestors && deepContains(m, c))).map((m) => lower(elementText(m, cache)));
  const mine = lower(elementText(c, cache));
  const out: string[] = [];
  for (const t of textCandidates(c, target, cache, 40)) {
    const k = t.toLowerCase();
    if (!mine.includes(k)) continue;
    if (others.some((o) => o.includes(k))) continue;
    out.push(truncate(t, 80));
    if (out.length >= 3) break;
  }
  return out;
}

// Tags with each implicit role, so role matches come from a CSS prefilter, not a full scan.
const ROLE_TAGS: Record<string, string> = {
  listitem: 'li', row: 'tr', article: 'article', region: 'section', form: 'form', navigation: 'nav', dialog: 'dialog',
  group: 'fieldset,details', complementary: 'aside', banner: 'header', contentinfo: 'footer', main: 'main', listbox: 'select',
  menu: 'menu', table: 'table', list: 'ul,ol,menu',
};

function roleMatches(role: string, name: string | undefined): Element[] {
  const sel = [ROLE_TAGS[role], `[role="${role}"]`].filter(Boolean).join(',');
  const all = deepQueryAll(document, sel, 20_000);
  return all.filter((e) => roleOf(e) === role && (!name || ariaLabel(e) === name) && isVisible(e));
}

function containersOf(target: Element, cache: Map<Node, string>): ContainerCandidate[] {
  const out: ContainerCandidate[] = [];
  const tTag = tagOf(target);
  const tLabel = labelOf(target, cache).toLowerCase();
  const similarCache = new Map<Element, number>();
  const similarIn = (c: Element) => {
    let n = similarCache.get(c);
    if (n === undefined) {
      n = (deepMatches(c, CSS.escape(tTag), 100_000) ?? []).filter((e) => labelOf(e, cache).toLowerCase() === tLabel).length;
      similarCache.set(c, n);
    }
    return n;
  };
  const body = target.ownerDocument.body;
  let level = 0;
  for (let c = parentOf(target); c && c !== body && tagOf(c) !== 'html' && level < 10; c = parentOf(c)) {
    level++;
    const tag = tagOf(c);
    const push = (kind: ContainerCandidate['kind'], step: Step, matches: Element[] | null) => {
      if (!matches || !matches.includes(c)) return;
      const filterTexts = uniqueTexts(c, matches, target, cache);
      const cand: ContainerCandidate = { level, kind, step, tag, matchCount: matches.length, filterTexts, similarInside: similarIn(c) };
      if (!filterTexts.length && matches.some((m) => m !== c && deepContains(m, c))) {
        const nested = uniqueTexts(c, matches, target, cache, true);
        if (nested.length) cand.nestedFilterTexts = nested;
      }
      out.push(cand);
    };
    const tid = c.getAttribute('data-testid');
    if (tid) push('testid', { m: 'getByTestId', value: tid }, deepMatches(document, `[data-testid="${CSS.escape(tid)}"]`, 5000));
    for (const a of TEST_ID_ATTRS) {
      if (a === 'data-testid') continue;
      const v = c.getAttribute(a);
      if (v) {
        const sel = `[${a}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
        push('test-attr', { m: 'locator', selector: sel }, deepMatches(document, sel, 5000));
      }
    }
    const id = c.getAttribute('id');
    if (id && /^[A-Za-z][\w-]*$/.test(id) && !/\d{4,}/.test(id)) push('id', { m: 'locator', selector: `#${id}` }, deepMatches(document, `#${CSS.escape(id)}`, 5000));
    const role = roleOf(c);
    const label = ariaLabel(c);
    if (role && LANDMARK_ROLES.has(role) && (!NAMED_ONLY.has(role) || label)) {
      push('role', { m: 'getByRole', role, ...(label ? { name: label, exact: true } : {}) }, roleMatches(role, label));
    } else if (SEMANTIC_TAGS.has(tag)) {
      push('tag', { m: 'locator', selector: tag }, deepMatches(document, tag, 5000));
    }
    const cls = stableClasses(c)[0];
    if (cls) push('class', { m: 'locator', selector: `${tag}.${cls}` }, deepMatches(document, `${tag}.${CSS.escape(cls)}`, 5000));
    // Plain structure: the container's tag under its parent (seed 000 §3.7, classless markup).
    const p = parentOf(c);
    if (p && p.shadowRoot == null && c.parentNode === p) {
      const pid = p.getAttribute('id');
      const ptid = testIdOf(p);
      const psel = pid && /^[A-Za-z][\w-]*$/.test(pid) ? `#${pid}` : ptid ? `[${ptid.attr}="${ptid.value.replace(/"/g, '\\"')}"]` : tagOf(p);
      const sel = `${psel} > ${tag}`;
      push('structural', { m: 'locator', selector: sel }, deepMatches(document, sel, 5000));
    }
    if (out.length >= 16) break;
  }
  return out;
}

export function locatorFacts(target: Element): LocatorFacts {
  const cache = new Map<Node, string>();
  const labels = (target as HTMLInputElement).labels ? Array.from((target as HTMLInputElement).labels ?? []).map((l) => normText(elementText(l, cache))).filter(Boolean) : [];
  const own: LocatorFacts['own'] = { labels };
  const tid = testIdOf(target);
  if (tid) own.testId = tid;
  const ph = target.getAttribute('placeholder');
  if (ph) own.placeholder = normText(ph);
  const alt = target.getAttribute('alt');
  if (alt) own.alt = normText(alt);
  const title = target.getAttribute('title');
  if (title) own.title = normText(title);
  const text = normText(elementText(target, cache));
  if (text && text.length <= 80) own.text = text;
  return {
    tag: tagOf(target),
    ...(roleOf(target) ? { markupRole: roleOf(target) } : {}),
    own,
    containers: containersOf(target, cache),
    css: bestSelector(target, target.ownerDocument),
  };
}

export const LOCATOR_OPS: Record<string, (args: any, list: { tag: string; el: Element }[] | null, extra: unknown[]) => unknown> = {
  locatorFacts: (_a, list) => locatorFacts(list![0].el),
};
