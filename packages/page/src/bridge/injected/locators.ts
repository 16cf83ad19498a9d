// Locator synthesis in the page, in one round trip: facts around the target (stable
// containers above it: test ids, ids, landmark roles, semantic and custom-element tags,
// classes, plain structure; anchors that tell a container from its look-alikes; the
// target's own label / placeholder / test id), candidate locators drafted from them
// (../../locators/drafts.ts), every candidate MATCHED here with Playwright's semantics
// for the steps we emit (count, identity), checked against a near-duplicate, and given
// its weaknesses and score. The host then proves the best few with Playwright itself;
// nothing here is returned to a client without that proof.
//
// Generated ids, classes and test ids (generated-ids.ts) are never used as anchors.

import { deepContains, deepQueryAll, elementText, isHeading, isVisible, labelOf, normText, parentOf, roleOf, tagOf, testIdOf, truncate, walk, TEST_ID_ATTRS } from './dom.js';
import { bestSelector, stableClasses, deepMatches } from './selectors.js';
import { generatedReason } from './generated-ids.js';
import type { LocatorStep } from '../../locators/steps.js';
import { drafts, scoreOf, weaknessesOf, type Anchor, type ContainerFacts, type Draft, type Facts, type Weakness } from '../../locators/drafts.js';

type Step = LocatorStep;
type ContainerCandidate = ContainerFacts;
export type LocatorFacts = Facts;

const LANDMARK_ROLES = new Set(['listitem', 'row', 'article', 'region', 'form', 'navigation', 'dialog', 'group', 'complementary', 'tabpanel', 'banner', 'contentinfo', 'main', 'listbox', 'menu', 'table', 'list']);
const SEMANTIC_TAGS = new Set(['article', 'section', 'form', 'nav', 'aside', 'header', 'footer', 'main', 'li', 'tr', 'fieldset', 'dialog', 'table', 'ul', 'ol', 'details', 'figure', 'tbody']);
// Roles whose locator needs a name to be worth anything as a container.
const NAMED_ONLY = new Set(['region', 'form', 'group', 'navigation', 'list', 'table', 'main', 'banner', 'contentinfo']);

const lower = (s: string) => normText(s).toLowerCase();

function ariaLabel(el: Element): string | undefined {
  const v = el.getAttribute('aria-label');
  return v && v.trim() ? normText(v) : undefined;
}

/** Texts inside `c` that could anchor it, best first: headings, labels / cells / test-id'd text, then other text. */
function anchorCandidates(c: Element, target: Element, cache: Map<Node, string>, max: number): Anchor[] {
  const headings: Anchor[] = [];
  const strong: Anchor[] = [];
  const other: Anchor[] = [];
  const seen = new Set<string>();
  const add = (list: Anchor[], raw: string, kind: Anchor['kind']) => {
    const t = normText(raw);
    if (t.length < 2 || t.length > 80 || seen.has(t)) return;
    seen.add(t);
    list.push({ text: t, kind });
  };
  let visited = 0;
  const rec = (el: Element | ShadowRoot) => {
    for (let ch = el.firstElementChild; ch; ch = ch.nextElementSibling) {
      if (++visited > 3000) return;
      const tag = tagOf(ch);
      if (tag === 'script' || tag === 'style' || tag === 'template') continue;
      if (ch !== target && !deepContains(ch, target) && isVisible(ch)) {
        const full = normText(elementText(ch, cache));
        if (isHeading(ch)) add(headings, labelOf(ch, cache) || full, 'heading');
        else if (tag === 'label' || tag === 'legend' || tag === 'th' || tag === 'td' || tag === 'dt' || tag === 'caption' || testIdOf(ch)) add(strong, full, 'text');
        let own = '';
        for (let n = ch.firstChild; n; n = n.nextSibling) if (n.nodeType === 3) own += n.nodeValue ?? '';
        // A text node that is the element's whole text can be matched exactly (getByText exact).
        if (own.trim()) add(other, own, normText(own) === full ? 'text' : 'own');
      }
      rec(ch);
      if (ch.shadowRoot) rec(ch.shadowRoot);
    }
  };
  // The container's own text first among the plain texts (a list item's label).
  let ownText = '';
  for (let n = c.firstChild; n; n = n.nextSibling) if (n.nodeType === 3) ownText += n.nodeValue ?? '';
  if (ownText.trim()) add(other, ownText, 'own');
  rec(c);
  if (c.shadowRoot) rec(c.shadowRoot);
  return [...headings, ...strong, ...other].slice(0, max);
}

/**
 * Anchors of `c` among `matches`, best first. Exact anchors (a heading's name, an
 * element's whole text) are kept even when a look-alike contains them as a substring
 * ("Desk Lamp" in "Desk Lamp Pro"): the matcher decides. A substring anchor is kept
 * only when no other match contains it. With `skipAncestors`, matches that are
 * ancestors of `c` do not count (nested lists).
 */
function anchorsOf(c: Element, matches: Element[], target: Element, cache: Map<Node, string>, skipAncestors = false): Anchor[] {
  if (matches.length <= 1) return [];
  const others = matches.filter((m) => m !== c && !(skipAncestors && deepContains(m, c))).map((m) => lower(elementText(m, cache)));
  const mine = lower(elementText(c, cache));
  const tName = lower(labelOf(target, cache));
  const scored: { a: Anchor; hits: number; i: number }[] = [];
  anchorCandidates(c, target, cache, 40).forEach((a, i) => {
    const k = a.text.toLowerCase();
    if (!mine.includes(k) || k === tName) return;
    const hits = others.reduce((n, o) => n + (o.includes(k) ? 1 : 0), 0);
    if (a.kind === 'own' && hits > 0) return;
    // Exact anchors found nowhere else first, then exact ones others hold as a substring.
    if (hits > 0 && hits >= others.length) return;
    scored.push({ a: { ...a, text: truncate(a.text, 80) }, hits: hits ? 1 : 0, i });
  });
  // The container's whole text, exactly, when short and no look-alike's is the same: the
  // exact anchor for a row whose label is its own text beside the target ("Desk Lamp" + Remove
  // vs "Desk Lamp Pro" + Remove), where only a substring filter could say "Desk Lamp".
  const whole = normText(elementText(c, cache));
  if (whole.length >= 2 && whole.length <= 80 && !scored.some((x) => x.hits === 0 && x.a.kind !== 'own')) {
    const w = whole.toLowerCase();
    const others2 = matches.filter((m) => m !== c && !(skipAncestors && deepContains(m, c)));
    if (!others2.some((m) => lower(elementText(m, cache)) === w)) scored.push({ a: { text: whole, kind: 'whole' }, hits: 0, i: 999 });
  }
  const rank = (a: Anchor) => (a.kind === 'own' ? 2 : a.kind === 'whole' ? 1 : 0);
  scored.sort((x, y) => x.hits - y.hits || rank(x.a) - rank(y.a) || x.i - y.i);
  return scored.slice(0, 3).map((s) => s.a);
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
      const nested = matches.some((m) => m !== c && deepContains(m, c));
      const anchors = anchorsOf(c, matches, target, cache);
      const cand: ContainerCandidate = { level, kind, step, tag, matchCount: matches.length, anchors, similarInside: similarIn(c) };
      if (nested) {
        const inner = anchorsOf(c, matches, target, cache, true);
        if (inner.length) cand.nestedAnchors = inner;
      }
      out.push(cand);
    };
    // Generated values (per build, per render, per session) are never anchors.
    const tid = c.getAttribute('data-testid');
    if (tid && !generatedReason(tid, 'testid')) push('testid', { m: 'getByTestId', value: tid }, deepMatches(document, `[data-testid="${CSS.escape(tid)}"]`, 5000));
    for (const a of TEST_ID_ATTRS) {
      if (a === 'data-testid') continue;
      const v = c.getAttribute(a);
      if (v && !generatedReason(v, 'testid')) {
        const sel = `[${a}="${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
        push('test-attr', { m: 'locator', selector: sel }, deepMatches(document, sel, 5000));
      }
    }
    const id = c.getAttribute('id');
    if (id && /^[A-Za-z][\w-]*$/.test(id) && !generatedReason(id, 'id')) push('id', { m: 'locator', selector: `#${id}` }, deepMatches(document, `#${CSS.escape(id)}`, 5000));
    const role = roleOf(c);
    const label = ariaLabel(c);
    if (role && LANDMARK_ROLES.has(role) && (!NAMED_ONLY.has(role) || label)) {
      push('role', { m: 'getByRole', role, ...(label ? { name: label, exact: true } : {}) }, roleMatches(role, label));
    } else if (SEMANTIC_TAGS.has(tag) || (tag.includes('-') && /^[a-z][a-z0-9-]*$/.test(tag))) {
      // Semantic tags, and custom elements (a web component's tag is its stable name).
      push('tag', { m: 'locator', selector: tag }, deepMatches(document, tag, 5000));
    }
    const cls = stableClasses(c)[0];
    if (cls) push('class', { m: 'locator', selector: `${tag}.${cls}` }, deepMatches(document, `${tag}.${CSS.escape(cls)}`, 5000));
    // Plain structure: the container's tag under its parent (seed 000 §3.7, classless markup).
    const p = parentOf(c);
    if (p && p.shadowRoot == null && c.parentNode === p) {
      const pid = p.getAttribute('id');
      const ptid = testIdOf(p);
      const psel = pid && /^[A-Za-z][\w-]*$/.test(pid) && !generatedReason(pid, 'id') ? `#${pid}` : ptid && !generatedReason(ptid.value, 'testid') ? `[${ptid.attr}="${ptid.value.replace(/"/g, '\\"')}"]` : tagOf(p);
      const sel = `${psel} > ${tag}`;
      push('structural', { m: 'locator', selector: sel }, deepMatches(document, sel, 5000));
    }
    if (out.length >= 16) break;
  }
  return out;
}

export function locatorFacts(target: Element, cache = new Map<Node, string>()): LocatorFacts {
  const labels = (target as HTMLInputElement).labels ? Array.from((target as HTMLInputElement).labels ?? []).map((l) => normText(elementText(l, cache))).filter(Boolean) : [];
  const own: LocatorFacts['own'] = { labels };
  const tid = testIdOf(target);
  if (tid && !generatedReason(tid.value, 'testid')) own.testId = tid;
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

// --- Matching candidates in the page ---------------------------------------------
// The steps we emit, with Playwright's semantics: getByRole skips elements hidden from
// the accessibility tree; names and getByText/getByLabel/... compare whitespace-
// normalised text, case-sensitively and whole when exact, as a case-insensitive
// substring otherwise; filter({ hasText }) is a substring of the element's text;
// filter({ has }) runs the inner steps inside the element; open shadow roots are
// pierced. Accessible names of other elements are approximated from the markup
// (labelOf); the target's own is the snapshot's (Playwright's). An approximation can
// only cost a candidate here: the host proves the survivors with Playwright.

/** What matching learns about the page's elements (see SharedFacts for how long it lives). */
interface FactCaches {
  cache: Map<Node, string>;
  roles: Map<Element, string | undefined>;
  names: Map<Element, string>;
  hidden: Map<Element, boolean>;
  subtree: Map<Document | Element, Element[]>;
  pre: Map<Document | Element, Map<string, Element[]>>;
  norm: Map<Element, string>;
}

interface MatchCtx extends FactCaches {
  target: Element;
  name?: string;
  /** Near-duplicate view: inside (or around) `scope`, `text` reads `text + EXTENSION`. */
  dup?: { text: string; scope: Element };
}

const EXTENSION = ' Plus';

// Facts that only change when the DOM does (subtrees, CSS prefilter results, roles,
// names, texts, aria-hidden), kept across calls while nothing in the document mutates:
// an agent asking for the locators of several refs of one page (or max=1 then max=5)
// pays for the page's big scans once. A MutationObserver drops them on any change, and
// they never outlive MAX_AGE_MS (visibility can change through CSS alone).
interface SharedFacts extends FactCaches {
  at: number;
}
const MAX_AGE_MS = 3000;
let shared: SharedFacts | null = null;
let observed: Document | null = null;
let observer: MutationObserver | null = null;

function sharedFacts(doc: Document): SharedFacts {
  const now = performance.now();
  if (observed !== doc) {
    observer?.disconnect();
    observer = new MutationObserver(() => { shared = null; });
    observer.observe(doc, { subtree: true, childList: true, attributes: true, characterData: true });
    observed = doc;
    shared = null;
  }
  // Records not yet delivered also count: a mutation made just before this call.
  if (observer!.takeRecords().length) shared = null;
  if (!shared || now - shared.at > MAX_AGE_MS) {
    shared = { cache: new Map(), roles: new Map(), names: new Map(), hidden: new Map(), subtree: new Map(), pre: new Map(), norm: new Map(), at: now };
  }
  return shared;
}

function subtreeOf(ctx: MatchCtx, scope: Document | Element): Element[] {
  let hit = ctx.subtree.get(scope);
  if (!hit) {
    hit = [];
    const list = hit;
    walk(scope, (el) => {
      list.push(el);
    }, 60_000);
    ctx.subtree.set(scope, hit);
  }
  return hit;
}

function dupView(ctx: MatchCtx, el: Element, text: string): string {
  const d = ctx.dup;
  if (!d || !text.includes(d.text)) return text;
  if (!deepContains(d.scope, el) && !deepContains(el, d.scope)) return text;
  return text.split(d.text).join(d.text + EXTENSION);
}

/** Normalised text, cached (a body's text is long: normalising it per draft would dominate). */
function textOf(ctx: MatchCtx, el: Element): string {
  const m = ctx.norm;
  let t = m.get(el);
  if (t === undefined) {
    t = normText(elementText(el, ctx.cache));
    m.set(el, t);
  }
  return dupView(ctx, el, t);
}

function nameOf(ctx: MatchCtx, el: Element): string {
  // The target's own name is the snapshot's (Playwright's); the shared cache holds markup names only.
  if (el === ctx.target && ctx.name !== undefined) return dupView(ctx, el, ctx.name);
  let n = ctx.names.get(el);
  if (n === undefined) {
    n = labelOf(el, ctx.cache);
    ctx.names.set(el, n);
  }
  return dupView(ctx, el, n);
}

function roleOfCached(ctx: MatchCtx, el: Element): string | undefined {
  if (!ctx.roles.has(el)) ctx.roles.set(el, roleOf(el));
  return ctx.roles.get(el);
}

/** Hidden from the accessibility tree (Playwright's getByRole skips these). */
function ariaHidden(ctx: MatchCtx, el: Element): boolean {
  let h = ctx.hidden.get(el);
  if (h === undefined) {
    const p = parentOf(el);
    h = el.getAttribute('aria-hidden') === 'true' || (typeof (el as HTMLElement).checkVisibility === 'function' && !(el as HTMLElement).checkVisibility({ visibilityProperty: true } as never)) || (!!p && ariaHidden(ctx, p));
    ctx.hidden.set(el, h);
  }
  return h;
}

/** Wanted texts, normalised once (the matcher compares one against thousands of elements). */
const wantedNorm = new Map<string, { n: string; lower: string }>();
function wantedOf(wanted: string): { n: string; lower: string } {
  let w = wantedNorm.get(wanted);
  if (!w) {
    const n = normText(wanted);
    w = { n, lower: n.toLowerCase() };
    if (wantedNorm.size > 500) wantedNorm.clear();
    wantedNorm.set(wanted, w);
  }
  return w;
}

/** `actual` is already whitespace-normalised. */
function textMatches(actual: string, wanted: string, exact?: boolean): boolean {
  const w = wantedOf(wanted);
  if (exact) return actual === w.n;
  if (actual.length < w.n.length) return false;
  return actual.toLowerCase().includes(w.lower);
}

const TEXT_SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'meta', 'link']);

function labelTexts(ctx: MatchCtx, el: Element): string[] {
  const out: string[] = [];
  const labels = (el as HTMLInputElement).labels;
  if (labels) for (const l of Array.from(labels)) out.push(dupView(ctx, l, normText(elementText(l, ctx.cache))));
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const parts = by.split(/\s+/).map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id)).filter(Boolean) as Element[];
    if (parts.length) out.push(parts.map((n) => dupView(ctx, n, normText(elementText(n, ctx.cache)))).join(' '));
  }
  const aria = el.getAttribute('aria-label');
  if (aria) out.push(dupView(ctx, el, normText(aria)));
  return out;
}

const ROLE_PREFILTER: Record<string, string> = {
  button: 'button,input,summary', link: 'a,area', textbox: 'input,textarea', searchbox: 'input', checkbox: 'input', radio: 'input',
  combobox: 'select,input', listbox: 'select,datalist', option: 'option', heading: 'h1,h2,h3,h4,h5,h6', listitem: 'li', list: 'ul,ol,menu',
  row: 'tr', cell: 'td', columnheader: 'th', table: 'table', img: 'img', navigation: 'nav', main: 'main', form: 'form', dialog: 'dialog',
  article: 'article', region: 'section', complementary: 'aside', banner: 'header', contentinfo: 'footer', slider: 'input', spinbutton: 'input',
  group: 'fieldset,details', progressbar: 'progress', separator: 'hr', tab: 'button', menuitem: 'button,a', switch: 'input,button',
};

/** Elements of the scope's subtree (shadow roots pierced, the scope itself excluded) matching a CSS selector, cached per call. */
function prefiltered(ctx: MatchCtx, scope: Document | Element, selector: string): Element[] {
  const key = `${selector}\u0000`;
  const per = ctx.pre;
  let m = per.get(scope);
  if (!m) per.set(scope, (m = new Map()));
  let hit = m.get(key);
  if (!hit) {
    hit = deepQueryAll(scope, selector, 60_000).filter((e) => e !== scope);
    m.set(key, hit);
  }
  return hit;
}

function applyStep(ctx: MatchCtx, step: Step, scopes: (Document | Element)[]): Element[] {
  const out = new Set<Element>();
  const each = (pred: (el: Element) => boolean) => {
    for (const sc of scopes) for (const el of subtreeOf(ctx, sc)) if (!out.has(el) && pred(el)) out.add(el);
  };
  switch (step.m) {
    case 'getByRole': {
      const pred = (el: Element) => roleOfCached(ctx, el) === step.role && (step.name === undefined || textMatches(nameOf(ctx, el), step.name, step.exact)) && !ariaHidden(ctx, el);
      // A CSS prefilter of the tags that can carry the role (then the exact role check): no full scan.
      // (Braced: an unbraced `if (sel) for ... for ... if (...) ...; else each(pred)` binds the
      // else to the inner if, and scanned the whole scope again for every prefiltered miss.)
      const sel = ROLE_PREFILTER[step.role];
      if (sel) {
        for (const sc of scopes) for (const el of prefiltered(ctx, sc, `${sel},[role="${step.role}"]`)) if (!out.has(el) && pred(el)) out.add(el);
      } else {
        each(pred);
      }
      break;
    }
    case 'getByTestId':
      for (const sc of scopes) for (const el of prefiltered(ctx, sc, `[data-testid="${CSS.escape(step.value)}"]`)) out.add(el);
      break;
    case 'locator':
      for (const sc of scopes) for (const el of deepMatches(sc, step.selector, 60_000) ?? []) out.add(el);
      break;
    case 'getByLabel':
      each((el) => labelTexts(ctx, el).some((t) => textMatches(t, step.text, step.exact)));
      break;
    case 'getByPlaceholder':
    case 'getByAltText':
    case 'getByTitle': {
      const attr = step.m === 'getByPlaceholder' ? 'placeholder' : step.m === 'getByAltText' ? 'alt' : 'title';
      each((el) => {
        const v = el.getAttribute(attr);
        return v !== null && textMatches(dupView(ctx, el, normText(v)), step.text, step.exact);
      });
      break;
    }
    case 'getByText':
      // Playwright's text engine: the element's text matches and no child element's does.
      each((el) => {
        if (TEXT_SKIP.has(tagOf(el)) || !textMatches(textOf(ctx, el), step.text, step.exact)) return false;
        for (let c = el.firstElementChild; c; c = c.nextElementSibling) if (textMatches(textOf(ctx, c), step.text, step.exact)) return false;
        return true;
      });
      break;
    case 'filter':
      for (const sc of scopes) {
        if (sc.nodeType !== 1) continue;
        const el = sc as Element;
        if (step.hasText !== undefined && !textMatches(textOf(ctx, el), step.hasText, false)) continue;
        if (step.hasTextRegex !== undefined && !safeRegex(step.hasTextRegex).test(textOf(ctx, el))) continue;
        if (step.has && !runSteps(ctx, step.has, [el]).length) continue;
        out.add(el);
      }
      break;
    case 'nth': {
      const el = scopes[step.index < 0 ? scopes.length + step.index : step.index];
      if (el && el.nodeType === 1) out.add(el as Element);
      break;
    }
    case 'frameLocator':
      break;
  }
  return [...out];
}

function safeRegex(src: string): RegExp {
  try {
    return new RegExp(src);
  } catch {
    return /$^/;
  }
}

function runSteps(ctx: MatchCtx, steps: Step[], scopes: (Document | Element)[]): Element[] {
  let cur = scopes;
  for (const s of steps) {
    cur = applyStep(ctx, s, cur);
    if (!cur.length) return [];
  }
  return cur as Element[];
}

function ancestorAt(el: Element, level: number): Element {
  let cur = el;
  for (let i = 0; i < level; i++) cur = parentOf(cur) ?? cur;
  return cur;
}

export interface MatchedCandidate {
  steps: Step[];
  strategy: Draft['strategy'];
  key: string;
  why: string[];
  weaknesses: Weakness[];
  score: number;
  fragile: boolean;
  /** In-page match: how many elements, and whether the one is the target. */
  matches: number;
  sameElement: boolean;
  nearDuplicate: 'distinct' | 'also-matches' | 'no-text-anchor';
}

export interface CandidatesResult {
  tag: string;
  candidates: MatchedCandidate[];
  rejected: { steps: Step[]; reason: string }[];
  considered: number;
  nth?: { steps: Step[]; index: number; of: number };
  ms: number;
}

/**
 * Draft every candidate, match each in the page, check each unique one against a
 * near-duplicate, score it. The near-duplicate check needs no page mutation: a sibling
 * copy of the container whose anchor text is extended ("Desk Lamp" -> "Desk Lamp Plus")
 * is the container itself as seen with that text extended, so the candidate is matched
 * again under that view (dupView); if it still selects the target, it would select the
 * copy too. Inserting a real copy would fire the app's MutationObservers, run custom-
 * element constructors, duplicate ids, and disturb frameworks that own the DOM.
 */
export function locatorCandidates(target: Element, args: { role?: string; name?: string; max?: number }): CandidatesResult {
  const t0 = performance.now();
  const doc = target.ownerDocument;
  const sf = sharedFacts(doc);
  const facts = locatorFacts(target, sf.cache);
  const ctx: MatchCtx = { target, name: args.name, cache: sf.cache, roles: sf.roles, names: sf.names, hidden: sf.hidden, subtree: sf.subtree, pre: sf.pre, norm: sf.norm };
  const all = drafts(facts, args.role, args.name);
  // Early stop: a draft's score can only go down from its bound (every weakness costs), and
  // candidates are ranked by score, draft order on ties. Once `want` ideas have scores no
  // remaining draft can beat, the rest cannot change the answer's head. A margin of two
  // beyond what the host returns covers candidates Playwright's proof then refuses.
  const want = Math.max(1, args.max ?? 5) + 2;
  const bounds = all.map((d) => scoreOf(d, []).score);
  const boundFrom = new Array<number>(all.length + 1).fill(-1);
  for (let i = all.length - 1; i >= 0; i--) boundFrom[i] = Math.max(bounds[i], boundFrom[i + 1]);
  const best = new Map<string, number>();
  const seen = new Set<string>();
  const candidates: MatchedCandidate[] = [];
  const rejected: CandidatesResult['rejected'] = [];
  let considered = 0;
  for (let di = 0; di < all.length; di++) {
    const d = all[di];
    if (best.size >= want) {
      const kth = [...best.values()].sort((a, b) => b - a)[want - 1];
      if (kth >= boundFrom[di]) break;
    }
    const sig = JSON.stringify(d.steps);
    if (seen.has(sig)) continue;
    seen.add(sig);
    considered++;
    ctx.dup = undefined;
    const m = runSteps(ctx, d.steps, [doc]);
    if (m.length !== 1 || m[0] !== target) {
      rejected.push({ steps: d.steps, reason: m.length === 0 ? 'matches nothing' : m.length > 1 ? `matches ${m.length} elements` : 'matches a different element' });
      continue;
    }
    const weaknesses = weaknessesOf(d);
    let near: MatchedCandidate['nearDuplicate'] = d.anchors.length ? 'distinct' : 'no-text-anchor';
    for (const a of d.anchors) {
      ctx.dup = { text: a.text, scope: ancestorAt(target, a.level) };
      const again = runSteps(ctx, d.steps, [doc]);
      ctx.dup = undefined;
      if (again.includes(target)) {
        near = 'also-matches';
        const where = a.level ? `a copy of its L${a.level} <${tagOf(ancestorAt(target, a.level))}>` : 'a copy of it';
        weaknesses.push({ kind: 'near-duplicate', detail: `${where} reading "${a.text}${EXTENSION}" instead of "${a.text}" would match too` });
      }
    }
    const { score, fragile } = scoreOf(d, weaknesses);
    if ((best.get(d.key) ?? -1) < score) best.set(d.key, score);
    candidates.push({ steps: d.steps, strategy: d.strategy, key: d.key, why: d.why, weaknesses, score, fragile, matches: 1, sameElement: true, nearDuplicate: near });
  }
  // Best score first (a failed near-duplicate check costs its score), draft order on ties.
  candidates.sort((x, y) => y.score - x.score);
  // One per idea (key): the best-scoring variant.
  const keys = new Set<string>();
  const kept = candidates.filter((c) => (keys.has(c.key) ? false : (keys.add(c.key), true)));
  const res: CandidatesResult = { tag: facts.tag, candidates: kept, rejected: rejected.slice(0, 20), considered, ms: 0 };
  // nth() fallback data when nothing else is unique: the target's index among role (+ exact name).
  if (!kept.length && args.role) {
    const base: Step = { m: 'getByRole', role: args.role, ...(args.name ? { name: args.name, exact: true } : {}) };
    const list = runSteps(ctx, [base], [doc]);
    const index = list.indexOf(target);
    if (index >= 0) res.nth = { steps: [base, { m: 'nth', index }], index, of: list.length };
  }
  res.ms = Math.round(performance.now() - t0);
  return res;
}

// --- The cheap hand-off: Playwright's own target mark ------------------------------
// A Playwright read that resolves a locator in its utility world (locator.textContent())
// dispatches `__playwright_reset_targets__` on the document and then
// `__playwright_mark_target__` on the element it resolved (composed, so it crosses shadow
// roots; DOM events reach listeners in every world, this one included). The host reads
// the ref's textContent — one utility-world call, no adoption into the page's main world,
// about a tenth of the evaluateHandle hand-off — and then asks for the marked element,
// sending the text it read: the element must be the only one marked by the latest read
// and have that very text. Anything else (a world created after the read, a mark by
// another call in between, a Playwright that stopped marking) is a miss and the host
// falls back to the dispatchEvent hand-off. The host proves every candidate against the
// ref with Playwright either way.

interface MarkSig {
  len: number;
  head: string;
  tail: string;
}

let marked: Element[] = [];
/** Elements taken from a mark and held for a follow-up call of the same request (by key). */
const held = new Map<string, Element>();

function installMarks(): void {
  if (typeof window === 'undefined' || typeof window.addEventListener !== 'function') return;
  window.addEventListener('__playwright_reset_targets__', () => { marked = []; }, true);
  window.addEventListener('__playwright_mark_target__', (e) => {
    const el = e.composedPath()[0];
    if (el && (el as Node).nodeType === 1) marked.push(el as Element);
  }, true);
}
installMarks();

function markedTarget(a: { mark?: MarkSig; key?: string }): Element | null {
  if (a.key && held.has(a.key)) {
    const el = held.get(a.key)!;
    return el.isConnected ? el : null;
  }
  const sig = a.mark;
  if (!sig || marked.length !== 1) return null;
  const el = marked[0];
  if (!el.isConnected) return null;
  const t = el.textContent ?? '';
  if (t.length !== sig.len || !t.startsWith(sig.head) || !t.endsWith(sig.tail)) return null;
  marked = [];
  if (a.key) {
    held.set(a.key, el);
    if (held.size > 8) held.delete(held.keys().next().value as string);
  }
  return el;
}

const MISS = { __miss: true };

export const LOCATOR_OPS: Record<string, (args: any, list: { tag: string; el: Element }[] | null, extra: unknown[]) => unknown> = {
  locatorFacts: (_a, list) => locatorFacts(list![0].el),
  locatorCandidates: (a, list) => locatorCandidates(list!.find((c) => c.tag === 'target')!.el, a),
  /** The marked element's tag only (its role + name was proven on the host); held for a follow-up. */
  locatorTargetMarked: (a) => {
    const el = markedTarget(a);
    return el ? { tag: tagOf(el) } : MISS;
  },
  /** locatorCandidates for the marked (or held) element. */
  locatorCandidatesMarked: (a) => {
    const el = markedTarget(a);
    if (a.key) held.delete(a.key);
    return el ? locatorCandidates(el, a) : MISS;
  },
};
