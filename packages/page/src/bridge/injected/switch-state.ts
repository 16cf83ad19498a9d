// Is this element drawn as an on/off switch (a pill with a knob), and which way is it set?
// Read from layout and the page's own evidence, never from one framework's class names:
// a small box 1.4–3.2× as wide as tall with no text, with rounded ends or a round knob at one
// end; its state from where the knob sits, state words in its classes (on, checked, active,
// is-checked, mat-checked / off, unchecked, inactive), data-state / data-checked, and the
// checkbox it hides. All the evidence there is must agree; none, or a disagreement, is
// 'unknown' (never a guess).
//
// Self-contained on purpose (no imports, no module-level names): the surface pass bundles it,
// and the Node side hands the same function to Playwright's evaluate to read a switch back.

export interface SwitchRead {
  state: 'on' | 'off' | 'unknown';
  /** What said so ("knob right", "class mat-checked", "hidden checkbox checked"). */
  evidence: string[];
  /** The knob: an element, a ::before/::after, or none (a rounded track over a hidden checkbox). */
  knob: 'element' | 'pseudo' | 'none';
  /** A checkbox the switch hides (its label, inside it, beside it). */
  input: boolean;
}

export function readSwitch(el: Element): SwitchRead | null {
  const ON = /^(?:on|checked|active|enabled|toggled|true|yes)$/i;
  const OFF = /^(?:off|unchecked|inactive|untoggled|false|no)$/i;
  // The element's own marks first, its box after: most elements are turned away before layout is read.
  const tag = el.localName;
  // Controls, media and the boxes of text and tables are never a switch's track.
  if (['input', 'select', 'textarea', 'progress', 'meter', 'img', 'svg', 'video', 'canvas', 'iframe', 'html', 'body', 'table', 'thead', 'tbody', 'tfoot', 'tr', 'td', 'th', 'ul', 'ol', 'dl', 'p', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'form', 'fieldset', 'nav', 'header', 'footer', 'main', 'section', 'article', 'aside'].includes(tag)) return null;
  const role = el.getAttribute('role');
  if (role && !['button', 'presentation', 'none'].includes(role)) return null;
  // A progress bar or a meter (a rounded track, a fill at one end) is read by its value, not switched.
  // A state in ARIA already (a toggle button's aria-pressed): the tree shows it as built.
  if (el.hasAttribute('aria-pressed') || el.hasAttribute('aria-checked')) return null;
  const rect = el.getBoundingClientRect();
  const W = rect.width;
  const H = rect.height;
  if (H < 8 || H > 40 || W / H < 1.4 || W / H > 3.2) return null;
  if (el.hasAttribute('aria-valuenow') || el.querySelector('[role=progressbar], [role=slider], [aria-valuenow], progress, meter')) return null;
  // No text a person reads (visually hidden text aside): a pill with words is a badge or a tag.
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!/[\p{L}\p{N}]/u.test(t.nodeValue ?? '')) continue;
    const r = (t.parentElement ?? el).getBoundingClientRect();
    if (r.width > 2 && r.height > 2) return null;
  }
  const cs = getComputedStyle(el);
  const radiusRaw = cs.borderTopLeftRadius;
  // 50% on a pill is an ellipse: as rounded as its height allows.
  const radius = radiusRaw.endsWith('%') ? (parseFloat(radiusRaw) / 100) * W : parseFloat(radiusRaw) || 0;
  const rounded = radius >= 0.4 * H;
  const rtl = cs.direction === 'rtl';
  const cx = rect.left + W / 2;
  const cy = rect.top + H / 2;
  const side = (kx: number): 'on' | 'off' | null => {
    if (Math.abs(kx - cx) < 0.1 * W) return null;
    return (kx > cx) !== rtl ? 'on' : 'off';
  };

  // The knob: a round box inside, about the track's height (it may overhang a thin track).
  let knobEl: Element | null = null;
  let knobSide: 'on' | 'off' | null = null;
  const queue: [Element, number][] = Array.from(el.children).map((c) => [c, 1]);
  for (let i = 0; i < queue.length && i < 12; i++) {
    const [d, depth] = queue[i];
    if (['svg', 'img', 'input', 'i', 'video', 'canvas'].includes(d.localName)) continue;
    const r = d.getBoundingClientRect();
    // Round: as wide as tall, and drawn round (by itself or the one box it holds: a thumb in its container).
    const curve = (e: Element | null) => {
      const v = e ? getComputedStyle(e).borderTopLeftRadius : '0';
      return v.endsWith('%') ? (parseFloat(v) / 100) * r.height : parseFloat(v) || 0;
    };
    const round = r.width > 0 && Math.abs(r.width - r.height) <= 0.2 * Math.max(r.width, r.height) && Math.max(curve(d), d.childElementCount === 1 ? curve(d.firstElementChild) : 0) >= 0.3 * r.height;
    // A picture is no knob (an avatar in an account button).
    const picture = /url\(/.test(getComputedStyle(d).backgroundImage);
    if (round && !picture && r.height >= 0.45 * H && r.height <= 1.7 * H && Math.abs(r.top + r.height / 2 - cy) <= 0.35 * H && r.right > rect.left && r.left < rect.right) {
      const s = side(r.left + r.width / 2);
      // A round thing in the middle is an icon in a pill button, not a knob at one end.
      if (s) { knobEl = d; knobSide = s; break; }
      continue;
    }
    if (depth < 3) for (const c of Array.from(d.children)) queue.push([c, depth + 1]);
  }
  // Or a knob drawn by ::before / ::after (the CSS-only switches): placed by left/right and a transform.
  let pseudo = false;
  if (!knobEl) {
    for (const p of ['::before', '::after']) {
      const ps = getComputedStyle(el, p);
      if (!ps.content || ps.content === 'none' || ps.content === 'normal' || ps.display === 'none') continue;
      const w = parseFloat(ps.width);
      const h = parseFloat(ps.height);
      if (!(w > 0) || Math.abs(w - h) > 0.2 * Math.max(w, h) || h < 0.45 * H || h > 1.7 * H) continue;
      pseudo = true;
      const m = /matrix\(([^)]+)\)/.exec(ps.transform);
      const tx = m ? parseFloat(m[1].split(',')[4]) || 0 : 0;
      const abs = ps.position === 'absolute' || ps.position === 'fixed';
      let left: number | null = null;
      if (abs && ps.left.endsWith('px')) left = parseFloat(ps.left);
      else if (abs && ps.right.endsWith('px')) left = W - parseFloat(ps.right) - w;
      if (left !== null) knobSide = side(rect.left + left + tx + w / 2);
      break;
    }
  }

  // The checkbox it hides: the wrapping label's, inside it, or right beside it (`input:checked + .slider`).
  const isBox = (e: Element | null | undefined): e is HTMLInputElement => e instanceof HTMLInputElement && (e.type === 'checkbox' || e.type === 'radio');
  const label = el.closest('label');
  let input: HTMLInputElement | null = null;
  for (const c of [label?.control, el.querySelector('input'), el.previousElementSibling, el.nextElementSibling]) if (!input && isBox(c)) input = c;
  if (input) {
    const r = input.getBoundingClientRect();
    const s = getComputedStyle(input);
    const hidden = r.width <= 1 || r.height <= 1 || s.display === 'none' || s.visibility === 'hidden' || Number(s.opacity) === 0 || s.clipPath !== 'none' || s.clip.startsWith('rect(');
    // A checkbox a person sees is the control itself: the tree shows it.
    if (!hidden) return null;
  }

  if (!knobEl && !pseudo && !(rounded && input)) return null;
  // Icons beside the knob (a chevron in an account pill) make it a button, unless a hidden
  // checkbox vouches for a switch (a theme switch with a sun and a moon).
  if (!input && Array.from(el.querySelectorAll('svg, img, i, canvas')).some((x) => !knobEl?.contains(x) && x.getBoundingClientRect().width > 0)) return null;

  const votes = new Set<'on' | 'off'>();
  const evidence: string[] = [];
  const vote = (s: 'on' | 'off' | null, why: string) => {
    if (!s) return;
    votes.add(s);
    evidence.push(why);
  };
  vote(knobSide, `knob ${knobSide === 'on' ? (rtl ? 'left (rtl)' : 'right') : rtl ? 'right (rtl)' : 'left'}`);
  // State words in classes: the element's, its knob's, and wrappers that hold nothing else.
  const holders: Element[] = [el];
  if (knobEl) holders.push(knobEl);
  for (let up = el.parentElement, i = 0; up && i < 3 && up !== document.body; up = up.parentElement, i++) {
    if (/[\p{L}\p{N}]/u.test(up.textContent ?? '')) break;
    holders.push(up);
  }
  for (const h of holders) {
    for (const token of Array.from(h.classList)) {
      const last = token.split(/[-_]+/).filter(Boolean).pop() ?? '';
      vote(ON.test(last) ? 'on' : OFF.test(last) ? 'off' : null, `class ${token}`);
    }
  }
  for (const attr of ['data-state', 'data-checked']) {
    const v = (el.getAttribute(attr) ?? '').trim();
    vote(/^(?:true|on|checked|1)$/i.test(v) ? 'on' : /^(?:false|off|unchecked|0)$/i.test(v) ? 'off' : null, `${attr}=${v}`);
  }
  if (input) vote(input.checked ? 'on' : 'off', `hidden ${input.type} ${input.checked ? 'checked' : 'unchecked'}`);
  const state = votes.size === 1 ? [...votes][0] : 'unknown';
  if (votes.size === 0) evidence.push(knobEl || pseudo ? 'the knob sits in no readable place and no state is marked' : 'no state is marked');
  return { state, evidence, knob: knobEl ? 'element' : pseudo ? 'pseudo' : 'none', input: Boolean(input) };
}
