import type { Locator, Page } from 'playwright-core';
import { AppError } from '@ariadne/schema';
import type { PageState } from '../page-state.js';
import type { AriaNode } from '../snapshot/tree.js';
import { derivedReadings, isStructured, type TargetAction, type DescribedTarget } from './spec.js';
import { flattenTree, matchOnTree, nearestCandidates, type TreeMatch } from './tree-match.js';

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
}

function q(s: string): string {
  return JSON.stringify(s).replace(/^"|"$/g, "'").replace(/\\"/g, '"');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Can this element take the action? Checked in the page on the one element a locator rung found. */
async function fitFor(loc: Locator, action: TargetAction, quoted: boolean): Promise<{ ok: boolean; note: string; role?: string }> {
  const fit = await fitCheck(loc, action, quoted);
  const role = await loc.evaluate((el: Element) => {
    const explicit = el.getAttribute('role');
    if (explicit) return explicit.split(/\s+/)[0];
    const tag = el.tagName.toLowerCase();
    const type = (el.getAttribute('type') ?? 'text').toLowerCase();
    if (tag === 'a') return el.hasAttribute('href') ? 'link' : 'generic';
    if (tag === 'input') return ({ checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button', reset: 'button', range: 'slider', number: 'spinbutton', search: 'searchbox' } as Record<string, string>)[type] ?? 'textbox';
    return ({ button: 'button', select: 'combobox', textarea: 'textbox', p: 'paragraph', li: 'listitem', label: 'label', summary: 'button', h1: 'heading', h2: 'heading', h3: 'heading', h4: 'heading', img: 'img' } as Record<string, string>)[tag] ?? 'generic';
  }, undefined, { timeout: 1000 }).catch(() => undefined);
  return { ...fit, ...(role ? { role } : {}) };
}

async function fitCheck(loc: Locator, action: TargetAction, quoted: boolean): Promise<{ ok: boolean; note: string }> {
  return loc.evaluate((el: Element, a: { action: string; quoted: boolean }) => {
    const e = el as HTMLElement;
    const tag = e.tagName.toLowerCase();
    const role = e.getAttribute('role') ?? '';
    const type = (e.getAttribute('type') ?? '').toLowerCase();
    const editable = (tag === 'input' && !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image', 'hidden', 'range', 'color'].includes(type)) || tag === 'textarea' || e.isContentEditable || ['textbox', 'searchbox', 'combobox', 'spinbutton'].includes(role);
    const checkable = (tag === 'input' && (type === 'checkbox' || type === 'radio')) || ['checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio'].includes(role);
    const labelControl = tag === 'label' ? (e as HTMLLabelElement).control : null;
    switch (a.action) {
      case 'fill': case 'type': case 'clear':
        return { ok: editable, note: editable ? 'editable' : `a <${tag}> is not editable` };
      case 'check': case 'uncheck': {
        const ok = checkable || Boolean(labelControl && ((labelControl as HTMLInputElement).type === 'checkbox' || (labelControl as HTMLInputElement).type === 'radio'));
        return { ok, note: ok ? 'checkable' : `a <${tag}> is not a checkbox, radio or switch` };
      }
      case 'select': {
        const ok = tag === 'select' || ['listbox', 'combobox'].includes(role);
        return { ok, note: ok ? 'selectable' : `a <${tag}> is not a list or dropdown` };
      }
      case 'click': {
        const control = e.closest('a[href],button,input,select,textarea,summary,label,option,[role=button],[role=link],[role=tab],[role=menuitem],[role=option],[role=checkbox],[role=radio],[role=switch],[role=treeitem],[onclick],[tabindex]:not([tabindex="-1"])');
        if (control) return { ok: true, note: control === e ? 'interactive' : 'inside a control' };
        const handler = typeof (e as HTMLElement & { onclick?: unknown }).onclick === 'function';
        if (handler) return { ok: true, note: 'has a click handler' };
        if (getComputedStyle(e).cursor === 'pointer') return { ok: true, note: 'pointer cursor' };
        if (a.quoted) return { ok: true, note: 'static text, quoted verbatim' };
        return { ok: false, note: `static <${tag}> text (no click handler, no pointer cursor)` };
      }
      default:
        return { ok: true, note: '' };
    }
  }, { action, quoted }, { timeout: 2000 }).catch(() => ({ ok: false, note: 'element went away' }));
}

type Rung = 'label' | 'placeholder' | 'text';

function rungLocator(page: Page, kind: Rung, phrase: string, exact: boolean): { locator: Locator; code: string } {
  const re = new RegExp(`^\\s*${escapeRegExp(phrase)}\\s*$`, 'i');
  const arg = exact ? re.toString() : q(phrase);
  switch (kind) {
    case 'label': return { locator: page.getByLabel(exact ? re : phrase), code: `getByLabel(${arg})` };
    case 'placeholder': return { locator: page.getByPlaceholder(exact ? re : phrase), code: `getByPlaceholder(${arg})` };
    case 'text': return { locator: page.getByText(exact ? re : phrase), code: `getByText(${arg})` };
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
  const exactOnly = spec.quoted || (kind === 'text' && action === 'click');
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
    for (let i = 0; i < Math.min(count, 10); i++) if ((await fitFor(visible.nth(i), action, !!spec.quoted)).ok) fits.push(i);
    if (fits.length === 0) return null;
    if (fits.length > 1) return { rung: kind, phrase: spec.phrase, visible, count: fits.length };
    const only = visible.nth(fits[0]);
    const fit = await fitFor(only, action, !!spec.quoted);
    return { locator: only, resolvedBy: `description:${kind}`, code: `${code}.nth(${fits[0]})`, ...(fit.role ? { role: fit.role } : {}), name: spec.phrase, why: `${kind} "${spec.phrase}" (${fit.note})` };
  }
  const fit = await fitFor(visible, action, !!spec.quoted);
  if (!fit.ok) return null;
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
  if (!fit.ok) return null;
  const parts = sel.split(', ');
  const which = await visible.evaluate((el, list: string[]) => list.find((x) => el.matches(x)) ?? null, parts).catch(() => null);
  const unique = which ? (await page.locator(which).count().catch(() => 0)) === 1 : false;
  return { locator: visible, resolvedBy: 'description:attribute', ...(unique && which ? { code: `locator(${q(which)})` } : {}), why: `id/name/class/test id spelled "${[...forms][0]}"${fit.note ? ` (${fit.note})` : ''}` };
}

async function treeLocated(state: PageState, m: Extract<TreeMatch, { kind: 'hit' }>, spec: DescribedTarget): Promise<Located> {
  const page = state.page;
  const locator = page.locator(`aria-ref=${m.ref}`);
  // A plain role + name locator when it is unique (the flows prove a better one from the ref).
  let code: string | undefined;
  if (m.name && !m.group && m.rung === 'role') {
    const byRole = page.getByRole(m.role as never, { name: m.name, exact: true }).filter({ visible: true });
    if ((await byRole.count().catch(() => 0)) === 1) code = `getByRole('${m.role}', { name: ${q(m.name)}, exact: true })`;
  }
  const rung = m.rung === 'role' ? `role:${m.role}` : m.rung;
  void spec;
  return { locator, ref: m.ref, resolvedBy: `description:${rung}`, ...(code ? { code } : {}), role: m.role, name: m.name, why: m.why, ...(m.group ? { group: true } : {}) };
}

function rowMentions(n: AriaNode, sc: string): boolean {
  if (typeof n === 'string') return n.toLowerCase().includes(sc);
  if ((n.name ?? '').toLowerCase().includes(sc) || (typeof n.text === 'string' && n.text.toLowerCase().includes(sc))) return true;
  return (n.children ?? []).some((c) => rowMentions(c, sc));
}

const ROUTE_NOUN = /\s+(?:menu|section|tab|panel|accordion|group|submenu|drawer)$/i;

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
  const routes = flat.filter((f) => scopes.has(f.name.trim().toLowerCase()) && ['tab', 'button', 'menuitem', 'treeitem', 'generic', 'link', 'heading'].includes(f.node.role)).slice(0, 4);
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
    const closed = await loc.evaluate((el) => {
      const t = (el.closest('summary') as HTMLElement | null) ?? el;
      if (t.tagName === 'SUMMARY') return !(t.parentElement as HTMLDetailsElement | null)?.open;
      const ctl = (t.closest('[aria-expanded],[role=tab],[aria-haspopup]') as HTMLElement | null) ?? t;
      if (ctl.getAttribute('role') === 'tab') return ctl.getAttribute('aria-selected') !== 'true';
      return ctl.getAttribute('aria-expanded') === 'false' || (ctl.hasAttribute('aria-haspopup') && ctl.getAttribute('aria-expanded') !== 'true');
    }, undefined, { timeout: 1000 }).catch(() => false);
    if (!closed) continue;
    const ok = await loc.click({ timeout: 2000 }).then(() => true, () => false);
    if (!ok) continue;
    await page.waitForTimeout(200);
    return `opening ${r.node.role} "${r.name}"`;
  }
  return null;
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
export async function locate(state: PageState, specs: DescribedTarget[], opts: LocateOptions): Promise<Located> {
  const page = state.page;
  const deadline = Date.now() + Math.max(0, opts.waitMs);
  let lastTree: AriaNode[] = [];
  const misses: string[] = [];
  let passMs = 0;
  let revealed = '';
  let reveals = 0;
  const withRoute = <T extends { why: string }>(x: T): T => (revealed ? { ...x, why: `${x.why}; revealed by ${revealed} first` } : x);
  for (;;) {
    const passStart = Date.now();
    misses.length = 0;
    const tree = await takeTree(state);
    lastTree = tree;
    const flat = flattenTree(tree);
    if (opts.wholeName) {
      const m = matchOnTree(flat, { phrase: opts.wholeName, role: null, strict: true }, opts.action);
      if (m.kind === 'hit') return withRoute(await treeLocated(state, { ...m, why: `${m.why} (the whole description is its name)` }, { phrase: opts.wholeName, role: null, strict: true }));
    }
    for (const spec of specs) {
      const structured = isStructured(spec);
      if (spec.role || structured) {
        const m = matchOnTree(flat, spec, opts.action);
        if (m.kind === 'hit') return withRoute(await treeLocated(state, m, spec));
        if (m.kind === 'ambiguous') throw ambiguous(opts.description, spec, m);
        misses.push(m.why);
        if (structured) continue;
      }
      for (const kind of ['label', 'placeholder'] as Rung[]) {
        const r = await tryRung(page, kind, spec, opts.action);
        if (r && 'why' in r) return withRoute(r);
        if (r) throw await ladderAmbiguity(state, opts.description, r);
      }
      if (!spec.role) {
        const m = matchOnTree(flat, spec, opts.action);
        if (m.kind === 'hit') return withRoute(await treeLocated(state, m, spec));
        if (m.kind === 'ambiguous') throw ambiguous(opts.description, spec, m);
        misses.push(m.why);
      }
      if (!spec.quoted && /^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u.test(spec.phrase)) {
        const r = await attributeRung(page, spec, opts.action);
        if (r) return withRoute(r);
      }
      if (['click', 'hover', 'assert', 'any', 'focus', 'scroll'].includes(opts.action)) {
        const r = await tryRung(page, 'text', spec, opts.action);
        if (r && 'why' in r) return withRoute(r);
        if (r) throw await ladderAmbiguity(state, opts.description, r);
      }
    }
    // Nothing as written: other readings of the words, on the tree only (scoped, so a
    // reading that matches loosely still has to be unique in its container).
    for (const spec of specs) {
      for (const alt of derivedReadings(spec)) {
        const m = matchOnTree(flat, alt, opts.action);
        if (m.kind === 'hit') return withRoute(await treeLocated(state, { ...m, why: `${m.why} (read as ${JSON.stringify(alt.phrase)}${alt.scope ? ` near "${alt.scope}"` : ''})` }, alt));
      }
    }
    // The step named the route to a target that is not shown yet (a collapsed section, a
    // tab, a menu): open it once, then look again.
    if (reveals < 2) {
      const how = await revealRoute(page, flat, specs);
      if (how) {
        revealed = revealed ? `${revealed}, then ${how}` : how;
        reveals++;
        continue;
      }
    }
    passMs = Date.now() - passStart;
    // Do not start a pass that cannot end before the deadline: a miss answers on time.
    if (Date.now() + 150 + passMs >= deadline) break;
    await page.waitForTimeout(150);
  }
  const spec = specs[0];
  throw new AppError('target_not_found', `No element that can take a ${opts.action} matches "${opts.description}"${misses[0] ? ` (${misses[0]})` : ''}.`, {
    description: opts.description,
    understood: spec,
    action: opts.action,
    nearest: nearestCandidates(lastTree, spec, opts.action),
    currentUrl: page.url(),
    hint: 'Take a fresh snapshot and act on a ref from it, or name the element as the nearest candidates show it.',
  });
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

async function ladderAmbiguity(state: PageState, description: string, hit: LadderAmbiguity): Promise<AppError> {
  const { describeCandidates } = await import('./resolve.js');
  const shown = Math.min(hit.count, 10);
  return new AppError('ambiguous_target', `"${description}" matches ${hit.count} visible elements (${hit.rung}: ${hit.phrase}); pick one by ref.`, {
    description,
    phrase: hit.phrase,
    rung: hit.rung,
    matchCount: hit.count,
    candidates: await describeCandidates(state, Array.from({ length: shown }, (_, i) => hit.visible.nth(i)), hit.phrase),
    hint: 'Use one of the candidate refs, or a more specific description.',
  });
}
