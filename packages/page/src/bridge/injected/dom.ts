// DOM helpers for the in-page bridge. This code runs in a CDP isolated world, so the
// page's own scripts cannot have patched the prototypes it uses; it still never trusts
// page-provided values (attribute strings are truncated, loops are bounded).

import type { Attrs, Box } from '../protocol.js';

export const TEST_ID_ATTRS = ['data-testid', 'data-test', 'data-cy'];
export const STABLE_ATTRS = ['data-testid', 'data-test', 'data-cy', 'id', 'role', 'aria-label', 'name', 'class'];

const SKIP_TAGS = new Set(['script', 'style', 'noscript', 'template', 'meta', 'link', 'head', 'title', 'base']);

export function tagOf(el: Element): string {
  return el.localName || el.nodeName.toLowerCase();
}

export function isElement(n: Node | null | undefined): n is Element {
  return !!n && n.nodeType === 1;
}

export function isShadowRoot(n: Node | null | undefined): n is ShadowRoot {
  return !!n && n.nodeType === 11 && !!(n as ShadowRoot).host;
}

/** Parent element; from the top of an open shadow root, its host. */
export function parentOf(el: Element): Element | null {
  const p = el.parentNode;
  if (isElement(p)) return p;
  if (isShadowRoot(p)) return p.host;
  return null;
}

/** Is `node` inside `anc` (or equal), crossing shadow boundaries upwards? */
export function deepContains(anc: Element, node: Element): boolean {
  for (let cur: Element | null = node; cur; cur = parentOf(cur)) if (cur === anc) return true;
  return false;
}

/** Element children, then (for an open shadow host) the shadow root's children. */
export function deepChildren(el: Element | ShadowRoot | Document): Element[] {
  const out: Element[] = Array.from(el.children);
  if (isElement(el as Node) && (el as Element).shadowRoot) out.push(...Array.from((el as Element).shadowRoot!.children));
  return out;
}

/** The ancestor chain from the element's parent up to (and including) its document's body. */
export function ancestorChain(el: Element): Element[] {
  const chain: Element[] = [];
  const body = el.ownerDocument.body;
  for (let cur = parentOf(el); cur; cur = parentOf(cur)) {
    chain.push(cur);
    if (cur === body || chain.length > 1000) break;
  }
  return chain;
}

export function truncate(s: string, max: number): string {
  return s.length > max ? `${s.slice(0, Math.max(0, max - 1))}…` : s;
}

export function normText(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

export function stableAttrs(el: Element, maxLen = 80): Attrs {
  const out: Attrs = {};
  for (const name of STABLE_ATTRS) {
    const v = el.getAttribute(name);
    if (v === null) continue;
    if (name === 'class') {
      const cls = normText(v);
      if (cls) out.class = truncate(cls, maxLen);
      continue;
    }
    out[name] = truncate(v, maxLen);
  }
  return out;
}

export function testIdOf(el: Element): { attr: string; value: string } | null {
  for (const attr of TEST_ID_ATTRS) {
    const v = el.getAttribute(attr);
    if (v !== null && v !== '') return { attr, value: v };
  }
  return null;
}

function skipForText(el: Element): boolean {
  const t = tagOf(el);
  return t === 'script' || t === 'style' || t === 'noscript' || t === 'template';
}

/**
 * Text as Playwright's `hasText` sees it: all descendant text including open shadow
 * roots, script/style skipped, button-like inputs by value. Cached per call.
 */
export function elementText(el: Element | ShadowRoot, cache: Map<Node, string>): string {
  const hit = cache.get(el);
  if (hit !== undefined) return hit;
  let out = '';
  if (isElement(el) && skipForText(el)) out = '';
  else if (isElement(el) && tagOf(el) === 'input' && /^(submit|button|reset)$/i.test((el as HTMLInputElement).type)) out = (el as HTMLInputElement).value;
  else {
    for (let c = el.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out += c.nodeValue ?? '';
      else if (isElement(c)) out += elementText(c, cache);
    }
    if (isElement(el) && el.shadowRoot) out += elementText(el.shadowRoot, cache);
  }
  cache.set(el, out);
  return out;
}

export function directText(el: Element): string {
  let out = '';
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) out += c.nodeValue ?? '';
  return normText(out);
}

/** Text pieces of a subtree in document order (text nodes, normalised, deduped). */
export function textPieces(root: Element, max: number, maxLen: number): { pieces: string[]; omitted: number } {
  const pieces: string[] = [];
  const seen = new Set<string>();
  let omitted = 0;
  const visit = (n: Node, budget: { left: number }) => {
    if (budget.left-- <= 0) return;
    if (n.nodeType === 3) {
      const t = normText(n.nodeValue);
      if (t && !seen.has(t)) {
        seen.add(t);
        if (pieces.length < max) pieces.push(truncate(t, maxLen));
        else omitted++;
      }
      return;
    }
    if (isElement(n)) {
      if (skipForText(n)) return;
      if (tagOf(n) === 'input' && /^(submit|button|reset)$/i.test((n as HTMLInputElement).type)) {
        const v = normText((n as HTMLInputElement).value);
        if (v && !seen.has(v)) {
          seen.add(v);
          if (pieces.length < max) pieces.push(truncate(v, maxLen));
          else omitted++;
        }
        return;
      }
      for (let c = n.firstChild; c; c = c.nextSibling) visit(c, budget);
      if (n.shadowRoot) for (let c = n.shadowRoot.firstChild; c; c = c.nextSibling) visit(c, budget);
    }
  };
  visit(root, { left: 20_000 });
  return { pieces, omitted };
}

export function boxOf(el: Element): Box {
  const r = el.getBoundingClientRect();
  return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
}

export function styleOf(el: Element): CSSStyleDeclaration {
  return (el.ownerDocument.defaultView ?? window).getComputedStyle(el);
}

/** Playwright's notion of visible: rendered (checkVisibility) with a non-empty box. */
export function isVisible(el: Element): boolean {
  const style = styleOf(el);
  if (style.display === 'contents') {
    for (const c of deepChildren(el)) if (isVisible(c)) return true;
    return false;
  }
  if (typeof (el as HTMLElement).checkVisibility === 'function' && !(el as HTMLElement).checkVisibility()) return false;
  if (style.visibility !== 'visible') return false;
  const r = el.getBoundingClientRect();
  return r.width > 0 && r.height > 0;
}

const IMPLICIT_ROLE: Record<string, string> = {
  button: 'button', nav: 'navigation', main: 'main', form: 'form', ul: 'list', ol: 'list', li: 'listitem',
  table: 'table', tr: 'row', td: 'cell', th: 'columnheader', thead: 'rowgroup', tbody: 'rowgroup', tfoot: 'rowgroup',
  textarea: 'textbox', select: 'combobox', img: 'img', dialog: 'dialog', article: 'article', aside: 'complementary',
  h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', h5: 'heading', h6: 'heading', option: 'option',
  progress: 'progressbar', summary: 'button', fieldset: 'group', menu: 'list', hr: 'separator', output: 'status',
};

const INPUT_ROLE: Record<string, string> = {
  button: 'button', submit: 'button', reset: 'button', image: 'button', checkbox: 'checkbox', radio: 'radio',
  range: 'slider', number: 'spinbutton', search: 'searchbox', email: 'textbox', tel: 'textbox', text: 'textbox', url: 'textbox', password: 'textbox',
};

/** Explicit role, else the implicit role of common tags (a fact of the markup, not a guess). */
export function roleOf(el: Element): string | undefined {
  const explicit = el.getAttribute('role');
  if (explicit) return explicit.trim().split(/\s+/)[0];
  const tag = tagOf(el);
  if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : undefined;
  if (tag === 'input') {
    const type = ((el as HTMLInputElement).type || 'text').toLowerCase();
    if (type === 'hidden') return undefined;
    return INPUT_ROLE[type] ?? 'textbox';
  }
  if (tag === 'section') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : undefined;
  if (tag === 'header' || tag === 'footer') {
    // banner/contentinfo only when not inside a sectioning element.
    for (let p = parentOf(el); p; p = parentOf(p)) if (/^(article|aside|main|nav|section)$/.test(tagOf(p))) return undefined;
    return tag === 'header' ? 'banner' : 'contentinfo';
  }
  return IMPLICIT_ROLE[tag];
}

const INTERACTIVE_ROLES = new Set([
  'button', 'link', 'checkbox', 'radio', 'textbox', 'searchbox', 'combobox', 'listbox', 'menuitem', 'menuitemcheckbox',
  'menuitemradio', 'option', 'slider', 'spinbutton', 'switch', 'tab', 'treeitem',
]);

export function isInteractive(el: Element): boolean {
  const tag = tagOf(el);
  if (tag === 'button' || tag === 'select' || tag === 'textarea' || tag === 'summary') return true;
  if (tag === 'input') return (el as HTMLInputElement).type !== 'hidden';
  if (tag === 'a') return el.hasAttribute('href');
  const role = el.getAttribute('role');
  if (role && INTERACTIVE_ROLES.has(role)) return true;
  if (el.hasAttribute('onclick') || (el as HTMLElement).isContentEditable) return true;
  const ti = el.getAttribute('tabindex');
  return ti !== null && ti !== '-1' && !Number.isNaN(Number(ti));
}

export function isHeading(el: Element): boolean {
  return /^h[1-6]$/.test(tagOf(el)) || el.getAttribute('role') === 'heading';
}

/** A short, markup-derived label of an interactive element: aria-label, <label>, placeholder, alt, title, text. */
export function labelOf(el: Element, cache: Map<Node, string>): string {
  const aria = el.getAttribute('aria-label');
  if (aria && aria.trim()) return normText(aria);
  const by = el.getAttribute('aria-labelledby');
  if (by) {
    const root = el.getRootNode() as Document | ShadowRoot;
    const text = by.split(/\s+/).map((id) => root.getElementById?.(id) ?? el.ownerDocument.getElementById(id)).filter(Boolean)
      .map((n) => normText(elementText(n as Element, cache))).join(' ');
    if (text) return text;
  }
  const tag = tagOf(el);
  if (tag === 'input' || tag === 'select' || tag === 'textarea') {
    const labels = (el as HTMLInputElement).labels;
    if (labels && labels.length) return normText(Array.from(labels).map((l) => elementText(l, cache)).join(' '));
    const ph = el.getAttribute('placeholder');
    if (ph) return normText(ph);
    if (tag === 'input' && /^(submit|button|reset)$/i.test((el as HTMLInputElement).type)) return normText((el as HTMLInputElement).value);
  }
  if (tag === 'img') return normText(el.getAttribute('alt'));
  const text = normText(elementText(el, cache));
  if (text) return text;
  return normText(el.getAttribute('title'));
}

/** Depth-first walk of the element tree including open shadow roots; `visit` returns false to skip children. */
export function walk(root: Element | ShadowRoot | Document, visit: (el: Element, depth: number, index: number) => boolean | void, limit = 200_000): number {
  let count = 0;
  const rec = (parent: Element | ShadowRoot | Document, depth: number) => {
    let index = 0;
    for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
      if (++count > limit) return;
      const i = index++;
      if (visit(c, depth, i) === false) continue;
      rec(c, depth + 1);
      if (c.shadowRoot) rec(c.shadowRoot, depth + 1);
    }
  };
  rec(root, 1);
  return count;
}

export function isSkippedTag(el: Element): boolean {
  return SKIP_TAGS.has(tagOf(el));
}

// Shadow roots under a scope, cached for the duration of one call (run() clears it):
// uniqueness checks ask for the same scopes over and over.
const rootsCache = new Map<Node, (Document | Element | ShadowRoot)[]>();

export function resetCallCaches(): void {
  rootsCache.clear();
}

/** The root and every open shadow root below it (shadow roots of shadow roots too). */
export function allRoots(root: Document | Element | ShadowRoot, cap = 5000): (Document | Element | ShadowRoot)[] {
  const hit = rootsCache.get(root);
  if (hit) return hit;
  const roots: (Document | Element | ShadowRoot)[] = [root];
  if (isElement(root as Node) && (root as Element).shadowRoot) roots.push((root as Element).shadowRoot!);
  for (let i = 0; i < roots.length && roots.length < cap; i++) {
    const walker = (roots[i] as Node).ownerDocument ?? (roots[i] as Document);
    const it = walker.createTreeWalker(roots[i] as Node, NodeFilter.SHOW_ELEMENT);
    for (let n = it.nextNode(); n; n = it.nextNode()) if ((n as Element).shadowRoot) roots.push((n as Element).shadowRoot!);
  }
  rootsCache.set(root, roots);
  return roots;
}

/** All elements matching a CSS selector in a root and every open shadow root below it. */
export function deepQueryAll(root: Document | Element | ShadowRoot, selector: string, cap = 10_000): Element[] {
  const out: Element[] = [];
  for (const r of allRoots(root)) {
    for (const el of Array.from(r.querySelectorAll(selector))) {
      if (out.length >= cap) return out;
      out.push(el);
    }
  }
  return out;
}

export function cssEscape(s: string): string {
  return CSS.escape(s);
}

/** A CSS attribute value in double quotes. */
export function cssString(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\a ')}"`;
}
