import { refsForLocators, type AriaRole, type DescribedTarget } from '@ariadne/page';
import type { PlanStep } from '../plan.js';
import { FIND_WAIT_MS, type AskContext, type CaseTools, type FlowAction } from '../tools.js';
import { booleanValue, DISMISS_NAME } from './rules-wording.js';
import { controlBesideText } from './rules-positional.js';
import { fieldsNamed, nearestTo, valueAction } from './rules-edit.js';
import type { Side } from './rules-wording.js';

// How the rules planner carries out the wordings of rules-wording.ts: a labelled field set to
// a value whatever kind of control it is, text typed into the field that has the caret, the
// confirming button of the dialog an action opened, the control beside a text. Each finds
// exactly one element or fails saying why; none acts on a guess.

type Act = (body: FlowAction, a?: AskContext) => Promise<boolean>;

interface Hit { kind: 'radio' | 'select' | 'checkbox' | 'field'; spec: DescribedTarget; ref: string; name: string }

const norm = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase().replace(/[\s:*]+$/, '').replace(/\s*\([^)]*\)$/, '');

/**
 * "Department: Finance": the control a person reads as "Department" — a radio of that value in
 * a group labelled so, a list (select, combobox, listbox), a checkbox (yes/no), or a text field
 * (the value written in the form the field takes) — set to the value. Two different controls
 * answering to the label are refused; a label nothing answers to fails saying so.
 */
export async function runSetField(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, label: string, value: string, context?: string): Promise<boolean> {
  const role = step.role;
  const tries: { kind: Hit['kind']; spec: DescribedTarget; action: 'check' | 'select' | 'fill' }[] = [
    { kind: 'radio', spec: { phrase: value, role: 'radio', scope: label, group: true }, action: 'check' },
    { kind: 'select', spec: { phrase: label, role: 'combobox' }, action: 'select' },
    { kind: 'select', spec: { phrase: label, role: 'listbox' as AriaRole }, action: 'select' },
    { kind: 'checkbox', spec: { phrase: label, role: 'checkbox' }, action: 'check' },
    { kind: 'field', spec: { phrase: label, role: 'textbox' }, action: 'fill' },
  ];
  const hits: Hit[] = [];
  let ambiguity: { message: string } | null = null;
  for (const [i, t] of tries.entries()) {
    const r = await tools.find(role, [t.spec], t.action, i === 0 ? FIND_WAIT_MS : 0);
    if ('ref' in r) {
      const name = r.located.name ?? '';
      // A select found as a field (a combobox answers both): one control, its more specific kind.
      if (!hits.some((h) => h.ref === r.ref)) hits.push({ kind: t.kind, spec: t.spec, ref: r.ref, name });
      // Only a role the kind takes: the field look-up also finds a spinbutton or a combobox.
      const found = r.located.role ?? '';
      if (t.kind === 'checkbox' && !['checkbox', 'switch', 'menuitemcheckbox'].includes(found)) hits.pop();
    } else if (r.error.code === 'ambiguous_target' && t.kind !== 'radio') ambiguity = r.error;
  }
  // A control whose label is the words exactly beats one whose label only contains them.
  const exact = hits.filter((h) => h.kind === 'radio' || norm(h.name) === norm(label));
  const pick = exact.length ? exact : hits;
  if (pick.length > 1) {
    await tools.fail(role, ask, { code: 'ambiguous_target', message: `Step ${step.index} ("${step.text}"): ${pick.length} controls answer to "${label}" (${pick.map((h) => `a ${h.kind} "${h.name}"`).join(', ')}); say which, e.g. "Type ${JSON.stringify(value)} into the ${label} field".`, details: { candidates: pick.map((h) => ({ ref: h.ref, kind: h.kind, name: h.name })) } }, 'set');
    return false;
  }
  if (pick.length === 0) {
    // Two fields of that name ("Amount" in the row being edited and in the new-line row): the
    // one by the item the plan last named ("Edit the Hotel line", then "Amount: 289.00").
    if (ambiguity && context) {
      const named = fieldsNamed((await tools.snapshot(role)).tree, label);
      const near = nearestTo(named, context);
      if (near.length === 1 && named.length > 1) {
        const f = near[0];
        return act(valueAction(f, value), { ...ask, part: ask.part ?? `set "${f.name}" to "${value}" (the one by "${context}", named in the step before)` });
      }
    }
    if (ambiguity) {
      await tools.fail(role, ask, { code: 'ambiguous_target', message: `Step ${step.index} ("${step.text}"): ${ambiguity.message}` }, 'set');
      return false;
    }
    // No control is labelled so: the label may be text beside a set of choices (a radio group
    // whose label is the table cell before it, filter chips after "Filter", a segmented
    // control): the choice named exactly the value, in the one container that shows the label.
    for (const [spec, action] of [
      [{ phrase: value, role: 'radio', scope: label, strict: true }, 'check'],
      [{ phrase: value, role: null, scope: label, strict: true }, 'click'],
    ] as [DescribedTarget, 'check' | 'click'][]) {
      const r = await tools.find(role, [spec], action, 0);
      if ('ref' in r) return act({ action, ref: r.ref });
      if (r.error.code === 'ambiguous_target') break;
    }
    // A radio group labelled so that does not offer the value: say so, with what it offers.
    const group = await tools.find(role, [{ phrase: '', role: 'radio', scope: label, group: true }], 'check', 0);
    const why = 'ref' in group || group.error.code === 'ambiguous_target'
      ? `the radio group "${label}" offers no option "${value}"`
      : `no field, list, radio group or checkbox on the page is labelled "${label}"`;
    await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): ${why}.`, details: { label, value } }, 'set');
    return false;
  }
  const hit = pick[0];
  switch (hit.kind) {
    case 'radio':
      return act({ action: 'check', ref: hit.ref });
    case 'select':
      // The select answers with the options it has when the value is not one of them.
      return act({ action: 'select', value, ref: hit.ref });
    case 'checkbox': {
      const on = booleanValue(value);
      if (on === null) {
        await tools.fail(role, ask, { code: 'invalid_request', message: `Step ${step.index} ("${step.text}"): "${label}" is a checkbox, which takes yes or no, not "${value}".`, details: { label, value } }, 'set');
        return false;
      }
      return act({ action: on ? 'check' : 'uncheck', ref: hit.ref });
    }
    case 'field':
      // Through the fill path: a date, a time or a number is written in the form the field takes.
      return act({ action: 'fill', value, target: hit.spec });
  }
}

const EDITABLE = 'input:focus, textarea:focus, [contenteditable]:focus, [role=textbox]:focus, [role=searchbox]:focus, [role=combobox]:focus, [role=spinbutton]:focus';

interface Focused { editable: boolean; what: string; index: number }

/**
 * "Type 'X'", "Replace it with 'X'": the field the caret is in (an earlier step clicked it or
 * opened its inline editor) is set to the value through the fill path (dates and numbers in
 * the form the field takes). Nothing editable with the focus: a clear failure, never a guess.
 */
export async function runFocusedTyping(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, value: string, replace: boolean): Promise<boolean> {
  const role = step.role;
  const found = await tools.session.run(role, async (state) => {
    const page = state.page;
    const loc = page.locator(EDITABLE);
    const n = await loc.count().catch(() => 0);
    // The focused element itself (through open shadow roots), and which match it is.
    const facts = await page.evaluate(() => {
      let a: Element | null = document.activeElement;
      while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
      if (!a || a === document.body || a === document.documentElement) return { editable: false, what: 'nothing (the page body)', index: -1 };
      const el = a as HTMLElement;
      const tag = el.tagName.toLowerCase();
      const label = (el.getAttribute('aria-label') || el.getAttribute('name') || el.getAttribute('placeholder') || el.id || (el.textContent ?? '').trim().slice(0, 30)).trim();
      const what = `${el.getAttribute('role') || tag}${label ? ` "${label}"` : ''}`;
      const input = el as HTMLInputElement;
      const texty = /^(?:text|search|email|url|tel|password|number|date|time|datetime-local|month|week)$/i.test(input.type ?? '');
      const editable = ((tag === 'input' && texty) || tag === 'textarea') ? !input.readOnly && !input.disabled : el.isContentEditable || /^(?:textbox|searchbox|combobox|spinbutton)$/.test(el.getAttribute('role') ?? '');
      return { editable, what, index: -1 };
    }).catch(() => null);
    if (!facts) return null;
    let index = -1;
    for (let i = 0; i < n && index < 0; i++) {
      const same = await loc.nth(i).evaluate((el) => {
        let a: Element | null = document.activeElement;
        while (a && a.shadowRoot && a.shadowRoot.activeElement) a = a.shadowRoot.activeElement;
        return el === a;
      }).catch(() => false);
      if (same) index = i;
    }
    const ref = index >= 0 ? (await refsForLocators(state, { locators: [loc.nth(index)] }).catch(() => [null]))[0] : null;
    return { ...(facts as Focused), index, ref };
  });
  if (!found || !found.editable || found.index < 0) {
    await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): no field has the focus to type into (the focus is on ${found?.what ?? 'nothing'}); click the field first, or name it: Type "${value}" into <field>.`, details: { focused: found?.what ?? null } }, replace ? 'fill' : 'type');
    return false;
  }
  // The field then reads the value, as "Type X into Y" leaves it: an inline editor opens with the
  // old text in it, and "Type 'Pay rent (December)'" means that text, never the two run together.
  if (found.ref) return act({ action: 'fill', value, ref: found.ref });
  const idx = found.index;
  return (await tools.actOnLocator(role, { action: 'fill', value }, `page.locator(':focus')`, (state) => state.page.locator(EDITABLE).nth(idx), ask)).ok;
}

/** Names a confirming button has besides the action's verb. */
const CONFIRM_NAMES = ['Yes', 'OK', 'Okay', 'Confirm', 'Continue', 'Proceed'];

/**
 * After "<action> and confirm": a JS confirm the action opened is accepted; else the open dialog
 * (role=dialog/alertdialog, or a floating box the resolver takes for one) is answered with its
 * one confirming button — named by the action's verb ("Remove", "Yes, remove") or Yes/OK/Confirm/
 * Continue, never Cancel/No/Close. No dialog, no such button, or several: the step fails.
 */
export async function runConfirm(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, verb: string | null): Promise<boolean> {
  const role = step.role;
  if (await tools.hasDialog(role)) return act({ action: 'handle_dialog', accept: true });
  const names = [...new Set([...(verb && !DISMISS_NAME.test(verb) ? [verb] : []), ...CONFIRM_NAMES])];
  const hits = new Map<string, string>();
  for (const [i, name] of names.entries()) {
    // The first look waits a moment: a dialog may still be opening.
    const r = await tools.find(role, [{ phrase: name, role: 'button', landmark: 'dialog' }], 'click', i === 0 ? FIND_WAIT_MS : 0);
    if (!('ref' in r)) continue;
    const got = (r.located.name ?? '').trim();
    const g = got.toLowerCase();
    const n = name.toLowerCase();
    // The name is the word, or starts with it ("Yes, remove", "Delete account"): never a
    // dismissing button that mentions it ("Cancel delete").
    if (DISMISS_NAME.test(got) || !(g === n || new RegExp(`^${n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'i').test(g))) continue;
    hits.set(r.ref, got);
  }
  if (hits.size === 0) {
    // Which miss it is: no dialog at all (ARIA or a floating box), or one with no confirming button.
    const any = await tools.find(role, [{ phrase: '', role: 'button', landmark: 'dialog' }], 'click', 0);
    if (await tools.hasDialog(role)) return act({ action: 'handle_dialog', accept: true });
    if ('error' in any && any.error.code !== 'ambiguous_target') {
      await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): no confirmation dialog is open to confirm (the action before it opened none, or its dialog has no button that confirms).`, details: { expected: 'a dialog' } }, 'click');
      return false;
    }
  }
  if (hits.size !== 1) {
    await tools.fail(role, ask, {
      code: hits.size ? 'ambiguous_target' : 'target_not_found',
      message: hits.size
        ? `Step ${step.index} ("${step.text}"): the dialog has ${hits.size} buttons that could confirm (${[...hits.values()].map((v) => `"${v}"`).join(', ')}); click the one you mean by name.`
        : `Step ${step.index} ("${step.text}"): the dialog has no button that confirms${verb ? ` "${verb}"` : ''} (looked for ${names.map((x) => `"${x}"`).join(', ')}); click the one you mean by name.`,
      details: { candidates: [...hits.entries()].map(([ref, name]) => ({ ref, name })) },
    }, 'click');
    return false;
  }
  const [ref] = [...hits.keys()];
  return act({ action: 'click', ref });
}

/** "Tick the checkbox before 'Remember me'": the control right beside the text, then the action on it. */
export async function runPositional(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, body: FlowAction, where: { kind: string; text: string; side: Side }): Promise<boolean> {
  const snap = await tools.snapshot(step.role);
  const r = controlBesideText(snap.tree, where.kind, where.text, where.side);
  if (!r.ok) {
    await tools.fail(step.role, ask, { code: r.code, message: `Step ${step.index} ("${step.text}"): ${r.message}` }, body.action);
    return false;
  }
  const { target: _t, alternatives: _a, ...plain } = body;
  return act({ ...plain, ref: r.ref });
}
