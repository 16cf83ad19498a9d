// Seed 002's inspection tools, in the page: one call each, facts only, bounded.
// Coordinates are CSS pixels relative to the element's own frame viewport.

import type { Attrs, Box } from '../protocol.js';
import {
  boxOf, deepContains, deepQueryAll, elementText, isInteractive, isShadowRoot, isSkippedTag,
  isVisible, normText, parentOf, roleOf, stableAttrs, styleOf, tagOf, testIdOf, truncate, TEST_ID_ATTRS,
} from './dom.js';
import { bestSelector } from './selectors.js';
import { listed } from './listed.js';

type Caught = { tag: string; el: Element }[] | null;

const SEMANTIC_TAGS = new Set([
  'header', 'nav', 'main', 'article', 'section', 'aside', 'footer', 'form', 'button', 'input', 'select', 'textarea', 'a',
  'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'ul', 'ol', 'li', 'table', 'img', 'video', 'audio', 'svg', 'canvas', 'iframe',
  'dialog', 'details', 'summary', 'label', 'fieldset', 'tr', 'th', 'td', 'thead', 'tbody', 'dl', 'dt', 'dd', 'figure',
]);

function isSemantic(el: Element): boolean {
  const tag = tagOf(el);
  if (SEMANTIC_TAGS.has(tag)) return true;
  if (testIdOf(el)) return true;
  if (el.hasAttribute('role')) return true;
  if (isInteractive(el)) return true;
  if (tag.includes('-')) return true;
  let direct = '';
  for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 3) direct += c.nodeValue ?? '';
  return normText(direct).length > 10;
}

function viewportOf(el: Element): { width: number; height: number } {
  const w = el.ownerDocument.defaultView ?? window;
  return { width: w.innerWidth, height: w.innerHeight };
}

/** Fraction of the element's box inside the viewport. */
function viewportRatio(el: Element): number {
  const r = el.getBoundingClientRect();
  const vp = viewportOf(el);
  const area = r.width * r.height;
  if (area <= 0) return 0;
  const w = Math.max(0, Math.min(vp.width, r.right) - Math.max(0, r.left));
  const h = Math.max(0, Math.min(vp.height, r.bottom) - Math.max(0, r.top));
  return Math.round(((w * h) / area) * 1000) / 1000;
}

function shortDesc(el: Element): string {
  const tag = tagOf(el);
  const id = el.getAttribute('id');
  const tid = testIdOf(el);
  const cls = normText(el.getAttribute('class')).split(' ').filter(Boolean).slice(0, 2);
  return `${tag}${id ? `#${id}` : ''}${cls.map((c) => `.${c}`).join('')}${tid ? `[${tid.attr}="${tid.value}"]` : ''}`;
}

/** Why an element is not visible, from the element up (Playwright's definition of visible). */
function hiddenReasons(el: Element): string[] {
  const reasons: string[] = [];
  if (!el.isConnected) return ['detached'];
  for (let cur: Element | null = el; cur; cur = parentOf(cur)) {
    const s = styleOf(cur);
    if (s.display === 'none') {
      reasons.push(cur === el ? 'display:none' : `ancestor display:none (${shortDesc(cur)})`);
      break;
    }
  }
  const s = styleOf(el);
  if (s.visibility !== 'visible') reasons.push(`visibility:${s.visibility}`);
  if (s.opacity === '0') reasons.push('opacity:0');
  const r = el.getBoundingClientRect();
  if (!reasons.length && (r.width === 0 || r.height === 0)) reasons.push('zero-size');
  if (!reasons.length && !isVisible(el)) reasons.push('not rendered');
  return reasons;
}

/** Ancestors with overflow clipping that cut the element's box, and how much is left. */
function clipping(el: Element): { clipped: boolean; clippedBy?: string; visibleRatioInClip?: number } {
  const r = el.getBoundingClientRect();
  const area = r.width * r.height;
  if (area <= 0) return { clipped: false };
  let left = r.left, top = r.top, right = r.right, bottom = r.bottom;
  let by: string | undefined;
  for (let cur = parentOf(el); cur; cur = parentOf(cur)) {
    const s = styleOf(cur);
    if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
    const pr = cur.getBoundingClientRect();
    const nl = Math.max(left, pr.left), nt = Math.max(top, pr.top), nr = Math.min(right, pr.right), nb = Math.min(bottom, pr.bottom);
    if (nl > left || nt > top || nr < right || nb < bottom) by = by ?? `${shortDesc(cur)} overflow:${s.overflowX === s.overflowY ? s.overflowX : `${s.overflowX}/${s.overflowY}`}`;
    left = nl; top = nt; right = nr; bottom = nb;
    if (right <= left || bottom <= top) break;
  }
  const visArea = Math.max(0, right - left) * Math.max(0, bottom - top);
  if (!by) return { clipped: false };
  return { clipped: true, clippedBy: by, visibleRatioInClip: Math.round((visArea / area) * 1000) / 1000 };
}

/** What is on top at the element's center (inside the viewport). */
function coverage(el: Element): { covered: boolean; coveredBy?: string } {
  const r = el.getBoundingClientRect();
  const vp = viewportOf(el);
  const cx = Math.min(Math.max(r.left + r.width / 2, 0), vp.width - 1);
  const cy = Math.min(Math.max(r.top + r.height / 2, 0), vp.height - 1);
  if (r.right < 0 || r.bottom < 0 || r.left > vp.width || r.top > vp.height) return { covered: false };
  let hit: Element | null = el.ownerDocument.elementFromPoint(cx, cy);
  // Descend into open shadow roots to the innermost element at that point.
  while (hit && hit.shadowRoot) {
    const inner = hit.shadowRoot.elementFromPoint(cx, cy);
    if (!inner || inner === hit) break;
    hit = inner;
  }
  if (!hit) return { covered: false };
  if (hit === el || deepContains(el, hit)) return { covered: false };
  // A label for the element, or an ancestor (pointer-events passthrough) does not count.
  if (deepContains(hit, el) && hit !== el) return { covered: false };
  return { covered: true, coveredBy: shortDesc(hit) };
}

function visibilityFacts(el: Element) {
  const s = styleOf(el);
  const visible = isVisible(el);
  const ratio = viewportRatio(el);
  const clip = clipping(el);
  const cover = visible ? coverage(el) : { covered: false };
  return {
    visible,
    ...(visible ? {} : { hiddenReasons: hiddenReasons(el) }),
    inViewport: ratio > 0,
    viewportRatio: ratio,
    opacity: Number(s.opacity),
    display: s.display,
    visibility: s.visibility,
    ...clip,
    ...cover,
    needsScroll: visible && ratio < 1,
    box: boxOf(el),
    viewport: viewportOf(el),
  };
}

function deepActive(doc: Document): Element | null {
  let a: Element | null = doc.activeElement;
  while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
  return a;
}

function stateFacts(el: Element) {
  const tag = tagOf(el);
  const anyEl = el as HTMLInputElement & HTMLSelectElement & HTMLOptionElement;
  const formish = /^(input|select|textarea|button|fieldset|optgroup|option)$/.test(tag);
  // Native disabled (also via a disabled fieldset) or aria-disabled on itself/ancestors.
  const nativeDisabled = formish ? el.matches(':disabled') : false;
  let ariaDisabled = false;
  for (let cur: Element | null = el; cur; cur = parentOf(cur)) if (cur.getAttribute('aria-disabled') === 'true') { ariaDisabled = true; break; }
  const textEntry = (tag === 'input' && !/^(checkbox|radio|button|submit|reset|image|file|range|color|hidden)$/i.test(anyEl.type)) || tag === 'textarea';
  const readOnly = textEntry ? anyEl.readOnly : false;
  const editable = !nativeDisabled && !ariaDisabled && ((textEntry && !readOnly) || (el as HTMLElement).isContentEditable || tag === 'select');
  const out: Record<string, unknown> = {
    tag,
    ...(roleOf(el) ? { role: roleOf(el) } : {}),
    enabled: !nativeDisabled && !ariaDisabled,
    disabled: nativeDisabled,
    ariaDisabled,
    editable,
    readOnly,
    focused: deepActive(el.ownerDocument) === el,
    visible: isVisible(el),
  };
  if (tag === 'input' && /^(checkbox|radio)$/i.test(anyEl.type)) {
    out.checked = anyEl.checked;
    if (anyEl.indeterminate) out.indeterminate = true;
  } else if (el.hasAttribute('aria-checked')) out.checked = el.getAttribute('aria-checked') === 'true' ? true : el.getAttribute('aria-checked') === 'mixed' ? 'mixed' : false;
  if (tag === 'option') out.selected = anyEl.selected;
  if (formish && tag !== 'fieldset') out.required = (el as HTMLInputElement).required ?? false;
  for (const a of ['aria-expanded', 'aria-pressed', 'aria-selected', 'aria-invalid', 'aria-busy']) {
    const v = el.getAttribute(a);
    if (v !== null) out[a.replace(/-(\w)/, (_, c: string) => c.toUpperCase())] = v;
  }
  if (tag === 'input' || tag === 'textarea' || tag === 'select') {
    out.type = tag === 'input' ? anyEl.type : tag;
    out.value = tag === 'input' && (el as HTMLInputElement).type === 'password' ? (anyEl.value ? '••••' : '') : truncate(anyEl.value ?? '', 200);
    if (tag === 'select') out.selectedOptions = Array.from(anyEl.selectedOptions).slice(0, 20).map((o) => normText(o.label || o.text));
  }
  return out;
}

function attributeFacts(el: Element, filter: string[] | undefined, maxValue: number, maxAttrs: number) {
  const all: Attrs = {};
  const data: Attrs = {};
  const aria: Attrs = {};
  let count = 0;
  let omitted = 0;
  const want = filter && filter.length ? new Set(filter.map((f) => f.toLowerCase())) : null;
  for (const a of Array.from(el.attributes)) {
    if (want && !want.has(a.name)) continue;
    count++;
    if (count > maxAttrs) {
      omitted++;
      continue;
    }
    const v = truncate(a.value, maxValue);
    if (a.name.startsWith('data-')) data[a.name] = v;
    else if (a.name.startsWith('aria-') || a.name === 'role') aria[a.name] = v;
    else all[a.name] = v;
  }
  return { tag: tagOf(el), all, data, aria, count, omitted };
}

interface DomChild {
  index: number;
  tag: string;
  attributes: Attrs;
  role?: string;
  box: Box;
  text?: string;
  visible: boolean;
  interactive: boolean;
  childElements: number;
  /** Wrapper levels skipped to reach it. */
  depth: number;
  inShadowRoot?: true;
}

function layoutOf(boxes: Box[]): string | undefined {
  const vis = boxes.filter((b) => b.width > 0 && b.height > 0);
  if (vis.length < 2) return undefined;
  const rows = new Set(vis.map((b) => Math.round(b.y / 4)));
  const cols = new Set(vis.map((b) => Math.round(b.x / 4)));
  if (rows.size === 1) return 'horizontal';
  if (cols.size === 1) return 'vertical';
  return rows.size < vis.length && cols.size < vis.length ? 'grid' : 'mixed';
}

function inspectDom(args: { maxChildren: number; maxDepth: number; includeHidden: boolean; maxText: number }, root: Element) {
  const cache = new Map<Node, string>();
  const children: DomChild[] = [];
  let semantic = 0;
  let skipped = 0;
  let hidden = 0;
  const wrappers: string[] = [];
  const visit = (parent: Element | ShadowRoot, depth: number) => {
    for (let c = parent.firstElementChild; c; c = c.nextElementSibling) {
      if (isSkippedTag(c)) continue;
      const vis = isVisible(c);
      if (!vis && !args.includeHidden && styleOf(c).display !== 'contents') {
        hidden++;
        continue;
      }
      if (isSemantic(c)) {
        semantic++;
        if (children.length < args.maxChildren) {
          const text = normText(elementText(c, cache));
          const item: DomChild = {
            index: children.length,
            tag: tagOf(c),
            attributes: stableAttrs(c),
            box: boxOf(c),
            visible: vis,
            interactive: isInteractive(c),
            childElements: c.children.length + (c.shadowRoot ? c.shadowRoot.children.length : 0),
            depth,
          };
          const role = roleOf(c);
          if (role) item.role = role;
          if (text) item.text = truncate(text, args.maxText);
          if (isShadowRoot(parent)) item.inShadowRoot = true;
          listed(c); // same index as the entry: the host adds its ref
          children.push(item);
        }
        continue;
      }
      skipped++;
      if (wrappers.length < 5) wrappers.push(shortDesc(c));
      if (depth < args.maxDepth) {
        visit(c, depth + 1);
        if (c.shadowRoot) visit(c.shadowRoot, depth + 1);
      }
    }
  };
  visit(root, 1);
  if (root.shadowRoot) visit(root.shadowRoot, 1);
  return {
    element: { tag: tagOf(root), attributes: stableAttrs(root), ...(roleOf(root) ? { role: roleOf(root) } : {}), box: boxOf(root) },
    children,
    semanticChildren: semantic,
    omitted: { children: semantic - children.length, hidden },
    skippedWrappers: skipped,
    wrapperExamples: wrappers,
    ...(layoutOf(children.map((c) => c.box)) ? { layout: layoutOf(children.map((c) => c.box)) } : {}),
  };
}

function testIds(args: { attributes?: string[]; limit: number }) {
  const attrs = args.attributes && args.attributes.length ? args.attributes : TEST_ID_ATTRS;
  const byAttribute: Record<string, { value: string; count: number; tag: string; visible: number }[]> = {};
  const omitted: Record<string, number> = {};
  let total = 0;
  for (const attr of attrs) {
    const els = deepQueryAll(document, `[${CSS.escape(attr)}]`, 20_000);
    const groups = new Map<string, { value: string; count: number; tag: string; visible: number }>();
    for (const el of els) {
      const v = el.getAttribute(attr) ?? '';
      let g = groups.get(v);
      if (!g) {
        g = { value: truncate(v, 120), count: 0, tag: tagOf(el), visible: 0 };
        groups.set(v, g);
      }
      g.count++;
      if (isVisible(el)) g.visible++;
    }
    total += els.length;
    const list = [...groups.values()];
    if (!list.length) continue;
    byAttribute[attr] = list.slice(0, args.limit);
    if (list.length > args.limit) omitted[attr] = list.length - args.limit;
  }
  const duplicates: { attribute: string; value: string; count: number }[] = [];
  for (const [attr, list] of Object.entries(byAttribute)) for (const g of list) if (g.count > 1) duplicates.push({ attribute: attr, value: g.value, count: g.count });
  return { total, byAttribute, duplicates, omitted };
}

function queryFacts(caught: { tag: string; el: Element }[], args: { maxText: number }) {
  const cache = new Map<Node, string>();
  // Matches were handed over in parallel: the tag carries the document-order index.
  const order = (t: string) => Number(t.slice(t.lastIndexOf('#') + 1));
  const byIndex = new Map<number, { tag: string; el: Element }>();
  for (const c of caught) if (!byIndex.has(order(c.tag))) byIndex.set(order(c.tag), c);
  const list = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
  return list.map(({ el }, index) => {
    const visible = isVisible(el);
    const ratio = viewportRatio(el);
    return {
      index,
      tag: tagOf(el),
      attributes: stableAttrs(el),
      ...(roleOf(el) ? { role: roleOf(el) } : {}),
      box: boxOf(el),
      text: truncate(normText(elementText(el, cache)), args.maxText),
      visible,
      ...(visible ? {} : { hiddenReasons: hiddenReasons(el) }),
      inViewport: ratio > 0,
      interactive: isInteractive(el),
    };
  });
}

/** Facts about one iframe element (handed in by object id), for the frame list. */
function frameOwnerFacts(el: Element) {
  return {
    selector: bestSelector(el),
    tag: tagOf(el),
    ...(el.getAttribute('name') ? { name: el.getAttribute('name')! } : {}),
    ...(el.getAttribute('src') ? { src: truncate(el.getAttribute('src')!, 300) } : {}),
    ...(el.getAttribute('title') ? { title: truncate(el.getAttribute('title')!, 120) } : {}),
    box: boxOf(el),
    visible: isVisible(el),
  };
}

function textFacts(el: Element, maxChars: number) {
  const inner = (el as HTMLElement).innerText;
  const source = typeof inner === 'string' && isVisible(el) ? 'innerText' : 'textContent';
  const raw = source === 'innerText' ? inner : elementText(el, new Map());
  const text = raw.replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  return { tag: tagOf(el), text: text.length > maxChars ? text.slice(0, maxChars) : text, length: text.length, truncated: text.length > maxChars, source };
}

const first = (list: Caught) => list![0].el;

export const OPS: Record<string, (args: any, list: Caught, extra: unknown[]) => unknown> = {
  inspectDom: (a, list) => inspectDom(a, list && list.length ? first(list) : document.body ?? document.documentElement),
  testIds: (a) => testIds(a),
  query: (a, list) => queryFacts(list!, a),
  visibility: (_a, list) => ({ tag: tagOf(first(list)), desc: shortDesc(first(list)), ...visibilityFacts(first(list)) }),
  position: (_a, list) => {
    const el = first(list);
    const w = el.ownerDocument.defaultView ?? window;
    const box = boxOf(el);
    return { tag: tagOf(el), desc: shortDesc(el), ...box, inViewport: viewportRatio(el) > 0, viewportRatio: viewportRatio(el), viewport: viewportOf(el), scroll: { x: Math.round(w.scrollX), y: Math.round(w.scrollY) }, page: { x: Math.round(box.x + w.scrollX), y: Math.round(box.y + w.scrollY) } };
  },
  state: (_a, list) => ({ desc: shortDesc(first(list)), ...stateFacts(first(list)) }),
  attributes: (a, list) => ({ desc: shortDesc(first(list)), ...attributeFacts(first(list), a.filter, a.maxValue ?? 500, a.maxAttributes ?? 200) }),
  frameOwner: (_a, _list, extra) => frameOwnerFacts(extra[0] as Element),
  text: (a, list) => ({ desc: shortDesc(first(list)), ...textFacts(first(list), a.maxChars ?? 2000) }),
};

