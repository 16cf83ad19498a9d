import type { AriaNode, AriaRole } from '@ariadne/page';
import type { PlanStep } from '../plan.js';
import type { AskContext, CaseTools, FlowAction } from '../tools.js';
import type { PageWhich } from './rules-verbs.js';
import { bulkControl, controlForVerbObject, controlsOf, nounControlFor, pageControl, type Found } from './rules-verbs-tree.js';

// How the rules planner carries out the purpose wordings of rules-verbs.ts: each reads the
// page's snapshot, finds one control (rules-verbs-tree.ts) and clicks it by ref, or fails
// saying what it understood and why no control fits. Never a click on a near match.

type Act = (body: FlowAction, a?: AskContext) => Promise<boolean>;

async function clickFound(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, r: Found, part: string): Promise<boolean> {
  if (!r.ok) {
    await tools.fail(step.role, ask, { code: r.code, message: `Step ${step.index} ("${step.text}"): ${r.message}` }, 'click');
    return false;
  }
  return act({ action: 'click', ref: r.ref }, { ...ask, part: ask.part ?? `${part}: ${r.why}` });
}

/** "Copy invite link": the copy control by "Invite link" (or one named "Copy invite link"). */
export async function runVerbObject(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, verb: string, object: string): Promise<boolean> {
  const snap = await tools.snapshot(step.role);
  return clickFound(tools, step, ask, act, controlForVerbObject(snap.tree, verb, object), `${verb} "${object}"`);
}

/**
 * A row action whose row text is not on the page as written ("Download the March invoice"): the
 * verb's control nearest the words, when exactly one fits; not found when none does (the caller
 * then reports its own miss). With `unlessShown`, not found either when the page shows that text
 * as a whole text of its own (a card's title, a row's cell): that row holds the control or
 * nothing does, and a control near it (its list's menu) is never it.
 */
export async function verbObjectRef(tools: CaseTools, role: string, verb: string, object: string, nameOnly = false, unlessShown?: string): Promise<Found> {
  const snap = await tools.snapshot(role);
  if (unlessShown && showsText(snap.tree, unlessShown)) return { ok: false, code: 'target_not_found', message: `"${unlessShown}" is shown on the page, and no control of its own is named "${verb}"` };
  // "Walk the dog" where the page shows "Walk the dog later": another item, whose name begins
  // with the words; never its control.
  // (A name of two words or more: one word is a topic, "the note about hiring" for "Hiring plan".)
  const longer = unlessShown && unlessShown.trim().split(/\s+/).length >= 2 ? extendedText(snap.tree, unlessShown) : null;
  if (longer) return { ok: false, code: 'target_not_found', message: `the page does not show "${unlessShown}"; it shows "${longer}", a longer name, which is another item` };
  return controlForVerbObject(snap.tree, verb, object, nameOnly);
}

const TEXT_ROLES = new Set(['heading', 'cell', 'gridcell', 'paragraph', 'generic', 'listitem', 'article']);

/** Does the tree show this text as a whole text of its own (a card's title, a row's cell)? */
function showsText(tree: AriaNode[], text: string): boolean {
  const norm = (s: unknown) => (typeof s === 'string' ? s.replace(/\s+/g, ' ').trim().toLowerCase() : '');
  const want = norm(text);
  if (!want) return false;
  const walk = (nodes: AriaNode[]): boolean => nodes.some((n) => (typeof n === 'string' ? norm(n) === want : norm(n.text) === want || (TEXT_ROLES.has(n.role) && norm(n.name) === want) || walk(n.children ?? [])));
  return walk(tree);
}

/** A text the tree shows that begins with these words and goes on ("Walk the dog later" for "Walk the dog"). */
function extendedText(tree: AriaNode[], text: string): string | null {
  const norm = (s: unknown) => (typeof s === 'string' ? s.replace(/\s+/g, ' ').trim() : '');
  const want = norm(text).toLowerCase();
  if (!want) return null;
  let found: string | null = null;
  const see = (t: unknown) => {
    const n = norm(t);
    const l = n.toLowerCase();
    if (!found && l.length > want.length && l.startsWith(want) && /^[\s(\-–—:,]/.test(l.slice(want.length))) found = n;
  };
  const walk = (nodes: AriaNode[]): void => {
    for (const n of nodes) {
      if (typeof n === 'string') see(n);
      else {
        see(n.text);
        if (TEXT_ROLES.has(n.role)) see(n.name);
        walk(n.children ?? []);
      }
    }
  };
  walk(tree);
  return found;
}

/** "Next page", "page 3": the pager's control. */
export async function runPaginate(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, which: PageWhich): Promise<boolean> {
  const snap = await tools.snapshot(step.role);
  return clickFound(tools, step, ask, act, pageControl(snap.tree, which), typeof which === 'number' ? `go to page ${which}` : `go to the ${which} page`);
}

/** "Delete them" after ticking rows: the bulk control with that purpose. */
export async function runBulk(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, verb: string): Promise<boolean> {
  const snap = await tools.snapshot(step.role);
  return clickFound(tools, step, ask, act, bulkControl(snap.tree, verb), `${verb} the ticked rows`);
}

/**
 * "Send Grace Okafor a password reset": the control named "Reset password" / "Send password
 * reset" in Grace Okafor's row; else in the row's own ⋯ menu, opened for it (only the controls
 * the menu brought count).
 */
export async function runSendFor(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, noun: string, who: string): Promise<boolean> {
  const role = step.role;
  const before = await tools.snapshot(role);
  const inRow = nounControlFor(before.tree, noun, who);
  if (inRow.ok || inRow.code === 'ambiguous_target') return clickFound(tools, step, ask, act, inRow, `"${noun}" for ${who}`);
  // The row's own menu (rules.ts reads "Open X's row menu" the same way).
  const specs = [{ phrase: 'more actions', role: null, scope: who }, { phrase: '⋯ menu', role: null, scope: who }, ...['Actions', 'Options', 'More', 'Menu'].map((phrase) => ({ phrase, role: 'button' as AriaRole, scope: who, strict: true }))];
  const menu = await tools.find(role, specs, 'click', 0);
  if (!('ref' in menu)) {
    await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): ${inRow.message.replace(/; nothing was clicked\.$/, '')}, and the row has no menu to look in; nothing was clicked.` }, 'click');
    return false;
  }
  const had = new Set(controlsOf(before.tree).map((c) => c.ref));
  if (!(await act({ action: 'click', ref: menu.ref }, { ...ask, part: `open the row menu of "${who}"` }))) return false;
  const after = await tools.snapshot(role);
  const fresh = new Set(controlsOf(after.tree).map((c) => c.ref).filter((r) => !had.has(r)));
  return clickFound(tools, step, { ...ask, startedAt: Date.now() }, act, nounControlFor(after.tree, noun, who, fresh), `"${noun}" for ${who}`);
}
