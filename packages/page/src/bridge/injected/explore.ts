// Seed 000's three primitives, computed in the page in one pass each and returning
// structural facts only: tags, attributes, counts, positions, text. No guesses about
// what a container "is".

import type { AncestorFacts, AnchorFacts, AnchorsFacts, ContainerFacts, OutlineItem, PatternFacts, SiblingFacts } from '../protocol.js';
import { listed } from './listed.js';
import {
  ancestorChain, deepContains, directText, elementText, isHeading, isInteractive, isShadowRoot, isVisible,
  labelOf, normText, roleOf, stableAttrs, tagOf, testIdOf, textPieces, truncate,
} from './dom.js';

export class BridgeError extends Error {
  constructor(readonly code: string, message: string, readonly details?: Record<string, unknown>) {
    super(message);
  }
}

export interface PathRef {
  ref: string;
  el: Element;
}

export function container(target: Element, pathRefs: PathRef[], opts: { maxText: number }): ContainerFacts {
  const cache = new Map<Node, string>();
  const chain = ancestorChain(target);
  const ancestors: AncestorFacts[] = [];
  let below: Element = target;
  chain.forEach((el, i) => {
    const entry: AncestorFacts = {
      level: i + 1,
      tagName: tagOf(el),
      attributes: stableAttrs(el),
      childElements: el.children.length + (el.shadowRoot ? el.shadowRoot.children.length : 0),
    };
    if (isShadowRoot(below.parentNode) && below.parentNode.host === el) entry.shadowHost = true;
    const own = pathRefs.find((p) => p.el === el);
    if (own) entry.ref = own.ref;
    // pathRefs are outermost first: the first one inside this element carries the largest subtree.
    const inside = pathRefs.find((p) => deepContains(el, p.el));
    if (inside) entry.outerRefInside = inside.ref;
    ancestors.push(entry);
    below = el;
  });
  return {
    target: { tagName: tagOf(target), text: truncate(normText(elementText(target, cache)), opts.maxText), attributes: stableAttrs(target) },
    ancestors,
    resolvedPathRefs: pathRefs.map((p) => p.ref),
  };
}

function levelContainer(target: Element, level: number): { chain: Element[]; container: Element; child: Element } {
  const chain = ancestorChain(target);
  if (!Number.isInteger(level) || level < 1 || level > chain.length) {
    throw new BridgeError('level_out_of_range', `level ${level} is out of range: the target has ${chain.length} ancestors up to body (levels 1..${chain.length}).`, {
      level,
      maxLevel: chain.length,
    });
  }
  return { chain, container: chain[level - 1], child: level === 1 ? target : chain[level - 2] };
}

function outline(root: Element, max: number, maxText: number, cache: Map<Node, string>): { items: OutlineItem[]; omitted: number } {
  const items: OutlineItem[] = [];
  let omitted = 0;
  // Shallow: a few levels, only the nodes an agent scopes by (headings, controls, test ids, images).
  const rec = (el: Element, depth: number) => {
    for (const c of [...Array.from(el.children), ...(el.shadowRoot ? Array.from(el.shadowRoot.children) : [])]) {
      const tid = testIdOf(c);
      const heading = isHeading(c);
      const interactive = isInteractive(c);
      const img = tagOf(c) === 'img' && c.getAttribute('alt');
      if (heading || interactive || tid || img) {
        if (items.length < max) {
          const item: OutlineItem = { tag: tagOf(c) };
          const role = roleOf(c);
          if (role && role !== tagOf(c)) item.role = role;
          const text = interactive || img ? labelOf(c, cache) : normText(elementText(c, cache));
          if (text) item.text = truncate(text, maxText);
          if (tid) item.testId = tid.value;
          items.push(item);
        } else omitted++;
        if (heading || interactive) continue;
      }
      if (depth < 4) rec(c, depth + 1);
    }
  };
  rec(root, 1);
  return { items, omitted };
}

export function pattern(target: Element, level: number, opts: { maxSiblings: number; maxText: number; maxTextItems: number; maxOutline: number }): PatternFacts {
  const { container: cont, child } = levelContainer(target, level);
  const cache = new Map<Node, string>();
  const inShadow = isShadowRoot(child.parentNode) && child.parentNode.host === cont;
  const list = Array.from(inShadow ? cont.shadowRoot!.children : cont.children);
  const targetIndex = list.indexOf(child);
  // The first siblings show the repetition; the target's own sibling is always included.
  const shown = new Set<number>();
  for (let i = 0; i < list.length && shown.size < Math.max(1, opts.maxSiblings - 1); i++) shown.add(i);
  if (targetIndex >= 0) shown.add(targetIndex);
  const siblings: SiblingFacts[] = [...shown].sort((a, b) => a - b).map((i) => {
    const el = list[i];
    listed(el); // in entry order: the host adds each sibling's ref
    const { pieces, omitted } = textPieces(el, opts.maxTextItems, opts.maxText);
    const ol = outline(el, opts.maxOutline, opts.maxText, cache);
    const s: SiblingFacts = {
      index: i,
      tagName: tagOf(el),
      attributes: stableAttrs(el),
      childElements: el.children.length,
      containsText: pieces,
      outline: ol.items,
    };
    // Counts of what was left out, only when something was.
    if (omitted) s.textOmitted = omitted;
    if (ol.omitted) s.outlineOmitted = ol.omitted;
    if (i === targetIndex) s.containsTarget = true;
    return s;
  });
  const out: PatternFacts = {
    ancestorLevel: level,
    containerAt: { tagName: tagOf(cont), attributes: stableAttrs(cont), childElements: list.length },
    targetSiblingIndex: targetIndex,
    totalSiblings: list.length,
    siblings,
    omitted: { siblings: list.length - siblings.length },
  };
  if (inShadow) out.inShadowRoot = true;
  return out;
}

const MEANINGFUL = /[\p{L}\p{N}$€£¥%]/u;

export function anchors(target: Element, level: number, opts: { maxDescendants: number; maxDepth: number; maxText: number; scanLimit: number }): AnchorsFacts {
  const { container: root } = levelContainer(target, level);
  const cache = new Map<Node, string>();
  const descendants: AnchorFacts[] = [];
  let total = 0;
  let beyondDepth = 0;
  let scanned = 0;
  let limitHit = false;
  const rec = (parent: Element | ShadowRoot, depth: number) => {
    let index = 0;
    for (let el = parent.firstElementChild; el; el = el.nextElementSibling) {
      if (scanned >= opts.scanLimit) {
        limitHit = true;
        return;
      }
      scanned++;
      const i = index++;
      const tag = tagOf(el);
      if (tag === 'script' || tag === 'style' || tag === 'noscript' || tag === 'template') continue;
      const kind: string[] = [];
      const heading = isHeading(el);
      const interactive = isInteractive(el);
      if (heading) kind.push('heading');
      if (tag === 'label' || tag === 'legend' || tag === 'caption' || tag === 'th' || tag === 'dt') kind.push('label');
      if (testIdOf(el)) kind.push('testid');
      if (interactive) kind.push('interactive');
      const own = directText(el);
      if (!heading && !interactive && own && MEANINGFUL.test(own)) kind.push('text');
      if (kind.length) {
        total++;
        if (depth > opts.maxDepth) beyondDepth++;
        else if (descendants.length < opts.maxDescendants) {
          const a: AnchorFacts = { depth, index: i, tagName: tag, attributes: stableAttrs(el), kind };
          const role = roleOf(el);
          if (role) a.role = role;
          if (heading || kind.includes('label') || interactive) {
            const t = interactive ? labelOf(el, cache) : normText(elementText(el, cache));
            if (t) a.fullText = truncate(t, opts.maxText);
          } else if (own) a.directText = truncate(own, opts.maxText);
          else {
            const t = normText(elementText(el, cache));
            if (t) a.fullText = truncate(t, opts.maxText);
          }
          if (el === target) a.isTarget = true;
          else if (deepContains(el, target)) a.containsTarget = true;
          if (!isVisible(el)) a.hidden = true;
          listed(el); // in entry order: the host adds each anchor's ref
          descendants.push(a);
        }
      }
      // Interactive elements are leaves for anchoring purposes, except their labels' text.
      rec(el, depth + 1);
      if (el.shadowRoot) rec(el.shadowRoot, depth + 1);
    }
  };
  rec(root, 1);
  const out: AnchorsFacts = {
    ancestorAt: { level, tagName: tagOf(root), attributes: stableAttrs(root), childElements: root.children.length },
    descendants,
    totalAnchors: total,
    scannedElements: scanned,
    omitted: { anchors: total - descendants.length, beyondDepth },
  };
  if (limitHit) out.scanLimitReached = true;
  return out;
}

