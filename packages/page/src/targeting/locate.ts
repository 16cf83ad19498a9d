import type { Locator, Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import { indexRefs, type AriaNode } from '../snapshot/tree.js';
import { derivedReadings, describeSpec, groupOptionReadings, isStructured, type TargetAction, type DescribedTarget } from './spec.js';
import { waitForDomChange } from '../settle.js';
import { flattenTree, landmarkRoles, titledBy, matchOnTree, nearestCandidates, newItemField, roleFits, wordingsForRefs, type Flat, type TreeMatch } from './tree-match.js';
import { inDialog, probeKinds } from './probe.js';
import { fitFor, fitOrListener } from './fit.js';
import { focusedRival, rivalAmbiguity } from './focus-rival.js';
import { openBlind, openRowMenu, openTowards } from './disclose.js';
import { byPlace, placeIn } from './place.js';

/** Search behind disclosure: at most this many openings, within this long, per look-up. */
const MAX_OPENINGS = 12;
const DISCLOSE_MS = 5000;
const DISCLOSE_ACTIONS = new Set<TargetAction>(['click', 'check', 'uncheck', 'fill', 'type', 'select', 'hover', 'clear', 'focus', 'press', 'any']);

// The pipeline, one way, a file per stage:
//   parse       spec.ts (words → DescribedTarget), phrases.ts (the ladder's phrases)
//   candidates  tree-match.ts (the snapshot tree, flattened), probe.ts (facts the tree lacks:
//               field kinds, dialogs without ARIA), disclose.ts (content behind tabs, sections,
//               tree nodes, menus, opened one at a time)
//   rank        tree-match.ts (name tiers, scopes, ordinals), place.ts (unread pictures by where they sit)
//   prove       fit.ts (the element can take the action), prove.ts (every naming word is on it)
//   act         this file (the loop over passes and rungs), resolve.ts (the REST entry)
// The one target resolver (describe → parse → candidates → rank → prove → act): the REST
// `description`, the rules planner and the model planners' description fallback all come
// here with a parsed DescribedTarget and the action they will take. Stages, strongest first:
//  1. the snapshot tree by role + name, when the words name a kind (or a scope, landmark,
//     ordinal: those only the tree can answer);
//  2. Playwright's label and placeholder rungs (a placeholder the accessible name hides);
//  3. the tree by what the action can act on (any clickable / editable / checkable);
//  4. the text rung — only for an element that can take the action (a click handler,
//     a pointer cursor, inside a control), never plain prose.
// Every rung proves its element can take the action; a weaker rung never wins over an
// ambiguity. A miss answers when waitMs is over, with the nearest candidates.

export interface Located {
  locator: Locator;
  ref?: string;
  resolvedBy: string;
  code?: string;
  role?: string;
  name?: string;
  /** Why this element: the rung and what matched. */
  why: string;
  /** The target is the first box of a group (split one-time-code input): type, key by key. */
  group?: boolean;
  /** Static text taken as a click target (quoted, nothing interactive carries the words). */
  static?: boolean;
  /** An unread picture picked by its place (place.ts): its picture words cannot be on it. */
  placed?: boolean;
  /** Found by another reading of the words (spec.ts derivedReadings), which may leave a glyph out ("'+ Add a card'"). */
  derived?: boolean;
  /** Words a scope stood for that the page need not show (a notice bar, a neighbour picture): the prove stage takes them as shown. */
  accounted?: string[];
}

export interface LocateOptions {
  /**
   * The description as written, when the parse took words off it (a leading verb such as
   * "Hover" in a button named "Hover me"): an element whose whole name is exactly this wins first.
   */
  wholeName?: string;
  action: TargetAction;
  /** How long to keep looking while the page settles. */
  waitMs: number;
  /** The words as given, for messages. */
  description: string;
  /**
   * Prove a plain role + name `code` for tree hits (one more round trip; default true).
   * The flows pass false: they prove a locator from the ref themselves.
   */
  code?: boolean;
}

function q(s: string): string {
  return JSON.stringify(s).replace(/^"|"$/g, "'").replace(/\\"/g, '"');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Rung = 'label' | 'placeholder' | 'title' | 'text';

function rungLocator(page: Page, kind: Rung, phrase: string, exact: boolean): { locator: Locator; code: string } {
  const re = new RegExp(`^\\s*${escapeRegExp(phrase)}\\s*$`, 'i');
  const arg = exact ? re.toString() : q(phrase);
  switch (kind) {
    case 'label': return { locator: page.getByLabel(exact ? re : phrase), code: `getByLabel(${arg})` };
    case 'placeholder': return { locator: page.getByPlaceholder(exact ? re : phrase), code: `getByPlaceholder(${arg})` };
    case 'text': return { locator: page.getByText(exact ? re : phrase), code: `getByText(${arg})` };
    // A glyph button (🗑) whose name is its glyph says what it does in its title.
    case 'title': return { locator: page.getByTitle(exact ? re : phrase), code: `getByTitle(${arg})` };
  }
}

interface LadderAmbiguity {
  rung: string;
  phrase: string;
  visible: Locator;
  count: number;
}

/** One locator rung: unique visible match that can take the action; an ambiguity stops the descent. */
async function tryRung(page: Page, kind: Rung, spec: DescribedTarget, action: TargetAction): Promise<Located | LadderAmbiguity | null> {
  // A derived or whole-words reading (strict) matches whole names only: "Share Invoice 7" is
  // never the title "Share Invoice 7 (void)".
  const exactOnly = spec.quoted || spec.strict || (kind === 'text' && action === 'click');
  const first = rungLocator(page, kind, spec.phrase, exactOnly);
  let visible = first.locator.filter({ visible: true });
  let count = await visible.count().catch(() => 0);
  let code = first.code;
  if (count > 1 && !exactOnly) {
    const exact = rungLocator(page, kind, spec.phrase, true);
    const v = exact.locator.filter({ visible: true });
    const n = await v.count().catch(() => 0);
    if (n === 1) ({ visible, count, code } = { visible: v, count: n, code: exact.code });
  }
  if (count === 0) return null;
  if (count > 1) {
    // Only the matches that can take the action count towards an ambiguity.
    const fits: number[] = [];
    for (let i = 0; i < Math.min(count, 10); i++) {
      const f = await fitOrListener(page, visible.nth(i), action, !!spec.quoted);
      if (f.ok && roleFits(spec.role, f.role)) fits.push(i);
    }
    if (fits.length === 0) return null;
    if (fits.length > 1) return { rung: kind, phrase: spec.phrase, visible, count: fits.length };
    const only = visible.nth(fits[0]);
    const fit = await fitOrListener(page, only, action, !!spec.quoted);
    return { locator: only, resolvedBy: `description:${kind}`, code: `${code}.nth(${fits[0]})`, ...(fit.role ? { role: fit.role } : {}), name: spec.phrase, why: `${kind} "${spec.phrase}" (${fit.note})` };
  }
  const fit = await fitOrListener(page, visible, action, !!spec.quoted);
  // The kind the words name must fit too: "the search button" never lands on the search field.
  if (!fit.ok || !roleFits(spec.role, fit.role)) return null;
  // Pinned to the one it proved: a popup the action opens (a listbox labelled the same) must
  // not turn the locator ambiguous mid-action.
  return { locator: visible.first(), resolvedBy: `description:${kind}`, code, ...(fit.role ? { role: fit.role } : {}), name: spec.phrase, why: `${kind} "${spec.phrase}"${fit.note ? ` (${fit.note})` : ''}` };
}

/**
 * The words as the markup spells them ("the new todo field" → .new-todo, #newTodo,
 * [name=new_todo], [data-testid=new-todo]): a fact the accessibility tree lacks. Only a
 * unique visible element that can take the action.
 */
async function attributeRung(page: Page, spec: DescribedTarget, action: TargetAction): Promise<Located | null> {
  const words = spec.phrase.toLowerCase().split(/[\s_-]+/).filter(Boolean);
  if (!words.length || words.length > 4) return null;
  const forms = new Set([words.join('-'), words.join('_'), words.join(''), words[0] + words.slice(1).map((w) => w[0].toUpperCase() + w.slice(1)).join('')]);
  const esc = (v: string) => v.replace(/["\\]/g, '\\$&');
  const sel = [...forms].flatMap((f) => [`[id="${esc(f)}" i]`, `[name="${esc(f)}" i]`, `[data-testid="${esc(f)}" i]`, `[data-test="${esc(f)}" i]`, `[class~="${esc(f)}" i]`]).join(', ');
  const visible = page.locator(sel).filter({ visible: true });
  const n = await visible.count().catch(() => 0);
  if (n !== 1) return null;
  const fit = await fitFor(visible, action, false);
  if (!fit.ok || !roleFits(spec.role, fit.role)) return null;
  const parts = sel.split(', ');
  const which = await visible.evaluate((el, list: string[]) => list.find((x) => el.matches(x)) ?? null, parts).catch(() => null);
  const unique = which ? (await page.locator(which).count().catch(() => 0)) === 1 : false;
  return { locator: visible, resolvedBy: 'description:attribute', ...(unique && which ? { code: `locator(${q(which)})` } : {}), why: `id/name/class/test id spelled "${[...forms][0]}"${fit.note ? ` (${fit.note})` : ''}` };
}

/**
 * The file input an upload names: by its label, aria-label/-labelledby, title, id or name, or
 * the text of the small container around it (a drop zone: "Browse… Cover letter"), hidden
 * inputs included; with no name, the page's only file input. Ties are no answer.
 */
async function uploadRung(page: Page, spec: DescribedTarget, description: string): Promise<Located | null> {
  const all = page.locator('input[type=file]');
  const phrase = spec.phrase.replace(/\s+/g, ' ').trim().toLowerCase();
  const scores = await all.evaluateAll((els: Element[], p: string) => {
    const norm = (t: string | null | undefined) => (t ?? '').replace(/\s+/g, ' ').trim().toLowerCase();
    const words = (t: string) => ` ${norm(t).replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
    const has = (t: string) => Boolean(p) && words(t).includes(` ${p.replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `);
    return els.map((el) => {
      const input = el as HTMLInputElement;
      const own = [...(input.labels ?? [])].map((l) => l.textContent ?? '');
      own.push(input.getAttribute('aria-label') ?? '', input.title ?? '', input.placeholder ?? '');
      for (const id of (input.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean)) own.push((input.getRootNode() as Document).getElementById?.(id)?.textContent ?? '');
      const spelled = [input.id, input.name, input.getAttribute('data-testid') ?? ''].map((x) => x.replace(/[-_]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2'));
      let container = '';
      let up: Element | null = input.parentElement;
      for (let i = 0; up && i < 3 && up !== document.body; i++, up = up.parentElement) {
        const t = norm(up.textContent);
        if (t.length > 160 || up.querySelectorAll('input[type=file]').length > 1) break;
        if (t) { container = t; break; }
      }
      if (!p) return 1;
      if (own.some((t) => norm(t) === p)) return 4;
      if (own.some(has)) return 3;
      if (spelled.some((t) => norm(t) === p) || has(container)) return 2;
      return 0;
    });
  }, phrase).catch(() => [] as number[]);
  if (!scores.length) return null;
  const best = Math.max(...scores);
  if (best <= 0) return null;
  const at = scores.flatMap((sc, i) => (sc === best ? [i] : []));
  if (at.length !== 1) return null;
  const i = at[0];
  const locator = scores.length === 1 ? all.first() : all.nth(i);
  const how = !phrase ? 'the only file input on the page' : best === 4 ? `the file input labelled "${spec.phrase}"` : best === 3 ? `the file input whose label mentions "${spec.phrase}"` : `the file input in the container that says "${spec.phrase}" (or spelled so in its id/name)`;
  void description;
  return { locator, resolvedBy: 'description:file-input', code: scores.length === 1 ? "locator('input[type=file]')" : `locator('input[type=file]').nth(${i})`, role: 'file input', ...(spec.phrase ? { name: spec.phrase } : {}), why: how };
}

async function treeLocated(state: PageState, m: Extract<TreeMatch, { kind: 'hit' }>, spec: DescribedTarget, withCode = true): Promise<Located> {
  const page = state.page;
  const locator = page.locator(`aria-ref=${m.ref}`);
  // A plain role + name locator when it is unique (the flows prove a better one from the ref).
  let code: string | undefined;
  if (withCode && m.name && !m.group && m.rung === 'role') {
    const byRole = page.getByRole(m.role as never, { name: m.name, exact: true }).filter({ visible: true });
    if ((await byRole.count().catch(() => 0)) === 1) code = `getByRole('${m.role}', { name: ${q(m.name)}, exact: true })`;
  }
  const rung = m.rung === 'role' ? `role:${m.role}` : m.rung;
  void spec;
  return { locator, ref: m.ref, resolvedBy: `description:${rung}`, ...(code ? { code } : {}), role: m.role, name: m.name, why: m.why, ...(m.group ? { group: true } : {}), ...(m.static ? { static: true } : {}), ...(m.accounted ? { accounted: m.accounted } : {}) };
}

/** Does the row show the scope as a whole text of its own (a cell, a name), not inside a longer one? */
function rowMentions(n: AriaNode, sc: string): boolean {
  const same = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.!?;,:]+$/, '') === sc.replace(/[.!?;,:]+$/, '');
  if (typeof n === 'string') return same(n);
  if (same(n.name ?? '') || (typeof n.text === 'string' && same(n.text))) return true;
  return (n.children ?? []).some((c) => rowMentions(c, sc));
}

/** A route's name without the glyphs around it ("Actions ▾", "Move to ▸" → actions, move to). */
function routeName(name: string): string {
  return name.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '').replace(/\s+/g, ' ').trim().toLowerCase();
}

const ROUTE_NOUN = /\s+(?:menu|section|tab|panel|accordion|group|submenu|drawer|dropdown|folder)$/i;

/**
 * A scope that names a closed control ("in the Shipping section", "in the Billing tab",
 * "Move to > Archive"): a tab not selected, something with aria-expanded=false or a popup,
 * a closed <details>. Clicked once; answers what was opened.
 */
async function revealRoute(page: Page, flat: ReturnType<typeof flattenTree>, specs: DescribedTarget[]): Promise<string | null> {
  const scopes = new Set<string>();
  for (const spec of specs) {
    for (const s of [spec, ...derivedReadings(spec)]) if (s.scope) scopes.add(s.scope.replace(ROUTE_NOUN, '').trim().toLowerCase());
  }
  if (!scopes.size) return null;
  // A closed list named by the scope ("the Viewer option under Role") is a route too: its options exist once it is open.
  const options = specs.some((x) => x.role === 'option');
  const routes = flat.filter((f) => (scopes.has(f.name.trim().toLowerCase()) || scopes.has(routeName(f.name))) && ['tab', 'button', 'menuitem', 'treeitem', 'generic', 'link', 'heading', ...(options ? ['combobox'] : [])].includes(f.node.role)).slice(0, 4);
  // Controls shown on hover only: hover the one row/item/card whose text shows the scope.
  for (const sc of scopes) {
    const items = flat.filter((f) => ['listitem', 'row', 'article'].includes(f.node.role) && f.name.toLowerCase() !== sc && rowMentions(f.node, sc));
    if (items.length !== 1) continue;
    const hovered = await page.locator(`aria-ref=${items[0].ref}`).hover({ timeout: 1500 }).then(() => true, () => false);
    if (hovered) {
      await page.waitForTimeout(150);
      return `hovering ${items[0].node.role} "${sc}"`;
    }
  }
  for (const r of routes) {
    const loc = page.locator(`aria-ref=${r.ref}`);
    const closed = await loc.evaluate((el, role) => {
      const t = (el.closest('summary') as HTMLElement | null) ?? el;
      if (t.tagName === 'SUMMARY') return !(t.parentElement as HTMLDetailsElement | null)?.open;
      // A drawn list (the surface pass named it a combobox) shows no state: closed unless it says open; a native <select> never opens in the page.
      if (role === 'combobox') return t.localName !== 'select' && t.getAttribute('aria-expanded') !== 'true';
      const ctl = (t.closest('[aria-expanded],[role=tab],[aria-haspopup]') as HTMLElement | null) ?? t;
      if (ctl.getAttribute('role') === 'tab') return ctl.getAttribute('aria-selected') !== 'true';
      return ctl.getAttribute('aria-expanded') === 'false' || (ctl.hasAttribute('aria-haspopup') && ctl.getAttribute('aria-expanded') !== 'true');
    }, r.node.role, { timeout: 1000 }).catch(() => false);
    if (!closed) continue;
    const ok = await loc.click({ timeout: 2000 }).then(() => true, () => false);
    if (!ok) continue;
    await page.waitForTimeout(200);
    return `opening ${r.node.role} "${r.name}"`;
  }
  // Rows without list semantics (plain <div>s), after any closed route the scope names: the
  // one container that shows the scope as a whole text and holds controls hidden until hovered.
  for (const sc of scopes) {
    const how = await hoverContainerShowing(page, sc);
    if (how) return how;
  }
  return null;
}

/** Which of these refs (the ones a hover or an opening brought into view) is the element, if any? */
async function newlyShown(page: Page, loc: Locator, refs: string[]): Promise<string | null> {
  if (!refs.length || refs.length > 200) return null;
  const el = await loc.elementHandle({ timeout: 1000 }).catch(() => null);
  if (!el) return null;
  const handles = await Promise.all(refs.map((r) => page.locator(`aria-ref=${r}`).elementHandle({ timeout: 1000 }).catch(() => null)));
  try {
    const i = await page.evaluate(([e, hs]) => hs.findIndex((h) => h === e), [el, handles] as const);
    return i >= 0 ? refs[i] : null;
  } catch {
    return null;
  } finally {
    await Promise.all([el, ...handles].map((h) => h?.dispose().catch(() => {})));
  }
}

/**
 * Hover the one container (up to six levels above an element whose whole text is the scope,
 * open shadow roots included) that holds a hidden button, link or titled control: a row whose
 * tools show on hover. Two such containers (near-duplicates) or none: nothing is hovered.
 */
async function hoverContainerShowing(page: Page, scope: string): Promise<string | null> {
  const handle = await page.evaluateHandle((sc: string) => {
    // Trailing punctuation aside ("Lunch?" as the row says it, "Lunch" as a description may).
    const norm = (t: string) => t.replace(/\s+/g, ' ').trim().toLowerCase().replace(/[.!?;,:]+$/, '');
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      const st = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none';
    };
    const all: Element[] = [];
    const walk = (root: Document | ShadowRoot) => {
      for (const el of root.querySelectorAll('*')) {
        all.push(el);
        if (el.shadowRoot) walk(el.shadowRoot);
      }
    };
    walk(document);
    const parentOf = (el: Element): Element | null => el.parentElement ?? ((el.getRootNode() as ShadowRoot).host ?? null);
    const found = new Set<Element>();
    for (const el of all) {
      if (norm(el.textContent ?? '') !== sc || !shown(el) || el.closest('button,[role=button]')) continue;
      // Only the innermost element with that text.
      if ([...el.children].some((c) => norm(c.textContent ?? '') === sc)) continue;
      let up: Element | null = parentOf(el);
      for (let i = 0; up && i < 6 && up !== document.body; i++, up = parentOf(up)) {
        // The first level that holds controls besides the text itself is the row: never a wider
        // one (a list whose other rows' tools are hidden would reveal another row's).
        const controls = [...up.querySelectorAll('button,a[href],[role=button],[role=menuitem]')].filter((c) => c !== el && !c.contains(el) && !el.contains(c));
        if (!controls.length) continue;
        const hidden = [...up.querySelectorAll('button,a[href],[role=button],[role=menuitem],[title],[aria-label]')].some((c) => !shown(c) && (c.matches('button,a[href],[role=button],[role=menuitem]') || c.closest('button,a[href],[role=button]')) );
        if (hidden) found.add(up);
        break;
      }
    }
    return found.size === 1 ? [...found][0] : null;
  }, scope.toLowerCase().replace(/\s+/g, ' ').trim().replace(/[.!?;,:]+$/, '')).catch(() => null);
  const el = handle?.asElement() ?? null;
  if (!el) {
    await handle?.dispose().catch(() => {});
    return null;
  }
  try {
    const ok = await el.hover({ timeout: 1500 }).then(() => true, () => false);
    if (!ok) return null;
    await page.waitForTimeout(150);
    return `hovering the container that shows "${scope}"`;
  } finally {
    await el.dispose().catch(() => {});
  }
}

/** How long a search waits, once, for a document that is still loading before it answers a miss. */
const LOAD_GRACE_MS = 5000;

async function stillLoading(page: Page): Promise<boolean> {
  return page.evaluate(() => document.readyState !== 'complete').catch(() => true);
}

async function takeTree(state: PageState): Promise<AriaNode[]> {
  const { current } = await state.snapshot(5000);
  return current.tree;
}

/**
 * Resolve one of several specs (tried in order each pass: "user", then "email" ...) for an
 * action. Throws ambiguous_target (candidates with the wording that picks each one) or,
 * once waitMs is over, target_not_found with the nearest candidates.
 */
export async function locate(state: PageState, specsIn: DescribedTarget[], opts: LocateOptions): Promise<Located> {
  let specs = specsIn;
  const page = state.page;
  const began = Date.now();
  const deadline = began + Math.max(0, opts.waitMs);
  let lastTree: AriaNode[] = [];
  const misses: string[] = [];
  let passMs = 0;
  let revealed = '';
  let reveals = 0;
  // Refs shown before the first route was opened, and the names of the routes opened.
  let shownBefore: Set<string> | null = null;
  const openedRoutes: string[] = [];
  const epochAtStart = state.navEpoch;
  let waitedForLoad = false;
  let deadlineAt = deadline;
  // What the disclosure search opened (one at a time), and whether the blind search is spent.
  const opened: string[] = [];
  let blindDone = false;
  let guidedDue = true;
  // The rows (by their scope text) whose own menu was opened.
  const rowMenus = new Set<string>();
  const withRoute = <T extends { why: string }>(x: T): T => {
    const bits = [revealed ? `revealed by ${revealed} first` : '', opened.length ? `found after opening ${opened.join(', then ')}` : ''].filter(Boolean);
    return bits.length ? { ...x, why: `${x.why}; ${bits.join('; ')}` } : x;
  };
  for (;;) {
    const passStart = Date.now();
    misses.length = 0;
    const tree = await takeTree(state);
    lastTree = tree;
    const flat = flattenTree(tree);
    // A field's kind is not in the tree: read it for the fields, only when the words name one.
    if (specs.some((x) => x.kind)) await probeKinds(page, flat);
    // Once something was opened to find it, only the exact target counts (never a near match).
    if (opened.length) specs = specs.map((x) => ({ ...x, strict: true }));
    if (opts.action === 'upload') {
      // Only a file input takes an upload (often hidden behind a styled "Browse" button): the
      // tree and the text rungs never stand in for one.
      for (const spec of specs) {
        const r = await uploadRung(page, spec, opts.description);
        if (r) return r;
      }
      misses.push(`no file input is associated with "${specs[0]?.phrase ?? ''}"`);
    } else if (specs.some((x) => x.whole)) {
      // "Link account" read as a link named "account": a control named by all the words wins first.
      for (const w of specs.flatMap((x) => (x.whole ? [x.whole] : []))) {
        const m = matchOnTree(flat, { phrase: w, role: null, strict: true }, opts.action);
        if (m.kind === 'hit') return withRoute(await treeLocated(state, { ...m, why: `${m.why} (all the words are its name)` }, { phrase: w, role: null, strict: true }, opts.code !== false));
      }
    }
    if (opts.action !== 'upload' && opts.wholeName) {
      const m = matchOnTree(flat, { phrase: opts.wholeName, role: null, strict: true }, opts.action);
      if (m.kind === 'hit') return withRoute(await treeLocated(state, { ...m, why: `${m.why} (the whole description is its name)` }, { phrase: opts.wholeName, role: null, strict: true }, opts.code !== false));
      // "Open help" on a focusable <div>: its exact text, when it can take the action.
      if (opts.action === 'click' && m.kind === 'none') {
        const r = await tryRung(page, 'text', { phrase: opts.wholeName, role: null, strict: true }, opts.action);
        if (r && 'why' in r) return withRoute({ ...r, why: `${r.why} (the whole description is its text)` });
      }
    }
    for (const spec of opts.action === 'upload' ? [] : specs) {
      const structured = isStructured(spec);
      if (spec.role || structured) {
        const m = matchOnTree(flat, spec, opts.action);
        if (m.kind === 'hit') {
          const rival = focusedRival(flat, m, spec, opts.action);
          if (rival) throw ambiguous(opts.description, spec, rivalAmbiguity(m, rival));
          return withRoute(await treeLocated(state, m, spec, opts.code !== false));
        }
        if (m.kind === 'ambiguous') return withRoute(await treeLocated(state, freshOrThrow(state, flat, m, spec, opts), spec, opts.code !== false));
        // A dialog without ARIA (a floating box with a title and a ×): the matches that sit in one.
        if (spec.landmark === 'dialog' || spec.landmark === 'menu') {
          const d = await inFloatingDialog(page, flat, spec, opts.action);
          if (d) return withRoute(await treeLocated(state, d, spec, opts.code !== false));
        }
        misses.push(m.why);
        if (structured) continue;
      }
      for (const kind of (['click', 'hover'].includes(opts.action) ? ['label', 'placeholder', 'title'] : ['label', 'placeholder']) as Rung[]) {
        const r = await tryRung(page, kind, spec, opts.action);
        if (r && 'why' in r) return withRoute(r);
        if (r) throw await ladderAmbiguity(state, opts.description, r, flat, spec, opts.action);
      }
      if (!spec.role) {
        const m = matchOnTree(flat, spec, opts.action);
        if (m.kind === 'hit') return withRoute(await treeLocated(state, m, spec, opts.code !== false));
        if (m.kind === 'ambiguous') return withRoute(await treeLocated(state, freshOrThrow(state, flat, m, spec, opts), spec, opts.code !== false));
        misses.push(m.why);
      }
      if (!spec.quoted && /^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u.test(spec.phrase)) {
        const r = await attributeRung(page, spec, opts.action);
        if (r) return withRoute(r);
      }
      if (['click', 'hover', 'assert', 'any', 'focus', 'scroll'].includes(opts.action)) {
        const r = await tryRung(page, 'text', spec, opts.action);
        if (r && 'why' in r) return withRoute(r);
        if (r) throw await ladderAmbiguity(state, opts.description, r, flat, spec, opts.action);
      }
    }
    // Nothing as written: other readings of the words, on the tree only (scoped, so a
    // reading that matches loosely still has to be unique in its container).
    for (const spec of opts.action === 'upload' ? [] : specs) {
      for (const alt of [...derivedReadings(spec), ...groupOptionReadings(spec)]) {
        const m = matchOnTree(flat, alt, opts.action);
        if (m.kind === 'hit') return withRoute({ ...(await treeLocated(state, { ...m, why: `${m.why} (read as ${JSON.stringify(alt.phrase)}${alt.scope ? ` near "${alt.scope}"` : ''})` }, alt, opts.code !== false)), derived: true });
      }
    }
    // "the archive icon at the bottom right of the 'X' card" on a page whose icons are drawn by
    // hand: the unread picture at that place in that container (place.ts), as the last reading.
    const place = ['click', 'hover'].includes(opts.action) ? placeIn(opts.description) : null;
    if (place) {
      for (const spec of [...specs, ...specs.flatMap((x) => derivedReadings(x))]) {
        const m = await byPlace(page, flat, spec, place, opts.action);
        if (m) return withRoute({ ...(await treeLocated(state, m, spec, false)), placed: true });
      }
    }
    // "the '-- Select --' list next to Department", "the Europe/London drop-down": a list named
    // by the value it shows, when nothing is named so.
    if (['select', 'click', 'any', 'focus'].includes(opts.action)) {
      for (const spec of specs) {
        if (!spec.phrase || spec.showing || (spec.role && !['combobox', 'listbox'].includes(spec.role))) continue;
        const m = matchOnTree(flat, { ...spec, phrase: '', quoted: false, showing: spec.phrase, role: 'combobox' }, opts.action);
        if (m.kind === 'hit') return withRoute(await treeLocated(state, { ...m, why: `${m.why} (the list that shows "${spec.phrase}")` }, spec, opts.code !== false));
      }
    }
    if (['fill', 'type', 'press', 'any', 'focus', 'click'].includes(opts.action)) {
      for (const spec of specs) {
        const m = newItemField(flat, spec);
        if (m.kind === 'hit') return withRoute(await treeLocated(state, m, spec, opts.code !== false));
      }
    }
    // Once the route a scope named was opened ("Save in the Settings tab", "Export in the File
    // menu"), the route was the scope: the target without it, but only an element that the
    // opening brought into view (not shown before), so a look-alike elsewhere never counts.
    if (shownBefore && opts.action !== 'upload') {
      for (const spec of [...specs, ...specs.flatMap((x) => derivedReadings(x))]) {
        if (!spec.scope || !spec.phrase) continue;
        const sc = spec.scope.replace(ROUTE_NOUN, '').trim().toLowerCase();
        if (!openedRoutes.some((r) => r === sc || routeName(r) === routeName(sc))) continue;
        let m = matchOnTree(flat, { ...spec, scope: undefined }, opts.action);
        // A drawn list's choices are often plain clickable boxes, not options: by their exact name.
        if (m.kind === 'none' && spec.role === 'option') m = matchOnTree(flat, { ...spec, scope: undefined, role: null, strict: true }, opts.action, { wordings: true, only: (f) => !shownBefore!.has(f.ref) });
        if (m.kind === 'hit' && !shownBefore.has(m.ref)) return withRoute(await treeLocated(state, { ...m, why: `${m.why}, shown once "${spec.scope}" was opened` }, spec));
        if (m.kind === 'none' && ['click', 'hover'].includes(opts.action)) {
          // A glyph button named by its title, shown by the hover or the opening.
          const r = await tryRung(page, 'title', { ...spec, scope: undefined }, opts.action);
          const ref = r && 'why' in r ? await newlyShown(page, r.locator, flat.filter((f) => !shownBefore!.has(f.ref)).map((f) => f.ref)) : null;
          // Pinned to that element by its ref: a look-alike in another row never stands in for it.
          if (r && 'why' in r && ref) return withRoute({ ...r, locator: page.locator(`aria-ref=${ref}`), ref, why: `${r.why}, shown once "${spec.scope}" was opened` });
        }
      }
    }
    // The step named the route to a target that is not shown yet (a collapsed section, a
    // tab, a menu): open it once, then look again.
    if (reveals < 2) {
      const before = new Set(flat.map((f) => f.ref));
      const how = await revealRoute(page, flat, specs);
      if (how) {
        shownBefore ??= before;
        const name = /"([^"]+)"$/.exec(how)?.[1];
        if (name) openedRoutes.push(name.trim().toLowerCase());
        revealed = revealed ? `${revealed}, then ${how}` : how;
        reveals++;
        continue;
      }
    }
    // Search behind disclosure: the exact words are in the document but hidden (a tab, a
    // section, a tree node, a More menu): open one level towards them and look again.
    // Once per page state: on the first pass and after each opening (a page-wide read).
    if (guidedDue && DISCLOSE_ACTIONS.has(opts.action) && opened.length < MAX_OPENINGS && Date.now() - began < DISCLOSE_MS) {
      guidedDue = false;
      const words = specs.flatMap((x) => (x.phrase && !x.scope && !x.landmark && !x.offers ? [x.phrase] : x.whole ? [x.whole] : []));
      const o = words.length ? await openTowards(page, words, opened.map(openedName)) : null;
      if (o) {
        opened.push(o.label);
        guidedDue = true;
        deadlineAt = Math.max(deadlineAt, Math.min(began + DISCLOSE_MS, Date.now() + 1500));
        continue;
      }
      // A control only inside a row's own ⋯ / More menu ("Archive Chris's row", "Rename
      // report.pdf from its ⋯ menu"): open that row's menu, once, and only that row's.
      for (const x of specs) {
        if (!x.phrase || !x.scope || x.landmark || x.offers || x.ordinal || rowMenus.has(x.scope.toLowerCase())) continue;
        rowMenus.add(x.scope.toLowerCase());
        const before = new Set(flat.map((f) => f.ref));
        const r = await openRowMenu(page, specs.filter((y) => y.scope === x.scope && y.phrase).map((y) => y.phrase), x.scope, []);
        if (r) {
          opened.push(r.label);
          shownBefore ??= before;
          openedRoutes.push(x.scope.trim().toLowerCase());
          guidedDue = true;
          deadlineAt = Math.max(deadlineAt, Math.min(began + DISCLOSE_MS, Date.now() + 1500));
          break;
        }
      }
      if (guidedDue) continue;
    }
    // The longest pass so far, not the last: on a loaded machine one pass can take several
    // times another, and a miss that answers late is as wrong as one that answers early.
    passMs = Math.max(passMs, Date.now() - passStart);
    // Out of time with the words nowhere in the document: content a closed tab or a collapsed
    // control renders only once opened. Open those one at a time (bounded) before the miss.
    if (Date.now() + 150 + passMs >= deadlineAt && !blindDone && DISCLOSE_ACTIONS.has(opts.action) && opened.length < MAX_OPENINGS && specs.some((x) => x.phrase)) {
      const o = await openBlind(page, opened.map(openedName));
      if (o) {
        opened.push(o.label);
        guidedDue = true;
        deadlineAt = Math.max(deadlineAt, Math.min(began + DISCLOSE_MS, Date.now() + 1000));
        continue;
      }
      blindDone = true;
    }
    // Do not start a pass that cannot end before the deadline: a miss answers on time.
    if (Date.now() + 150 + passMs >= deadlineAt) {
      // Unless the page is between documents (the previous step started a navigation that
      // landed during the search, or the new document is still loading): that is not a
      // miss yet. Wait for its load once, bounded, and look again.
      if (!waitedForLoad && (state.navEpoch !== epochAtStart || (await stillLoading(page)))) {
        waitedForLoad = true;
        await page.waitForLoadState('load', { timeout: LOAD_GRACE_MS }).catch(() => {});
        continue;
      }
      break;
    }
    // Look again as soon as the page changes (within 30–150 ms), not after a fixed pause.
    await waitForDomChange(page, 30, 150);
  }
  const spec = specs[0];
  const waitedMs = Date.now() - began;
  const understood = describeSpec(spec);
  throw new AppError('target_not_found', `No element that can take a ${opts.action} matches "${opts.description}"${understood ? ` (understood: ${understood}${spec.kind ? `, a ${spec.kind} field` : ''}${spec.icon ? ', an icon' : ''})` : ''}${misses[0] ? `: ${misses[0]}` : ''}${opened.length ? `; opened ${opened.join(', ')} looking for it` : ''}; looked for ${waitedMs} ms.`, {
    description: opts.description,
    understood: spec,
    action: opts.action,
    // The look-up budget and what it used: a miss answers when the budget is over, never later.
    waitBudgetMs: Math.max(0, opts.waitMs),
    waitedMs,
    nearest: nearestCandidates(lastTree, spec, opts.action),
    ...(opened.length ? { opened } : {}),
    currentUrl: page.url(),
    hint: 'Take a fresh snapshot and act on a ref from it, or name the element as the nearest candidates show it.',
  });
}

/**
 * Two fields fit the words, and one of them appeared since the previous action acted on the page
 * ("Click Edit in the Hotel row", then "Amount: 289.00" beside the new-line row's Amount): the
 * one that action brought into view is the one meant. Fields only, and only one new; else the
 * ambiguity stands.
 */
function freshOrThrow(state: PageState, flat: Flat[], m: Extract<TreeMatch, { kind: 'ambiguous' }>, spec: DescribedTarget, opts: LocateOptions): Extract<TreeMatch, { kind: 'hit' }> {
  const shown = state.shownAtLastAction;
  if (shown && shown.epoch === state.navEpoch && ['fill', 'type', 'select', 'clear'].includes(opts.action) && m.candidates.length === m.count) {
    const before = indexRefs(shown.tree);
    const fresh = m.candidates.filter((c) => c.ref && !before.has(c.ref));
    const f = fresh.length === 1 ? flat.find((x) => x.ref === fresh[0].ref) : undefined;
    if (f) return { kind: 'hit', ref: f.ref, node: f.node, role: f.node.role, name: f.name || f.adjacent, rung: 'fresh', why: `${f.node.role} "${f.name || f.adjacent}", of ${m.count} that fit: the one the previous step brought into view` };
  }
  throw ambiguous(opts.description, spec, m);
}

function ambiguous(description: string, spec: DescribedTarget, m: Extract<TreeMatch, { kind: 'ambiguous' }>): AppError {
  return new AppError('ambiguous_target', `"${description}" matches ${m.count} elements (${m.why}); say which one, e.g. ${m.candidates.filter((c) => c.wording).slice(0, 2).map((c) => `"${c.wording}"`).join(' or ') || 'by ref'}.`, {
    description,
    phrase: spec.phrase,
    rung: 'tree',
    matchCount: m.count,
    candidates: m.candidates.map((c) => ({ ...c, text: c.name ?? '' })),
    hint: 'Use one of the candidate refs, or the wording shown for the candidate you mean.',
  });
}

async function ladderAmbiguity(state: PageState, description: string, hit: LadderAmbiguity, flat: ReturnType<typeof flattenTree>, spec: DescribedTarget, action: TargetAction): Promise<AppError> {
  const { describeCandidates } = await import('./resolve.js');
  const shown = Math.min(hit.count, 10);
  const cands = await describeCandidates(state, Array.from({ length: shown }, (_, i) => hit.visible.nth(i)), hit.phrase);
  // The words that pick each one (its container, or its position), checked on the tree.
  const words = wordingsForRefs(flat, cands.map((c) => c.ref), spec, action);
  const withWords = cands.map((c, i) => (words[i] ? { ...c, wording: words[i] } : c));
  const examples = withWords.flatMap((c) => ('wording' in c && c.wording ? [`"${c.wording}"`] : [])).slice(0, 2);
  return new AppError('ambiguous_target', `"${description}" matches ${hit.count} visible elements (${hit.rung}: ${hit.phrase}); say which one${examples.length ? `, e.g. ${examples.join(' or ')}` : ' by ref'}.`, {
    description,
    phrase: hit.phrase,
    rung: hit.rung,
    matchCount: hit.count,
    candidates: withWords,
    hint: 'Use one of the candidate refs, or a more specific description.',
  });
}

/** The name inside an opening's label (`tab "Downloads"` → Downloads). */
function openedName(label: string): string {
  return /"([^"]*)"/.exec(label)?.[1] ?? label;
}

/**
 * "the close button of the dialog" where the dialog has no ARIA: the matches without the
 * landmark, kept when they sit in a floating box (probe.ts inDialog). One left is the answer.
 */
async function inFloatingDialog(page: Page, flat: Flat[], spec: DescribedTarget, action: TargetAction): Promise<Extract<TreeMatch, { kind: 'hit' }> | null> {
  const menu = spec.landmark === 'menu';
  if (flat.some((f) => landmarkRoles(menu ? 'menu' : 'dialog').includes(f.node.role))) return null;
  let loose = matchOnTree(flat, { ...spec, landmark: undefined }, action, { wordings: false });
  // "the Email address field in the invite dialog": the title words name the box loosely
  // ("Invite a teammate"); without them, then only matches in a box whose heading holds them.
  const title = loose.kind === 'none' && spec.scope ? spec.scope : null;
  if (title) loose = matchOnTree(flat, { ...spec, landmark: undefined, scope: undefined }, action, { wordings: false });
  let refs = loose.kind === 'hit' ? [loose.ref] : loose.kind === 'ambiguous' ? loose.candidates.map((c) => c.ref) : [];
  if (title) refs = refs.filter((ref) => flat.find((x) => x.ref === ref)?.ancestors.slice(1).some((a) => titledBy(a, title)));
  if (!refs.length) return null;
  const inside = await inDialog(page, refs, menu ? 'menu' : 'dialog');
  const keep = refs.filter((_, i) => inside[i]);
  if (keep.length !== 1) return null;
  const f = flat.find((x) => x.ref === keep[0]);
  if (!f) return null;
  return { kind: 'hit', ref: f.ref, node: f.node, role: f.node.role, name: f.name || f.adjacent, rung: 'landmark', why: `${f.node.role} "${f.name || f.adjacent}" in a ${menu ? 'menu' : 'dialog'} (a floating box without ARIA)` };
}
