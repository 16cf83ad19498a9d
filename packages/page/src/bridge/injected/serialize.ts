// The abbreviated DOM of one frame (seed 003): one line per rendered element, open
// shadow roots inline as [SHADOW-ROOT] blocks, custom elements as [CUSTOM] blocks,
// iframes as [FRAME] blocks whose content the host fills in from that frame's own
// world, and a ↳ PATH line under every interactive native element with the locator,
// the shadow host chain and the frame selector chain that reach it from Playwright.

import { directText, isInteractive, isSkippedTag, normText, tagOf, truncate, TEST_ID_ATTRS } from './dom.js';
import { bestSelector, stableClasses } from './selectors.js';
import { FRAME_MARK } from '../protocol.js';
import { listed } from './listed.js';

export interface SerializeArgs {
  /** Frame selector chain of this frame (" >> " between iframes), empty for the main frame. */
  frameSelector: string;
  /** Tokens of the child frames whose owner iframes are passed as extra arguments, same order. */
  childTokens: string[];
  maxChars: number;
  maxText: number;
}

export interface SerializeResult {
  lines: string[];
  chars: number;
  truncated: boolean;
  stats: { elements: number; interactive: number; shadowRoots: number; customElements: number; frames: number; skippedZeroSize: number };
  /** Child frames found (token → iframe selector within this frame). */
  frames: { token: string; selector: string }[];
}


const SHOWN_ATTRS = [...TEST_ID_ATTRS, 'name', 'type', 'role', 'aria-label', 'placeholder', 'href', 'for', 'alt', 'title'];

function q(s: string): string {
  return `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function display(el: Element, maxText: number): string {
  const tag = tagOf(el);
  let s = tag;
  const id = el.getAttribute('id');
  if (id) s += `#${truncate(id, 60)}`;
  for (const a of SHOWN_ATTRS) {
    const v = el.getAttribute(a);
    if (v === null || v === '') continue;
    if (a === 'type' && tag !== 'input' && tag !== 'button') continue;
    s += `[${a}=${q(truncate(v, 60))}]`;
  }
  for (const c of stableClasses(el).slice(0, 3)) s += `.${c}`;
  let text = directText(el);
  if (!text && (tag === 'button' || tag === 'a' || tag === 'label' || /^h[1-6]$/.test(tag))) text = normText(el.textContent);
  if (tag === 'input' && /^(submit|button|reset)$/i.test((el as HTMLInputElement).type)) text = (el as HTMLInputElement).value;
  if (text) s += ` ${q(truncate(text, maxText))}`;
  return s;
}

export function serializeFrame(args: SerializeArgs, owners: Element[]): SerializeResult {
  const lines: string[] = [];
  let chars = 0;
  let full = false;
  const stats = { elements: 0, interactive: 0, shadowRoots: 0, customElements: 0, frames: 0, skippedZeroSize: 0 };
  const frames: { token: string; selector: string }[] = [];
  const tokenOf = new Map<Element, string>();
  owners.forEach((o, i) => tokenOf.set(o, args.childTokens[i]));

  const push = (depth: number, line: string) => {
    if (full) return;
    const text = `${'  '.repeat(depth)}${line}`;
    if (chars + text.length + 1 > args.maxChars) {
      full = true;
      return;
    }
    lines.push(text);
    chars += text.length + 1;
  };

  // hostChain: selectors of the shadow hosts above (outermost first); scope: the innermost host (or document).
  const walk = (el: Element, depth: number, hostChain: string[], scope: Document | Element) => {
    if (isSkippedTag(el)) return;
    const tag = tagOf(el);
    if (tag === 'iframe' || tag === 'frame') {
      stats.frames++;
      // Playwright's frameLocator pierces shadow roots: unique in the whole document is enough.
      const selector = full ? tagOf(el) : bestSelector(el, document).replace(/ > /g, '>');
      const token = tokenOf.get(el);
      const src = el.getAttribute('src');
      push(depth, `[FRAME selector=${q(selector)}${src ? ` src=${q(truncate(src, 200))}` : ''}${args.frameSelector ? ` parent=${q(args.frameSelector)}` : ''}]`);
      if (token) {
        frames.push({ token, selector });
        push(depth + 1, `${FRAME_MARK}${token}`);
      } else push(depth + 1, '(frame content not available)');
      push(depth, '[/FRAME]');
      return;
    }
    const r = el.getBoundingClientRect();
    // Zero-size elements go with their subtree (seed 003); display:contents boxes are
    // zero by definition, so their children are walked.
    if (r.width === 0 && r.height === 0 && !el.shadowRoot) {
      if (getComputedStyle(el).display !== 'contents') {
        stats.skippedZeroSize++;
        return;
      }
    }
    const zero = r.width === 0 && r.height === 0;
    const custom = tag.includes('-');
    const shadow = el.shadowRoot;
    let childDepth = depth;
    if (zero && !shadow) {
      stats.skippedZeroSize++;
    } else {
      stats.elements++;
      if (custom) {
        stats.customElements++;
        push(depth, `[CUSTOM: ${display(el, args.maxText)}]`);
      } else push(depth, display(el, args.maxText));
      childDepth = depth + 1;
      if (!custom && isInteractive(el)) {
        stats.interactive++;
      }
      if (!full && !custom && isInteractive(el)) {
        const locator = bestSelector(el, scope).replace(/ > /g, '>');
        const parts = [`locator=${q(locator)}`];
        if (hostChain.length) parts.push(`shadowHost=${q(hostChain.join(' '))}`);
        if (args.frameSelector) parts.push(`frameSelector=${q(args.frameSelector)}`);
        // A mark the host swaps for the element's ref (injected/listed.ts), or drops.
        const k = listed(el);
        if (k >= 0) parts.push(`\u0002${k}\u0002`);
        push(depth + 1, `↳ ${parts.join(' ')}`);
      }
    }
    if (shadow) {
      stats.shadowRoots++;
      // Past the cap only the counts go on: no selector work for lines that are dropped.
      const hostSel = full ? tagOf(el) : bestSelector(el, scope).replace(/ > /g, '>');
      const chain = [...hostChain, hostSel];
      push(childDepth, `[SHADOW-ROOT host=${q(chain.join(' '))}]`);
      for (let c = shadow.firstElementChild; c; c = c.nextElementSibling) walk(c, childDepth + 1, chain, el);
      push(childDepth, '[/SHADOW-ROOT]');
    }
    // Light DOM children keep the parent's chain: they are not inside the shadow root.
    for (let c = el.firstElementChild; c; c = c.nextElementSibling) walk(c, childDepth, hostChain, scope);
    if (custom && !(zero && !shadow)) push(depth, '[/CUSTOM]');
  };

  const body = document.body ?? document.documentElement;
  if (body) for (let c = body.firstElementChild; c; c = c.nextElementSibling) walk(c, 0, [], document);
  return { lines, chars, truncated: full, stats, frames };
}
