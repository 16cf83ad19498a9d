// In-page surface pass: runs in Playwright's utility world right after its AI snapshot, on the
// same InjectedScript (`inj`), and reads the tree that snapshot kept for `aria-ref=` queries
// (`_lastAriaSnapshotForQuery`: the distilled aria tree, and ref ⇄ element maps).
//
// It finds what a person can click or fill but the snapshot shows badly or not at all:
// - nameless clickable nodes (icon buttons, `generic [cursor=pointer]` icons) get the name a
//   person reads (inferredName + inferredFrom), see surface-names.ts;
// - clickable icons that distillation dropped (an empty `<span class="trash">` inside a clickable
//   row) and clickable words inside prose (folded into the paragraph's text) come back as nodes
//   of their own, with Playwright's ref when it gave one, else one registered here in the same
//   ref map so `aria-ref=` resolves it;
// - fields get their kind (multiline, type=date...), a select its current choice, an unlabelled
//   field the text beside it.
// It answers edits for the Node side to apply to the JSON tree (packages/page/src/surface/apply.ts),
// so the direct path (one frame) and the public path (a call per frame) share it.
// The pass touches only elements the tree leaves nameless or out: on a well-labelled page it
// answers no edits, and the snapshot stays exactly Playwright's.

import { type Inferred, fieldLabel, iconName, norm, readable } from './surface-names.js';
import { type SwitchFound, hiddenBox, switchClickable, switchName, switchShapes } from './surface-switches.js';
import { type SelectFound, listBeside, selectName, selectShapes } from './surface-selects.js';
export { readSwitch } from './switch-state.js';
export { readDrawnSelect } from './select-shape.js';

interface AriaNode {
  role: string;
  name: string;
  ref?: string;
  children: (AriaNode | string)[];
  props: Record<string, string>;
  box?: { cursor?: string; visible?: boolean; inline?: boolean };
}
interface AriaSnapshot {
  root: AriaNode;
  info: Map<string, { element: Element; nameFromContentRefs?: string[] }>;
  refs: Map<Element, string>;
}
interface Injected {
  _lastAriaSnapshotForQuery?: AriaSnapshot;
  _frameSeq?: number;
  __ariadneSurfaceSeq?: number;
  /** The icons the last pass could not prove clickable (for listenerProbe). */
  __ariadneUnproven?: Element[];
  /** Elements a listener check found click listeners on, and icons already checked. */
  __ariadneListened?: WeakSet<Element>;
  /** Whether any listener check has proved an element yet (the common page: never). */
  __ariadneListenedAny?: boolean;
  __ariadneProbed?: WeakSet<Element>;
}

/** A node the pass adds (JSON form, as Playwright renders nodes). */
export interface NewNode {
  role: string;
  ref: string;
  inferredName?: string;
  inferredFrom?: string;
  text?: string;
  cursor?: 'pointer';
  clickable?: true;
  /** A switch drawn without ARIA: its state (checked), or state 'unknown' when nothing tells. */
  checked?: boolean;
  state?: 'unknown';
  /** A drop-down drawn without ARIA: the value it shows. */
  value?: string;
}
/** Attributes added to a node that is in the tree already. */
export interface NodeEdit {
  /** The role it plays (a switch or a drop-down drawn without ARIA), replacing the tree's. */
  role?: string;
  /** Drop the name the tree gave from content (a drop-down's shown value is its value, not its name). */
  dropName?: true;
  checked?: boolean;
  state?: 'unknown';
  clickable?: true;
  inferredName?: string;
  inferredFrom?: string;
  kind?: string;
  value?: string;
}
/** New children of a node (parent ref, or null: the roots): old children by index, strings, new nodes. */
export interface ChildrenEdit {
  parent: string | null;
  children: (number | string | NewNode)[];
}
export interface SurfaceResult {
  edits: Record<string, NodeEdit>;
  children: ChildrenEdit[];
  /** Icons that look clickable but show no evidence in the DOM: candidates for a listener check. */
  unproven?: number;
}
export interface SurfaceOptions {
  /** Elements a listener check (CDP DOMDebugger.getEventListeners) found a click listener on. */
  listeners?: Element[];
}

// Roles whose element a person clicks or fills as one thing: its name comes from what it holds.
const CONTROL_ROLES = new Set(['button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'option', 'treeitem', 'checkbox', 'radio', 'switch', 'combobox', 'textbox', 'searchbox', 'spinbutton', 'slider', 'listbox', 'gridcell']);
const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider', 'checkbox', 'radio', 'switch', 'button']);
/** Of those, the ones that take a typed or chosen value (a box beside them names them). */
const VALUE_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton', 'slider']);
const KINDS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'email', 'password', 'number', 'range', 'color', 'file', 'search', 'tel', 'url']);
const ROLE_SAYS: Record<string, string> = { search: 'searchbox', number: 'spinbutton', range: 'slider' };
// Own refs count from here so they never meet Playwright's `e<N>` counter (one per element it ever saw).
const OWN_REF_BASE = 1_000_000;

// Icon leaves, explicit click evidence, and inline words that may be clickable prose.
// Icon components draw their picture in an element of their own (<mat-icon>, <ion-icon>).
const CANDIDATES = 'i, svg, img, span, a:not([href]), b, strong, em, u, font, small, div:empty, [onclick], [tabindex], [role="button"], [data-action], mat-icon, ion-icon, sl-icon, iron-icon, [fonticon], [svgicon]';
const PROSE_TAGS = new Set(['span', 'a', 'b', 'strong', 'em', 'u', 'font', 'small', 'i']);
const ICON_FONT = /material-icons|material-symbols|icon-font|iconfont/i;
const PROSE_CLASS = /(?:^|[\s_-])(?:a?link|clickable|click|anchor|href|pseudo-link|fake-link)(?:$|[\s_-])/i;

function parentOf(el: Element): Element | null {
  return el.parentElement ?? ((el.parentNode as ShadowRoot | null)?.host ?? null);
}

const parentIds = new WeakMap<Element, number>();
let parentSeq = 0;
function parentKey(el: Element): number {
  let id = parentIds.get(el);
  if (id === undefined) parentIds.set(el, (id = ++parentSeq));
  return id;
}

function visible(el: Element): boolean {
  const r = el.getBoundingClientRect();
  if (r.width <= 0 || r.height <= 0) return false;
  const s = getComputedStyle(el);
  return s.visibility === 'visible' && s.display !== 'none' && Number(s.opacity) > 0;
}

function hasEvidence(el: Element): boolean {
  if (el.hasAttribute('onclick') || el.hasAttribute('data-action') || el.hasAttribute('ng-click') || el.hasAttribute('@click') || el.hasAttribute('v-on:click')) return true;
  const t = el.getAttribute('tabindex');
  return t !== null && t !== '-1';
}

/** Does a node of the tree hold a control (a button, a link, a field) below it? */
function holdsControl(n: AriaNode): boolean {
  for (const c of n.children) if (typeof c !== 'string' && (CONTROL_ROLES.has(c.role) || holdsControl(c))) return true;
  return false;
}

/** Any readable text in the subtree of a distilled node (names of descendants count). */
function hasText(n: AriaNode, self = true): boolean {
  if (self && n.name && readable(n.name)) return true;
  for (const c of n.children) {
    if (typeof c === 'string') { if (readable(c)) return true; }
    else if (hasText(c)) return true;
  }
  return false;
}

function hasPseudoPicture(el: Element): boolean {
  const s = getComputedStyle(el);
  if (s.backgroundImage && s.backgroundImage !== 'none') return true;
  for (const p of ['::before', '::after']) {
    const c = getComputedStyle(el, p).content;
    if (c && c !== 'none' && c !== 'normal' && c !== '""') return true;
  }
  return false;
}

/** Is this a leaf that shows a picture: an <svg>/<img>, an icon font glyph, a CSS picture? */
function iconLeaf(el: Element): boolean {
  const tag = el.localName;
  if (tag === 'svg' || tag === 'img') return true;
  for (const k of Array.from(el.children)) if (k.localName !== 'svg' && k.localName !== 'img' && k.localName !== 'i') return false;
  const text = norm(el.textContent);
  if (text && readable(text) && !/material|symbol|icon/i.test(el.getAttribute('class') ?? '')) return false;
  if (el.children.length) return true;
  return tag === 'i' || hasPseudoPicture(el) || /icon|fa-|bi-|glyph/i.test(el.getAttribute('class') ?? '');
}

/**
 * The element's ref in the frame's last snapshot, registering one when it has none (in the same
 * maps `aria-ref=` reads). The same element keeps the ref it was given across snapshots. Null
 * when the frame has taken no snapshot yet.
 */
export function registerRef(inj: Injected, el: Element): string | null {
  const snap = inj._lastAriaSnapshotForQuery;
  if (!snap?.info) return null;
  const known = snap.refs.get(el);
  if (known) return known;
  const prefix = inj._frameSeq ? `f${inj._frameSeq}` : '';
  const holder = el as Element & { __ariadneRef?: string };
  let ref = holder.__ariadneRef;
  const taken = (r: string) => { const i = snap.info.get(r); return !!i && i.element !== el; };
  if (!ref || taken(ref)) {
    do {
      inj.__ariadneSurfaceSeq = (inj.__ariadneSurfaceSeq ?? 0) + 1;
      ref = `${prefix}e${OWN_REF_BASE + inj.__ariadneSurfaceSeq}`;
    } while (taken(ref));
    holder.__ariadneRef = ref;
  }
  snap.info.set(ref, { element: el, nameFromContentRefs: [] });
  snap.refs.set(el, ref);
  return ref;
}

/**
 * Elements whose click listeners would prove the last pass's unproven icons clickable: each
 * icon and its ancestors up to three levels (a list delegating to its items), below body.
 */
export function listenerProbe(inj: Injected, max = 80): Element[] {
  const out = new Set<Element>();
  const probed = (inj.__ariadneProbed ??= new WeakSet<Element>());
  for (const el of inj.__ariadneUnproven ?? []) {
    if (out.size >= max) break;
    probed.add(el);
    let e: Element | null = el;
    for (let i = 0; e && i < 4 && out.size < max; i++, e = parentOf(e)) {
      if (e === document.body || e === document.documentElement) break;
      out.add(e);
    }
  }
  return [...out];
}

/** The ref an element has in the frame's last snapshot, or null (nothing registered). */
export function refOf(inj: Injected, el: Element): string | null {
  return inj._lastAriaSnapshotForQuery?.refs.get(el) ?? null;
}

export function surface(inj: Injected, opts: SurfaceOptions = {}): SurfaceResult | null {
  const snap = inj._lastAriaSnapshotForQuery;
  if (!snap?.root) return null;
  const result: SurfaceResult = { edits: {}, children: [] };
  const nodeOf = new Map<Element, AriaNode>();
  const elementOf = (n: AriaNode): Element | undefined => (n.ref ? snap.info.get(n.ref)?.element : undefined);
  const edit = (ref: string, e: NodeEdit) => { result.edits[ref] = { ...result.edits[ref], ...e }; };

  // Elements a click listener sits on (from the caller's listener check): one, or an ancestor up
  // to three levels (a list delegating to its items), counts as evidence. Never body and above.
  // What a listener check proved stays proved for the document's life (elements probed once:
  // a page full of decorative icons costs its round trips on the first snapshot only).
  const listeners = (inj.__ariadneListened ??= new WeakSet<Element>());
  const probed = (inj.__ariadneProbed ??= new WeakSet<Element>());
  for (const el of opts.listeners ?? []) listeners.add(el);
  const listenersSeen = Boolean(inj.__ariadneListenedAny ||= (opts.listeners?.length ?? 0) > 0);
  // One computed-style read per element per pass: the switch, drop-down and icon scans ask the
  // same elements' cursor.
  const cursors = new Map<Element, string>();
  const cursorOf = (el: Element): string => {
    let c = cursors.get(el);
    if (c === undefined) cursors.set(el, (c = getComputedStyle(el).cursor));
    return c;
  };
  const listened = (el: Element): boolean => {
    if (!listenersSeen) return false; // most pages: no listener check has proved anything
    let e: Element | null = el;
    for (let i = 0; e && i < 4; i++, e = parentOf(e)) {
      if (e === document.body || e === document.documentElement) return false;
      if (listeners.has(e)) return true;
    }
    return false;
  };
  let unproven = 0;
  const unprovenEls: Element[] = [];

  // 0. Switches drawn without ARIA (surface-switches.ts): the shape, and a sign a person can
  // click it; one without a sign goes to the listener check like an unproven icon.
  const shapes = switchShapes(snap.refs.keys());
  const switches = new Map<Element, SwitchFound>();
  for (const [el, read] of shapes) {
    const c = switchClickable(el);
    if (!c.pointer && !c.other && !hasEvidence(el) && !listened(el)) {
      if (!probed.has(el)) { unproven++; unprovenEls.push(el); }
      continue;
    }
    switches.set(el, { read, box: read.input ? hiddenBox(el) : null, name: null, pointer: c.pointer });
  }
  const shapeSet = new Set(shapes.keys());
  for (const [el, s] of switches) s.name = switchName(el, shapeSet);
  const switchState = (s: SwitchFound) => (s.read.state === 'unknown' ? { state: 'unknown' as const } : { checked: s.read.state === 'on' });

  // 0b. Drop-downs drawn without ARIA (surface-selects.ts): a box showing one value with a caret
  // that a person can click, named by its label, and not a menu button.
  const selects = new Map<Element, SelectFound>();
  const selectClickable = (el: Element) => !switches.has(el) && (el.localName === 'button' || hasEvidence(el) || listened(el) || cursorOf(el) === 'pointer');
  for (const [el, read] of selectShapes(snap.refs.keys(), selectClickable)) {
    const list = listBeside(el, read.value);
    if (list === 'menu') continue;
    // An empty box showing its placeholder ("Role" in an empty mat-select): named by it, no value.
    const name = selectName(el) ?? (read.placeholder ? { name: read.value, from: 'label' } : null);
    if (!name && !read.classWord && list !== 'listed') continue;
    selects.set(el, { read, name, pointer: cursorOf(el) === 'pointer' });
  }
  const selectEdit = (s: SelectFound) => ({ role: 'combobox', ...(s.read.placeholder ? {} : { value: s.read.value }), ...(s.name ? { inferredName: s.name.name, inferredFrom: s.name.from } : {}) });

  // 1. The distilled tree: nodes by element; nameless clickable nodes get a name; fields a kind.
  const insideControl = new Set<AriaNode>();
  const parentNode = new Map<AriaNode, AriaNode>();
  const walk = (n: AriaNode, inPointer: boolean, inControl: boolean) => {
    for (const c of n.children) {
      if (typeof c === 'string') continue;
      parentNode.set(c, n);
      const el = elementOf(c);
      if (el) nodeOf.set(el, c);
      if (inControl) insideControl.add(c);
      const pointer = !!c.ref && c.box?.cursor === 'pointer';
      const sw = el && c.ref && !inControl ? switches.get(el) : undefined;
      const sel = el && c.ref && !inControl && !sw ? selects.get(el) : undefined;
      if (sel) {
        // The value is shown as value=; its text and caret inside are the box itself.
        edit(c.ref!, { ...selectEdit(sel), dropName: true });
        result.children.push({ parent: c.ref!, children: [] });
      } else if (sw) {
        edit(c.ref!, { role: 'switch', ...switchState(sw), ...(sw.name ? { inferredName: sw.name.name, inferredFrom: sw.name.from } : {}) });
      } else if (el && c.ref) {
        const tag = el.localName;
        if (tag === 'input' || tag === 'select' || tag === 'textarea' || (FIELD_ROLES.has(c.role) && c.role !== 'button')) fieldEdits(c, el);
        else if (!c.name && !inControl) {
          // Nameless and textless (a glyph at most): a control, a click target, or anything under a pointer.
          // A pointer inherited from a clickable row names only a glyph leaf; a cell holding an icon
          // is not the target: the icon inside is (step 2 brings it back). The cheap tests first:
          // most nameless nodes of a large page are layout boxes that fail them.
          const leaf = el.childElementCount === 0 || el.localName === 'svg';
          // A listener on an ancestor (a list delegating to its items) proves a leaf only: a box
          // (a cell of a row that selects on click) needs a handler of its own, and one that holds
          // controls is theirs to act on.
          const clickable = CONTROL_ROLES.has(c.role) || (pointer && (!inPointer || (leaf && iconLeaf(el)))) || ((hasEvidence(el) || (leaf ? listened(el) : listeners.has(el))) && !holdsControl(c));
          if (!clickable && !leaf) { /* a box with content: not an icon */ } else if (hasText(c, false)) { /* read by its text */ } else if (clickable) {
            const got = iconName(el);
            // No pointer and no control role: say it is clickable (the evidence is a handler).
            const mark = !pointer && !CONTROL_ROLES.has(c.role) ? { clickable: true as const } : {};
            if (got) edit(c.ref, { inferredName: got.name, inferredFrom: got.from, ...mark });
          } else if (iconLeaf(el) && el.getAttribute('aria-hidden') !== 'true' && iconName(el)) {
            if (!probed.has(el)) { unproven++; unprovenEls.push(el); } // a listener check may prove it
          }
        }
      }
      walk(c, inPointer || pointer, inControl || CONTROL_ROLES.has(c.role) || Boolean(sw) || Boolean(sel));
    }
  };

  const fieldEdits = (n: AriaNode, el: Element) => {
    const tag = el.localName;
    const e: NodeEdit = {};
    if (tag === 'textarea') e.kind = 'multiline';
    else if (tag === 'input') {
      const type = (el as HTMLInputElement).type.toLowerCase();
      // The role says search, number and range already (searchbox, spinbutton, slider).
      if (KINDS.has(type) && !(ROLE_SAYS[type] === n.role)) e.kind = type;
    } else if (tag === 'select' && !(el as HTMLSelectElement).multiple) {
      const opt = (el as HTMLSelectElement).selectedOptions[0];
      const v = norm(opt?.label || opt?.textContent);
      if (v) e.value = v;
    }
    // An image button with no text of its own is named "Submit" by the browser: its file says what it does.
    if (tag === 'input' && (el as HTMLInputElement).type.toLowerCase() === 'image' && !['alt', 'aria-label', 'aria-labelledby', 'title', 'value'].some((a) => (el.getAttribute(a) ?? '').trim())) {
      const got = iconName(el);
      if (got && n.ref) edit(n.ref, { inferredName: got.name, inferredFrom: got.from, dropName: true });
      return;
    }
    const named = !!n.name || (tag === 'input' && /^(button|submit|reset|image)$/i.test((el as HTMLInputElement).type));
    // An ARIA field whose author lost its name (a mat-select whose aria-labelledby a wrapper
    // dropped, a combobox div): named by the text a person reads beside it, as a native field is.
    if (!named && (tag === 'input' || tag === 'select' || tag === 'textarea' || el.getAttribute('contenteditable') !== null || VALUE_ROLES.has(n.role))) {
      if (!(tag === 'input' && /^(button|submit|reset|image|file)$/i.test((el as HTMLInputElement).type))) {
        const got = fieldLabel(el);
        if (got) { e.inferredName = got.name; e.inferredFrom = got.from; }
      }
    }
    if (Object.keys(e).length && n.ref) edit(n.ref, e);
  };

  walk(snap.root, false, false);

  // 2. What the tree left out: clickable icons and clickable words in prose.
  const surfaced = new Map<Element, { node: NewNode; owner: AriaNode | null; prose: boolean }>();
  // Open shadow roots of elements Playwright gave a ref (every visible element it walked).
  const roots: (Document | ShadowRoot)[] = [document];
  for (const el of snap.refs.keys()) if (el.shadowRoot) roots.push(el.shadowRoot);
  // Switches the tree left out (a div with a listener, a focusable div): nodes of their own.
  for (const [el, sw] of switches) {
    if (nodeOf.has(el)) continue;
    let owner: AriaNode | null = null;
    for (let up = parentOf(el); up && !owner; up = parentOf(up)) owner = nodeOf.get(up) ?? null;
    if (owner && (CONTROL_ROLES.has(owner.role) || insideControl.has(owner))) continue;
    const node: NewNode = {
      role: 'switch',
      ref: refFor(el),
      ...(sw.name ? { inferredName: sw.name.name, inferredFrom: sw.name.from } : {}),
      ...switchState(sw),
      ...(sw.pointer ? { cursor: 'pointer' as const } : {}),
    };
    surfaced.set(el, { node, owner, prose: false });
  }
  // Drop-downs the tree left out: nodes of their own.
  for (const [el, sel] of selects) {
    if (nodeOf.has(el)) continue;
    let owner: AriaNode | null = null;
    for (let up = parentOf(el); up && !owner; up = parentOf(up)) owner = nodeOf.get(up) ?? null;
    if (owner && (CONTROL_ROLES.has(owner.role) || insideControl.has(owner))) continue;
    const node: NewNode = { ...selectEdit(sel), ref: refFor(el), ...(sel.pointer ? { cursor: 'pointer' as const } : { clickable: true as const }) };
    surfaced.set(el, { node, owner, prose: false });
  }
  for (const root of roots) for (const el of Array.from(root.querySelectorAll(CANDIDATES))) consider(el);
  function consider(el: Element): void {
    if (nodeOf.has(el) || surfaced.has(el)) return; // in the tree (step 1 named it), or a switch
    // The nearest ancestor the tree shows; skip what lies inside a control (the control is the target).
    let owner: AriaNode | null = null;
    let insideSurfaced = false;
    for (let up = parentOf(el); up; up = parentOf(up)) {
      if (surfaced.has(up) || switches.has(up) || selects.has(up)) { insideSurfaced = true; break; }
      const n = nodeOf.get(up);
      if (n) { owner = n; break; }
    }
    if (insideSurfaced) return;
    // Inside a control the control is the target (step 1 named it); so is a textless click target.
    if (owner && (CONTROL_ROLES.has(owner.role) || insideControl.has(owner) || (owner.ref && result.edits[owner.ref]?.inferredName))) return;
    const tag = el.localName;
    const single = el.childNodes.length === 1 && el.firstChild!.nodeType === 3;
    const ownRef = snap!.refs.get(el);
    // Clickable words in prose: an inline element holding only a short text, which Playwright folds into its parent's text.
    if (!ownRef && single && PROSE_TAGS.has(tag) && !ICON_FONT.test(el.getAttribute('class') ?? '')) {
      const text = norm(el.textContent);
      // A glyph alone (⋮ × ›) counts too: a row's kebab is often a <span> of one character.
      if (!text || text.length > 40 || (!readable(text) && !/^[^\s\p{L}\p{N}]{1,2}$/u.test(text))) return;
      const parent = parentOf(el);
      const pointer = cursorOf(el) === 'pointer' && (!parent || cursorOf(parent) !== 'pointer');
      const evidence = pointer || hasEvidence(el) || PROSE_CLASS.test(el.getAttribute('class') ?? '') || listeners.has(el);
      if (!evidence || !visible(el)) return;
      // Marked clickable whatever the evidence (seams §2): a word in prose does not look like a control.
      const node: NewNode = { role: 'generic', ref: refFor(el), text, clickable: true, ...(pointer ? { cursor: 'pointer' as const } : {}) };
      surfaced.set(el, { node, owner, prose: true });
      return;
    }
    if (!iconLeaf(el) && !hasEvidence(el)) return;
    // What holds a node of the tree is not the target: that node is (a titled <svg> in a <span onclick>).
    for (const d of Array.from(el.querySelectorAll('*')).slice(0, 40)) if (nodeOf.has(d)) return;
    if (!visible(el)) return;
    const pointer = cursorOf(el) === 'pointer';
    const name = iconName(el);
    const evidence = hasEvidence(el) || listened(el) || (pointer && !!name);
    if (!evidence) {
      // aria-hidden too: Material draws its icons so, clickable ones included (a chip's remove).
      if (name && iconLeaf(el) && !probed.has(el)) { unproven++; unprovenEls.push(el); }
      return;
    }
    if (!name && !pointer && !hasEvidence(el)) return;
    // An element with readable text of its own is read already (it is in its parent's text).
    const text = norm(el.textContent);
    if (text && readable(text) && !name) return;
    const node: NewNode = {
      role: el.getAttribute('role')?.split(/\s+/)[0] || (tag === 'svg' || tag === 'img' ? 'img' : 'generic'),
      ref: refFor(el),
      ...(name ? { inferredName: name.name, inferredFrom: name.from } : {}),
      ...(pointer ? { cursor: 'pointer' as const } : { clickable: true as const }),
    };
    surfaced.set(el, { node, owner, prose: false });
  }
  if (unproven) result.unproven = unproven;
  inj.__ariadneUnproven = unprovenEls;

  function refFor(el: Element): string {
    return registerRef(inj, el)!;
  }

  // A row of alike icons side by side (a rating's stars) is told apart by position: "star 3".
  const named: { el: Element; name: string; set: (n: string) => void }[] = [];
  for (const [ref, e] of Object.entries(result.edits)) {
    const el = snap.info.get(ref)?.element;
    if (el && e.inferredName && e.inferredFrom !== 'label' && !e.role) named.push({ el, name: e.inferredName, set: (n) => { e.inferredName = n; } });
  }
  for (const [el, s] of surfaced) if (s.node.inferredName && s.node.role !== 'switch' && s.node.role !== 'combobox') named.push({ el, name: s.node.inferredName, set: (n) => { s.node.inferredName = n; } });
  const groups = new Map<string, typeof named>();
  for (const x of named) {
    const parent = parentOf(x.el);
    if (!parent) continue;
    const key = `${x.name}\u0000${parentKey(parent)}\u0000${x.el.localName}.${x.el.getAttribute('class') ?? ''}`;
    const g = groups.get(key) ?? [];
    g.push(x);
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    if (g.length < 2 || g.length > 12 || /\d$/.test(g[0].name)) continue;
    g.sort((a, b) => (a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    g.forEach((x, i) => x.set(`${x.name} ${i + 1}`));
  }

  // 3. Place each surfaced element among its owner's children, in document order.
  const byOwner = new Map<AriaNode | null, Element[]>();
  for (const [el, s] of surfaced) {
    const list = byOwner.get(s.owner) ?? [];
    list.push(el);
    byOwner.set(s.owner, list);
  }
  // A checkbox a switch hides, which the tree still shows (clipped to 1 px: a click cannot reach
  // it): the switch stands for it, as a person sees one control.
  const dropped = new Set<AriaNode>();
  for (const [el, sw] of switches) {
    const box = sw.box ? nodeOf.get(sw.box) : undefined;
    if (!box || !(nodeOf.has(el) || surfaced.has(el))) continue;
    dropped.add(box);
    const up = parentNode.get(box);
    const owner = !up || up === snap.root ? null : up;
    if (!byOwner.has(owner)) byOwner.set(owner, []);
  }
  for (const [owner, els] of byOwner) {
    const kidsOf = owner ? owner.children : snap.root.children;
    let out: (number | string | NewNode)[] = kidsOf.flatMap((k, i) => (typeof k !== 'string' && dropped.has(k) ? [] : [i]));
    for (const el of els) out = place(out, kidsOf, el, surfaced.get(el)!, owner);
    if (owner && !owner.ref) continue; // cannot address it from Node
    result.children.push({ parent: owner ? owner.ref! : null, children: out });
  }
  return result.children.length || Object.keys(result.edits).length || result.unproven ? result : null;

  /** Insert one surfaced element into a children list (old children by index, strings, new nodes). */
  function place(list: (number | string | NewNode)[], old: (AriaNode | string)[], el: Element, s: { node: NewNode; prose: boolean }, owner: AriaNode | null): (number | string | NewNode)[] {
    const ownerEl = owner ? elementOf(owner) : document.body;
    // The first element child (old node or surfaced) that comes after el in the document.
    let at = list.length;
    for (let i = 0; i < list.length; i++) {
      const item = list[i];
      let other: Element | undefined;
      if (typeof item === 'number') { const o = old[item]; other = typeof o === 'string' ? undefined : elementOf(o); }
      else if (typeof item === 'object') other = snap!.info.get(item.ref)?.element;
      if (other && other !== el && (el.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_FOLLOWING) && !(el.compareDocumentPosition(other) & Node.DOCUMENT_POSITION_CONTAINED_BY)) { at = i; break; }
    }
    // Within the text run before that point, split at el's place: count the text that precedes el.
    let runStart = at;
    while (runStart > 0 && isText(list[runStart - 1], old)) runStart--;
    const run = list.slice(runStart, at).map((x) => textOf(x, old));
    const joined = run.join(' ');
    if (!joined || !ownerEl) return [...list.slice(0, at), s.node, ...list.slice(at)];
    const before = precedingText(ownerEl, el, runStart === 0 ? null : elementBefore(list, runStart, old));
    let cut = Math.min(before.length, joined.length);
    if (s.prose && s.node.text) {
      // Find the word's occurrence nearest to where it stands.
      let best = -1;
      for (let i = joined.indexOf(s.node.text); i >= 0; i = joined.indexOf(s.node.text, i + 1)) if (best < 0 || Math.abs(i - cut) < Math.abs(best - cut)) best = i;
      if (best < 0) return [...list.slice(0, at), s.node, ...list.slice(at)];
      const head = joined.slice(0, best).trim();
      const tail = joined.slice(best + s.node.text.length).trim();
      return [...list.slice(0, runStart), ...(head ? [head] : []), s.node, ...(tail ? [tail] : []), ...list.slice(at)];
    }
    // Icons: split at a word boundary near the text before them.
    while (cut > 0 && cut < joined.length && joined[cut] !== ' ') cut--;
    const head = joined.slice(0, cut).trim();
    const tail = joined.slice(cut).trim();
    return [...list.slice(0, runStart), ...(head ? [head] : []), s.node, ...(tail ? [tail] : []), ...list.slice(at)];
  }

  function isText(x: number | string | NewNode, old: (AriaNode | string)[]): boolean {
    return typeof x === 'string' || (typeof x === 'number' && typeof old[x] === 'string');
  }
  function textOf(x: number | string | NewNode, old: (AriaNode | string)[]): string {
    return typeof x === 'string' ? x : typeof x === 'number' ? (old[x] as string) : '';
  }
  function elementBefore(list: (number | string | NewNode)[], i: number, old: (AriaNode | string)[]): Element | null {
    const item = list[i - 1];
    if (typeof item === 'number') { const o = old[item]; return typeof o === 'string' ? null : elementOf(o) ?? null; }
    if (typeof item === 'object') return snap!.info.get(item.ref)?.element ?? null;
    return null;
  }
}

/** Normalized text inside `scope` after `from` (or from its start) and before `el`. */
function precedingText(scope: Element, el: Element, from: Element | null): string {
  let text = '';
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (el.contains(t) || el.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING) break;
    if (from && (from.contains(t) || !(from.compareDocumentPosition(t) & Node.DOCUMENT_POSITION_FOLLOWING))) continue;
    text += t.nodeValue;
    if (text.length > 4000) break;
  }
  return norm(text);
}

export type { Inferred };
