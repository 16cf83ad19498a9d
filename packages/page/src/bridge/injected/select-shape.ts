// Is this element drawn as a drop-down (a box showing one short value and a caret), and what
// value does it show? Read from layout and the page's own marks, never one framework's markup:
// one short line of text inside the box, and a caret picture (a ▾ ⌄ glyph, an icon-font
// ligature such as arrow_drop_down, a small <svg> or background picture at the right end, a CSS
// triangle or rotated-border chevron, a caret/arrow class) or a class word that says select
// (mat-select, chosen-single, custom-select, combobox, picker). Not a native control, not inside
// one, no ARIA role of its own but button.
//
// Self-contained on purpose (no imports, no module-level names): the surface pass bundles it,
// and the Node side hands the same function to Playwright's evaluate to read the value back.

export interface SelectRead {
  /** The text the box shows (its caret glyph aside). */
  value: string;
  /** What draws the caret: 'glyph', 'ligature', 'svg', 'picture', 'triangle', 'class', or null. */
  caret: string | null;
  /** A class word that says select, or null. */
  classWord: string | null;
  /** The text shown is a placeholder (class *placeholder*: an empty mat-select shows its label so), not a value. */
  placeholder?: boolean;
}

/**
 * `gate`, when given, runs after the attribute checks and before any layout read: the surface
 * pass passes its "can a person click it" test there, so most elements of a large page are
 * turned away on their tag or their clickability before their box is measured.
 */
export function readDrawnSelect(el: Element, gate?: (el: Element) => boolean): SelectRead | null {
  const CARET_CHARS = /[▾▼⌄⯆˅▿⏷⌵🔽∨]/gu;
  const HAS_CARET = new RegExp(CARET_CHARS.source, 'u'); // the same class, for .test (no lastIndex)
  const CARET_LIGATURE = /^(?:arrow_drop_down|expand_more|keyboard_arrow_down|arrow_drop_down_circle|unfold_more|expand|arrow_down|chevron_down)$/;
  const SELECT_CLASS = /(?:^|[-_])(?:select|selectbox|select-box|combobox|combo|picker|chosen-single|dropdown-select|select-trigger)(?:$|[-_])/i;
  const CARET_CLASS = /(?:^|[-_\s])(?:caret|arrow|chevron|dropdown-icon|select-icon|expand-icon|toggle-icon)(?:$|[-_\s])/i;
  const tag = el.localName;
  if (['input', 'select', 'textarea', 'option', 'optgroup', 'label', 'html', 'body', 'svg', 'img', 'li', 'ul', 'ol', 'table', 'tr', 'td', 'th', 'form', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'nav', 'header', 'footer', 'main', 'section', 'article', 'aside'].includes(tag)) return null;
  if (tag === 'a' && el.hasAttribute('href')) return null;
  const role = el.getAttribute('role');
  if (role && !['button', 'none', 'presentation'].includes(role)) return null;
  if (el.hasAttribute('aria-pressed') || el.hasAttribute('aria-checked') || el.getAttribute('aria-haspopup') === 'menu') return null;
  if (gate && !gate(el)) return null;
  const up = el.parentElement;
  if (up && up.closest('select, textarea, button, a[href], [role=listbox], [role=option], [role=menu], [role=menuitem], [role=combobox], [role=button], [role=link], [role=tab], [role=tablist], [role=tree], [role=grid], [contenteditable=""], [contenteditable=true]')) return null;
  if (el.querySelector('input:not([type=hidden]), select, textarea, button, a[href], [role=button], [role=link], [role=checkbox], [role=switch]')) {
    // A box holding its own search field or buttons is a different control; a search field in a
    // closed (hidden) drop inside it is fine.
    for (const c of Array.from(el.querySelectorAll('input:not([type=hidden]), select, textarea, button, a[href], [role=button], [role=link], [role=checkbox], [role=switch]'))) {
      const r = c.getBoundingClientRect();
      if (r.width > 2 && r.height > 2) return null;
    }
  }
  const transparent = (c: string) => c === 'transparent' || /rgba\([^)]*,\s*0\)$/.test(c);
  const triangle = (s: CSSStyleDeclaration) => {
    const w = ['Top', 'Right', 'Bottom', 'Left'].map((k) => parseFloat(s.getPropertyValue(`border-${k.toLowerCase()}-width`)) || 0);
    const c = ['top', 'right', 'bottom', 'left'].map((k) => s.getPropertyValue(`border-${k}-color`));
    const colored = w.map((x, i) => x >= 2 && !transparent(c[i]));
    const clear = w.map((x, i) => x >= 2 && transparent(c[i]));
    // A CSS triangle: one coloured border with transparent ones on both sides.
    for (let i = 0; i < 4; i++) if (colored[i] && clear[(i + 1) % 4] && clear[(i + 3) % 4]) return true;
    // A chevron: two adjacent coloured borders of a rotated box, the others none.
    if (s.transform && s.transform !== 'none') {
      for (let i = 0; i < 4; i++) if (w[i] >= 1 && w[(i + 1) % 4] >= 1 && !transparent(c[i]) && w[(i + 2) % 4] === 0 && w[(i + 3) % 4] === 0) return true;
    }
    return false;
  };
  const pseudoCaret = (e: Element) => {
    for (const p of ['::after', '::before']) {
      const s = getComputedStyle(e, p);
      const content = s.content;
      if (!content || content === 'none' || content === 'normal') continue;
      if (/[▾▼⌄⯆˅▿⏷⌵∨]/u.test(content)) return 'glyph';
      if (triangle(s)) return 'triangle';
    }
    return null;
  };
  let classWord: string | null = null;
  for (const t of (el.getAttribute('class') ?? '').split(/\s+/)) if (t && SELECT_CLASS.test(t)) { classWord = t; break; }
  if (!classWord && SELECT_CLASS.test(tag)) classWord = tag;
  // A box with no element inside can draw its caret only as a glyph in its text or a pseudo
  // element: when it has neither and no class word says select, no layout needs reading (most
  // plain buttons of a large page end here).
  if (!classWord && el.childElementCount === 0 && !HAS_CARET.test(el.textContent ?? '') && !pseudoCaret(el)) return null;
  const box = el.getBoundingClientRect();
  if (box.width < 30 || box.width > 640 || box.height < 14 || box.height > 90 || box.width < box.height * 1.2) return null;
  const inBox = (r: DOMRect) => r.width > 0 && r.height > 0 && r.left >= box.left - 2 && r.right <= box.right + 2 && r.top >= box.top - 2 && r.bottom <= box.bottom + 2;
  const shownStyle = (e: Element) => { const s = getComputedStyle(e); return s.visibility !== 'hidden' && s.display !== 'none' && Number(s.opacity) > 0; };

  // The text the box shows: visible text nodes drawn inside its rectangle (a floating list it
  // holds hangs outside it); an icon font's ligature is a picture, not text.
  const texts: string[] = [];
  let caret: string | null = null;
  let placeholder = false;
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let n = 0;
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (++n > 40) return null;
    const raw = (t.nodeValue ?? '').replace(/\s+/g, ' ').trim();
    if (!raw) continue;
    const p = t.parentElement;
    if (!p || p.closest('script, style, template')) continue;
    const r = p.getBoundingClientRect();
    if (!inBox(r) || !shownStyle(p)) continue;
    const cls = `${p.getAttribute('class') ?? ''} ${p.localName}`;
    if (/material-icons|material-symbols|mat-icon|icon/i.test(cls) && /^[a-z][a-z0-9_]{1,30}$/.test(raw)) {
      if (CARET_LIGATURE.test(raw)) { caret = 'ligature'; continue; }
      return null; // another icon: an icon button, not a value box
    }
    const stripped = raw.replace(CARET_CHARS, ' ').replace(/\s+/g, ' ').trim();
    if (stripped !== raw) caret = 'glyph';
    if (stripped) texts.push(stripped);
    const ph = p.closest('[class*="placeholder" i]');
    if (stripped && ph && el.contains(ph)) placeholder = true;
  }
  const value = texts.join(' ');
  if (!value || texts.length > 3 || value.length > 40 || !/[\p{L}\p{N}]/u.test(value)) return null;

  // A caret picture at the right end (when no glyph said so already).
  const right = (r: DOMRect) => r.left + r.width / 2 > box.left + box.width * 0.55;
  if (!caret) caret = pseudoCaret(el);
  const all = Array.from(el.querySelectorAll('*')).slice(0, 30);
  for (const d of all) {
    if (caret) break;
    const r = d.getBoundingClientRect();
    if (!inBox(r) || !shownStyle(d) || !right(r)) continue;
    const small = r.width <= 28 && r.height <= 28;
    const textless = !/[\p{L}\p{N}]/u.test(d.textContent ?? '');
    if (d.localName === 'svg' && small) caret = 'svg';
    else if (d instanceof SVGElement) continue;
    else if (textless && small && triangle(getComputedStyle(d))) caret = 'triangle';
    else if (textless && small && getComputedStyle(d).backgroundImage !== 'none') caret = 'picture';
    else if (textless && small && CARET_CLASS.test(d.getAttribute('class') ?? '')) caret = 'class';
    else caret = pseudoCaret(d);
  }
  if (!caret && !classWord) return null;
  return { value, caret, classWord, ...(placeholder ? { placeholder } : {}) };
}
