// CSS selectors unique within a scope, as Playwright sees it: Playwright's css engine
// pierces open shadow roots by running the selector in the scope's tree and in every
// open shadow root below it, so uniqueness is counted the same way here. Combinators
// never cross a shadow boundary (native matching does not either).

import { generatedReason } from './generated-ids.js';
import { allRoots, cssString, isElement, isShadowRoot, tagOf, TEST_ID_ATTRS } from './dom.js';

const SIMPLE_IDENT = /^[A-Za-z_][\w-]*$/;

/** Classes that look hand-written (not hashes or generated ids). */
export function stableClasses(el: Element): string[] {
  const raw = (el.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
  return raw.filter((c) => SIMPLE_IDENT.test(c) && c.length <= 30 && !/\d{3,}/.test(c) && !generatedReason(c, 'class') && !/[A-Z].*[A-Z].*\d|[a-z]\d[a-z]\d/.test(c));
}

function tagSel(el: Element): string {
  const t = tagOf(el);
  return SIMPLE_IDENT.test(t) ? t : `*`;
}

/** Every match of `selector` in the scope (deep); null if the selector is invalid. */
export function deepMatches(scope: Document | Element | ShadowRoot, selector: string, cap = 50): Element[] | null {
  const out: Element[] = [];
  try {
    for (const r of allRoots(scope)) {
      for (const m of Array.from(r.querySelectorAll(selector))) {
        out.push(m);
        if (out.length >= cap) return out;
      }
    }
  } catch {
    return null;
  }
  return out;
}

export function isUniqueIn(scope: Document | Element | ShadowRoot, selector: string, el: Element): boolean {
  const m = deepMatches(scope, selector, 2);
  return !!m && m.length === 1 && m[0] === el;
}

/** Attribute-based candidates, most stable first. */
export function attributeCandidates(el: Element): string[] {
  const tag = tagSel(el);
  const out: string[] = [];
  const id = el.getAttribute('id');
  // Generated ids and test ids (per session, per render) are never anchors.
  if (id && !generatedReason(id, 'id')) out.push(SIMPLE_IDENT.test(id) ? `${tag}#${id}` : `${tag}[id=${cssString(id)}]`);
  for (const a of TEST_ID_ATTRS) {
    const v = el.getAttribute(a);
    if (v && !generatedReason(v, 'testid')) out.push(`${tag}[${a}=${cssString(v)}]`);
  }
  for (const a of ['name', 'aria-label', 'placeholder', 'title', 'alt', 'for', 'type']) {
    const v = el.getAttribute(a);
    if (v && v.length <= 80) out.push(`${tag}[${a}=${cssString(v)}]`);
  }
  const href = el.getAttribute('href');
  if (href && href.length <= 120) out.push(`${tag}[href=${cssString(href)}]`);
  const cls = stableClasses(el);
  if (cls.length) {
    out.push(`${tag}.${cls[0]}`);
    if (cls.length > 1) out.push(`${tag}.${cls.slice(0, 3).join('.')}`);
  }
  return out;
}

function nthSegment(el: Element): string {
  const tag = tagSel(el);
  const parent = el.parentNode;
  if (!parent) return tag;
  let same = 0;
  let index = 0;
  for (let c = (parent as ParentNode).firstElementChild; c; c = c.nextElementSibling) {
    if (tagOf(c) === tagOf(el)) {
      same++;
      if (c === el) index = same;
    }
  }
  return same > 1 ? `${tag}:nth-of-type(${index})` : tag;
}

/**
 * A selector for `el` unique in `scope` (deep): an attribute of its own, else a
 * child-combinator path up its own tree to the nearest ancestor that is unique.
 */
export function bestSelector(el: Element, scope?: Document | Element | ShadowRoot): string {
  const root = scope ?? el.ownerDocument;
  for (const c of attributeCandidates(el)) if (isUniqueIn(root, c, el)) return c;
  let path = nthSegment(el);
  if (isUniqueIn(root, path, el)) return path;
  let cur: Element = el;
  for (let i = 0; i < 30; i++) {
    const p = cur.parentNode;
    if (!isElement(p) || isShadowRoot(p)) break;
    if (scope && isElement(scope as Node) && p === scope) break;
    const anchor = attributeCandidates(p).map((c) => `${c} > ${path}`).find((c) => isUniqueIn(root, c, el));
    if (anchor) return anchor;
    path = `${nthSegment(p)} > ${path}`;
    if (isUniqueIn(root, path, el)) return path;
    cur = p;
    if (tagOf(p) === 'html') break;
  }
  return path;
}
