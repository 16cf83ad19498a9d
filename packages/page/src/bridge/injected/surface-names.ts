// In-page: the name a person would read for an element whose accessible name is empty (an
// icon-only control, a field labelled only by text beside it). Pure DOM reads, no layout
// writes. Bundled with surface.ts into surface.generated.ts (scripts/build-bridge.mjs).

export type InferredFrom = 'aria-label' | 'title' | 'alt' | 'svg-title' | 'ligature' | 'shape' | 'icon' | 'class' | 'file' | 'id' | 'data' | 'testid' | 'label' | 'column' | 'text';
export interface Inferred { name: string; from: InferredFrom }

import { generatedReason } from './generated-ids.js';
import { svgGlyph } from './surface-glyphs.js';
import { dataSvgName, svgIconSetName } from './surface-icons.js';
import { idName } from './surface-ids.js';

const MAX_NAME = 60;

export function norm(s: string | null | undefined): string {
  return (s ?? '').replace(/\s+/g, ' ').trim();
}

function clip(s: string): string {
  return s.length > MAX_NAME ? `${s.slice(0, MAX_NAME - 1)}…` : s;
}

/** Does the text hold something a person reads (a letter or digit), not only a glyph? */
export function readable(s: string): boolean {
  if (/[A-Za-z0-9]/.test(s)) return true; // the common case, without the Unicode classes' cost
  return /[\p{L}\p{N}]/u.test(s) && !/^[\uE000-\uF8FF\s]*$/.test(s);
}

/** Element children, open shadow root's too. */
function kids(el: Element): Element[] {
  const out = Array.from(el.children);
  if (el.shadowRoot) out.push(...Array.from(el.shadowRoot.children));
  return out;
}

/** The element and its descendants (open shadow roots included), document order, bounded. */
function within(el: Element, limit = 40): Element[] {
  const out: Element[] = [el];
  for (let i = 0; i < out.length && out.length < limit; i++) for (const k of kids(out[i])) out.push(k);
  return out.slice(0, limit);
}

// Icon-set prefixes (Font Awesome, Bootstrap Icons, Glyphicons, Material Design Icons, Ionicons,
// Feather, Lucide, Tabler, Remix, Line Awesome, Octicons, css.gg, generic icon-/ico-).
const ICON_PREFIX = /^(?:ui|act|action|btn|cmd|js|fa|fas|far|fal|fad|fab|fak|bi|glyphicon|icon|icons|ico|mdi|ion|ionicon|feather|lucide|ti|tabler|ri|la|las|lar|lab|octicon|gg|iconoir|ph|uil|bx|bxs|bxl|zmdi|typcn|wi|oi|el|fi|si|md|mi|svg-icon|i)[-_]/i;
/** Tokens that say how an icon looks or sits, never what it does. */
const STYLE_TOKEN = /^(?:fa|fas|far|fal|fad|fab|fa-(?:solid|regular|light|thin|duotone|brands|sharp|fw|lg|xs|sm|xl|2xs|2xl|[1-9]x|10x|spin|pulse|border|inverse|flip[-\w]*|rotate[-\w]*|stack[-\w]*|li|ul|beat|bounce|fade|shake)|bi|glyphicon|icon|icons|ico|mdi|mdi-(?:\d+px|spin|light|dark)|material-icons[-\w]*|material-symbols[-\w]*|ion|ionicon|feather|lucide|ti|la|las|lar|lab|octicon|gg|ph|uil|bx|bxs|bxl|zmdi|svg-icon|iconfont|icon-font|btn|btn-(?:primary|secondary|success|danger|warning|info|light|dark|link|default|sm|lg|xs|block|group|toolbar|check|outline-[-\w]+|icon|round|rounded|flat|text|ghost|small|large|mini|tiny|circle|square|fab|raised|plain|inverse|white|black)|button|action|actions|item|items|col|col-[-\w]+|cell|row|left|right|center|pull-[-\w]+|float-[-\w]+|text-[-\w]+|m[trblxy]?-\d|p[trblxy]?-\d|d-[-\w]+|align-[-\w]+|active|selected|disabled|hidden|visible|show|open|on|off|sm|md|lg|xl|small|large|big|tiny|mini|dark|light|primary|secondary|default|muted|js-[-\w]+|is-[-\w]+|has-[-\w]+|clickable|pointer|hover|control|tool|tools|toolbar|toolbar-[-\w]+|tb|nav|menu|cursor-pointer|inline|block|flex|relative|absolute|fixed|ml-auto|mr-auto|ui-(?:corner|state|widget|button|helper|priority|front|clearfix)[-\w]*|ui-icon|ui-button)$/i;
// Utility classes (Tailwind, Bootstrap 5 utilities) say how a box looks, never what it does:
// "rounded-md", "inline-flex", "items-center", "-m-2.5", "shrink-0". Bases that double as icon
// names ("rotate", "fill", "grid") count only with a value after them.
const UTILITY = /^-?(?:(?:[mp][trblxyse]?|ms|me|ps|pe|gap(?:-[xy])?|space-[xy]|inset(?:-[xy])?|h|w|size|min-[hw]|max-[hw]|leading|tracking|indent|translate-[xy]|skew-[xy]|duration|delay|ease|ring(?:-offset)?|border(?:-[trblxyse])?|rounded(?:-[trblse]{1,2})?|shadow|blur|bg|divide-[xy]|col-span|row-span|line-clamp|overflow(?:-[xy])?|whitespace|pointer-events|place-(?:items|content|self)|items|justify(?:-items|-self)?|self|grid-cols|grid-rows|font)-[-\w./%]+|(?:rotate|scale|fill|stroke|to|from|via|order|z|start|end|top|bottom|left|right|grow|shrink|basis|flex|columns|aspect|opacity|outline|decoration|content|object|select|cursor|break)-(?:\d[\w./%]*|\[[^\]]*\]|px|full|auto|none|wrap|nowrap|row|col|1|0)|rounded|shadow|border|ring|grow|shrink|truncate|sr-only|not-sr-only|inline-flex|inline-block|inline-grid|transition|antialiased|isolate|static|sticky|outline-none)$/;
const VARIANT_SUFFIX = /[-_](?:fill|filled|fills|outline|outlined|o|alt|alt\d|lg|sm|xs|xl|solid|regular|light|thin|round|rounded|sharp|twotone|two-tone|line|bold|duotone|\d+|icon|ico|svg|btn|button|sm|md)$/i;
const SYNONYM: Record<string, string> = { x: 'close', times: 'close', xmark: 'close', 'x lg': 'close', 'x circle': 'close', 'times circle': 'close', 'close circle': 'close', cross: 'close', 'trash can': 'trash', 'trash alt': 'trash', 'trash2': 'trash', 'trash 2': 'trash', floppy: 'save', 'floppy disk': 'save', 'floppy o': 'save', cog: 'settings', del: 'delete', rm: 'remove', gear: 'settings', gears: 'settings' };

/** An icon token with its set's prefix, style words and variant suffixes taken off; null if it says nothing. */
export function iconWord(token: string): string | null {
  let t = token.trim();
  // Framework-generated tokens (css-1x2y3z, sc-AbCdE, hashes) name nothing.
  if (!t || t.length > 40 || /\d{3,}/.test(t) || STYLE_TOKEN.test(t) || UTILITY.test(t) || generatedReason(t, 'class')) return null;
  // BEM element or modifier: mail-row__star → star, icon--large → icon (then dropped).
  if (t.includes('__')) t = t.slice(t.lastIndexOf('__') + 2);
  t = t.replace(/--[\w-]*$/, '');
  t = t.replace(/(?:Icon|Btn|Button)$/, '').replace(/^(?:icon|ico|btn)(?=[A-Z])/, '');
  for (let i = 0; i < 3 && ICON_PREFIX.test(t); i++) t = t.replace(ICON_PREFIX, '');
  for (let i = 0; i < 3 && VARIANT_SUFFIX.test(t) && t.length > 2; i++) t = t.replace(VARIANT_SUFFIX, '');
  if (!t || STYLE_TOKEN.test(t) || !/[a-z]/i.test(t)) return null;
  const words = t.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_.]+/g, ' ').toLowerCase().trim();
  if (!words || words.length < 1) return null;
  return SYNONYM[words] ?? words;
}

const ICON_FONT_CLASS = /(?:^|\s)(?:material-icons[-\w]*|material-symbols[-\w]*|mdc-icon|icon-font|iconfont|ligature)(?:\s|$)/i;

/** An icon font that draws a word as a glyph (`<i class="material-icons">delete</i>`). */
function ligature(el: Element): string | null {
  if (!ICON_FONT_CLASS.test(el.getAttribute('class') ?? '')) return null;
  const text = norm(el.textContent);
  if (!/^[a-z][a-z0-9_]{1,30}$/.test(text)) return null;
  return text.replace(/_/g, ' ');
}

// Icon components that name their glyph in an attribute and draw it without text: Angular
// Material (`<mat-icon fontIcon="more_vert">`, rendered with data-mat-icon-name), Ionic and
// Shoelace (`<ion-icon name="trash-outline">`, `<sl-icon name="gear">`), Polymer
// (`<iron-icon icon="delete">`).
const ICON_NAME_ATTRS = ['data-mat-icon-name', 'fonticon', 'svgicon'];
const ICON_ELEMENT = /(?:^|-)icon$/;

function componentIcon(el: Element): string | null {
  let v = '';
  for (const a of ICON_NAME_ATTRS) v ||= el.getAttribute(a) ?? '';
  if (!v && ICON_ELEMENT.test(el.localName)) v = el.getAttribute('name') ?? el.getAttribute('icon') ?? '';
  // "mdi:trash-can", "icons:delete": the set's namespace goes.
  v = norm(v).replace(/^[\w-]+:/, '');
  if (!/^[a-z][a-z0-9_-]{1,40}$/i.test(v)) return null;
  return iconWord(v) ?? v.replace(/[_-]+/g, ' ');
}

/** `<use href="#icon-trash">` → trash; `<svg><title>Archive</title>` → Archive. */
function svgName(el: Element): string | null {
  const svg = el.localName === 'svg' ? el : el.querySelector('svg');
  if (!svg) return null;
  const title = svg.querySelector('title');
  const t = norm(title?.textContent);
  if (t) return t;
  const use = svg.querySelector('use');
  const href = use?.getAttribute('href') ?? use?.getAttribute('xlink:href') ?? '';
  const id = href.includes('#') ? href.slice(href.indexOf('#') + 1) : '';
  return id ? iconWord(id) ?? null : null;
}

// File names that name a sheet or a placeholder, not a picture.
const SHEET_FILE = /^(?:icons?|sprites?|glyphs?|images?|img|toolbar|ui|bg|background|blank|spacer|pixel|transparent|clear|dot|shim|s|x|1x1|logo)$/i;

/** "images/btn_delete.gif" → delete; "/i/calendar-16.png?v=3" → calendar; a data: URL or a hash → null. */
function fileWord(url: string): string | null {
  if (/^data:/i.test(url)) return null;
  // A bare % ("100%off.png") is no escape: decodeURIComponent would throw and take the whole pass with it.
  let file = url.split(/[?#]/)[0].split('/').pop() ?? '';
  try { file = decodeURIComponent(file); } catch { /* read as written */ }
  const base = file.replace(/\.(?:gif|png|jpe?g|svg|webp|bmp|ico)$/i, '');
  // Sizes and states around the name ("calendar-16", "delete_over", "ico-add-sm") go.
  const t = base.replace(/(?:^|[-_.])(?:\d+(?:x\d+)?|sm|lg|small|large|big|on|off|over|hover|active|normal|hi|lo|2x|3x)(?=$|[-_.])/gi, '').replace(/^(?:icons?|ico|img|image|btn|button|b|i)[-_.]+/i, '').replace(/[-_.]+(?:icons?|ico|img|image|btn|button)$/i, '');
  if (!t || SHEET_FILE.test(t) || !readable(t.replace(/[-_.]+/g, ' '))) return null;
  const w = iconWord(t);
  return w && w.replace(/\s/g, '').length > 2 ? w : null;
}

function classWord(el: Element): string | null {
  const raw = (el.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
  // A bare token that prefixes others is a namespace ("act act-edit", "fa fa-star"): drop it there.
  const bare = new Set(raw);
  const tokens = raw.filter((t) => !raw.some((o) => o !== t && o.startsWith(`${t}-`))).map((t) => {
    const dash = t.indexOf('-');
    return dash > 0 && bare.has(t.slice(0, dash)) ? t.slice(dash + 1) : t;
  });
  const pick = (list: string[]): string | null => {
    let best: string | null = null;
    for (const t of list) {
      const w = iconWord(t);
      // Two letters say nothing a person reads ("ib", "tb"): a short utility class ("x", "rm" read as words already).
      if (!w || w.replace(/\s/g, '').length <= 2) continue;
      // The more specific of two related tokens ("ui-spinner-button ui-spinner-up" → spinner up).
      if (best === null) best = w;
      else if (w.startsWith(`${best} `)) best = w;
    }
    return best;
  };
  // A token of a known icon set first (fa-star over "toolbar-item"), then any meaningful one.
  return pick(raw.filter((t) => ICON_PREFIX.test(t))) ?? pick(tokens);
}

const DATA_LABEL = ['data-tooltip', 'data-title', 'data-original-title', 'data-bs-original-title', 'data-tip', 'data-label', 'data-hint'];
const DATA_ICON = ['data-icon', 'data-action', 'data-command', 'data-cmd', 'data-name'];
const TEST_ID = ['data-testid', 'data-test', 'data-cy', 'data-qa', 'data-test-id'];

/** The control's one inline <svg>, if it holds no other picture. */
function onlySvg(all: Element[]): Element | null {
  let svg: Element | null = null;
  for (const e of all) {
    if (e.localName === 'img') return null;
    if (e.localName !== 'svg') continue;
    if (svg) return null; // two pictures: which one names it is a guess
    svg = e;
  }
  return svg;
}

/**
 * The name of an icon-only control, from the element or what it holds, in order: aria-label,
 * title, alt; an SVG's title or sprite id; an icon-font ligature; a tooltip's data attribute;
 * the glyph an inline SVG draws, else a known icon set's picture (its fingerprint); icon class or data tokens; its own id or data-* value; a test id.
 */
export function iconName(el: Element): Inferred | null {
  const all = within(el);
  for (const [attr, from] of [['aria-label', 'aria-label'], ['title', 'title'], ['alt', 'alt']] as const) {
    for (const e of all) {
      const v = norm(e.getAttribute(attr));
      if (v && readable(v)) return { name: clip(v), from };
    }
  }
  for (const e of all) {
    if (e.localName !== 'svg' && !e.querySelector?.('svg')) continue;
    const s = svgName(e);
    if (s && readable(s)) return { name: clip(s), from: 'svg-title' };
    break;
  }
  for (const e of all) {
    const l = ligature(e) ?? componentIcon(e);
    if (l) return { name: l, from: 'ligature' };
  }
  for (const e of all) {
    for (const a of DATA_LABEL) {
      const v = norm(e.getAttribute(a));
      if (v && readable(v)) return { name: clip(v), from: 'data' };
    }
  }
  // Before class words: a utility-class page (Tailwind) says nothing there, and the picture is what people name.
  // The glyph the <svg> draws (×, ›, ☰ ...), read from its geometry; else a known icon set's
  // picture, by the exact fingerprint of its geometry ("trash", "pencil", "content copy").
  const svg = onlySvg(all);
  const glyph = svg && svgGlyph(svg);
  if (glyph) return { name: glyph, from: 'shape' };
  const known = svg && svgIconSetName(svg);
  if (known) return { name: known, from: 'icon' };
  for (const e of all) {
    // An <svg>'s own class names its picture as often as a wrapper's does (`<svg class="like">`,
    // Lucide's `lucide-trash-2`, Feather's `feather-edit`); its parts' classes are drawing detail.
    if (e.localName === 'path' || e.localName === 'use' || e.localName === 'g') continue;
    const w = classWord(e);
    // One of a row of alike icons that carries its value (a rating's stars): "star 4".
    const v = norm(el.getAttribute('data-value') ?? el.getAttribute('data-rating') ?? el.getAttribute('data-score') ?? el.getAttribute('data-index'));
    if (w) return { name: clip(v && v.length <= 8 ? `${w} ${v}` : w), from: 'class' };
  }
  for (const e of all) {
    for (const a of DATA_ICON) {
      const v = e.getAttribute(a);
      const w = v ? iconWord(v) : null;
      if (w) return { name: clip(w), from: 'data' };
    }
  }
  // The picture's own file, on pages of the image-button era: `<img src="images/calendar.gif">`,
  // `<input type="image" src="btn_delete.png">`, or a CSS background of its own (not a sprite).
  for (const e of all) {
    const tag = e.localName;
    const src = tag === 'img' || (tag === 'input' && (e as HTMLInputElement).type === 'image') ? e.getAttribute('src') : null;
    const w = src ? fileWord(src) : null;
    if (w) return { name: clip(w), from: 'file' };
    // A data: SVG is the picture itself: its glyph or icon-set picture, as for an inline <svg>.
    const box = src && /^data:/i.test(src) ? e.getBoundingClientRect() : null;
    const drawn = box && box.width <= 64 && box.height <= 64 ? dataSvgName(src!) : null;
    if (drawn) return drawn;
  }
  for (const e of all.slice(0, 3)) {
    if (e.localName === 'svg' || e.localName === 'path') continue;
    const cs = getComputedStyle(e);
    const url = /^url\(["']?([^"')]+)["']?\)$/.exec(cs.backgroundImage)?.[1];
    // A sprite shows part of a sheet (a position other than the start): its file names the sheet, not the picture.
    if (!url || (cs.backgroundPosition !== '0% 0%' && cs.backgroundPosition !== '50% 50%' && !/^(?:0px 0px|center|center center)$/.test(cs.backgroundPosition))) continue;
    const w = fileWord(url);
    if (w) return { name: clip(w), from: 'file' };
  }
  const own = idName(el, all);
  if (own) return { name: clip(own.name), from: own.from };
  for (const e of all) {
    for (const a of TEST_ID) {
      const v = e.getAttribute(a);
      const w = v ? iconWord(v.replace(/[-_](?:btn|button|icon)$/i, '')) : null;
      if (w) return { name: clip(w), from: 'testid' };
    }
  }
  return null;
}

const CONTROL_TAGS = new Set(['input', 'select', 'textarea', 'button']);
const LABEL_TAGS = new Set(['label', 'span', 'b', 'strong', 'em', 'i', 'p', 'div', 'td', 'th', 'dt', 'font', 'small', 'legend', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'li']);

// Tags that run inside a line of text: no space between their text and the next.
const INLINE_TAGS = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr']);

/**
 * An element's text as a person reads it: a block's text apart from the next block's ("PN" in
 * an avatar, then "Priya Natarajan", then her e-mail, three <div>s), not textContent's run-on
 * "PNPriya Natarajanpriya@acme.io".
 */
export function readText(el: Element): string {
  let out = '';
  const walk = (n: Node) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out += c.nodeValue ?? '';
      else if (c.nodeType === 1) {
        const e = c as Element;
        if (e.localName === 'script' || e.localName === 'style' || e.localName === 'template') continue;
        const block = !INLINE_TAGS.has(e.localName);
        if (block) out += ' ';
        walk(e);
        if (block) out += ' ';
      }
    }
  };
  walk(el);
  return norm(out);
}

/** Text of a possible label element: short, readable, holding no control. */
function labelText(el: Element): string | null {
  if (!LABEL_TAGS.has(el.localName)) return null;
  if (el.querySelector('input, select, textarea, button')) return null;
  const t = readText(el).replace(/\s*[:*]+\s*$/, '').replace(/^\s*\*\s*/, '');
  return t && t.length <= 60 && readable(t) ? t : null;
}

function textBefore(node: Node): string | null {
  for (let s = node.previousSibling; s; s = s.previousSibling) {
    if (s.nodeType === 3) {
      const t = norm(s.nodeValue).replace(/\s*[:*]+\s*$/, '');
      if (t) return t.length <= 60 && readable(t) ? t : null;
      continue;
    }
    if (s.nodeType !== 1) continue;
    const e = s as Element;
    if (e.localName === 'br') continue;
    if (CONTROL_TAGS.has(e.localName) || e.querySelector('input, select, textarea, button')) return null;
    const t = labelText(e);
    if (t) return t;
    if (norm(e.textContent)) return null;
  }
  return null;
}

function textAfter(node: Node): string | null {
  for (let s = node.nextSibling; s; s = s.nextSibling) {
    if (s.nodeType === 3) {
      const t = norm(s.nodeValue);
      if (t) return t.length <= 60 && readable(t) ? t : null;
      continue;
    }
    if (s.nodeType !== 1) continue;
    const e = s as Element;
    if (CONTROL_TAGS.has(e.localName)) return null;
    const t = labelText(e);
    if (t) return t;
    if (norm(e.textContent)) return null;
  }
  return null;
}

/**
 * A floating label after a text field (Angular Material's legacy form field, Bootstrap's
 * form-floating): a <label> or <mat-label> as the next element, no control after it in the box.
 * Only a real label element: plain text after a field is a hint or the next field's label.
 */
function floatingLabelAfter(node: Node): string | null {
  let s = node.nextSibling;
  while (s && s.nodeType !== 1) { if (s.nodeType === 3 && norm(s.nodeValue)) return null; s = s.nextSibling; }
  if (!s) return null;
  const e = s as Element;
  const label = e.localName === 'label' || e.localName === 'mat-label' ? e : e.querySelector('label, mat-label');
  if (!label || e.querySelector('input, select, textarea, button')) return null;
  for (let n = e.nextElementSibling; n; n = n.nextElementSibling) if (CONTROL_TAGS.has(n.localName) || n.querySelector('input, select, textarea, button')) return null;
  const t = readText(label).replace(/\s*[:*]+\s*$/, '').replace(/^\s*\*\s*/, '');
  return t && t.length <= 60 && readable(t) && norm(readText(e)) === norm(readText(label)) ? t : null;
}

/** The column header over a table cell (an HTML table or an ARIA grid), if any. */
export function columnHeader(cell: Element): string | null {
  if (cell instanceof HTMLTableCellElement) {
    const table = cell.closest('table');
    const row = cell.parentElement as HTMLTableRowElement | null;
    if (!table || !row) return null;
    let col = 0;
    for (const c of Array.from(row.cells)) { if (c === cell) break; col += c.colSpan || 1; }
    const head = table.tHead?.rows[table.tHead.rows.length - 1] ?? (table.rows[0] !== row && Array.from(table.rows[0]?.cells ?? []).every((c) => c.localName === 'th') ? table.rows[0] : null);
    if (!head) return null;
    let at = 0;
    for (const h of Array.from(head.cells)) {
      if (col >= at && col < at + (h.colSpan || 1)) return norm(h.textContent) || null;
      at += h.colSpan || 1;
    }
    return null;
  }
  const row = cell.closest('[role=row]');
  const grid = row?.closest('[role=grid], [role=table], [role=treegrid]');
  if (!row || !grid) return null;
  const cells = Array.from(row.children).filter((c) => /^(?:cell|gridcell|columnheader|rowheader)$/.test(c.getAttribute('role') ?? ''));
  const i = cells.indexOf(cell);
  const headRow = Array.from(grid.querySelectorAll('[role=row]')).find((r) => r.querySelector('[role=columnheader]'));
  const heads = headRow ? Array.from(headRow.children).filter((c) => c.getAttribute('role') === 'columnheader') : [];
  return i >= 0 && heads[i] ? norm(heads[i].textContent) || null : null;
}

/** The column header of the table cell holding only this field (no other field, no text of its own). */
function aloneInCell(el: Element): string | null {
  const cell = el.closest('td, [role=cell], [role=gridcell]');
  if (!cell || cell.querySelectorAll('input:not([type=hidden]), select, textarea').length !== 1) return null;
  // Text of the cell's own outside the field (a select's options are the field's).
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(), i = 0; n && i < 50; n = walker.nextNode(), i++) {
    if (el.contains(n) || n.parentElement?.closest('script, style, template')) continue;
    if (readable(n.nodeValue ?? '')) return null;
  }
  const head = columnHeader(cell);
  return head && head.length <= 60 && readable(head) ? head : null;
}

/**
 * The text a person reads as a field's label when nothing labels it: the text just before it
 * (a `<label>` without `for`, a `<span>`, a text node), or the text before the box that holds
 * only this field (the cell to the left, the line above); for a checkbox or radio the text after.
 */
export function fieldLabel(el: Element): Inferred | null {
  const after = el.localName === 'input' && /^(checkbox|radio)$/i.test((el as HTMLInputElement).type);
  let node: Element = el;
  for (let up = 0; up < 4; up++) {
    const t = after ? textAfter(node) ?? textBefore(node) : textBefore(node) ?? floatingLabelAfter(node);
    if (t) return { name: clip(t), from: 'label' };
    // Alone in a cell of a table with a header row (an editable grid, a new-line row): the
    // column names the field, the row says which one. Not the cell to its left: that is the
    // row's other data ("Hotel - 2 nights" is not the amount's label).
    if (up === 0) {
      const head = aloneInCell(el);
      if (head) return { name: clip(head), from: 'column' };
    }
    const parent = node.parentElement;
    if (!parent || parent === el.ownerDocument.body) break;
    // Climb only while the box holds this one field and no other text.
    if (parent.querySelectorAll('input, select, textarea').length > 1) break;
    const own = norm(parent.textContent);
    if (own && !(el as HTMLInputElement).value?.includes(own)) {
      // The parent has text of its own beside the field (<p><label>User</label><input></p> is handled above).
      break;
    }
    node = parent;
  }
  return null;
}
