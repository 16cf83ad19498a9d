import { parseTarget, rowVerbNames, type AriaRole } from '@ariadne/page';
import { isAssertionStep, type PlanCase, type PlanStep } from '../plan.js';
import type { CheckSpec } from '../types.js';
import { CaseStop, errorOf, FIND_WAIT_MS, type AskContext, type CaseTools, type FlowAction } from '../tools.js';
import type { Planner } from './planner.js';
import { interpretMailStep, runMailStep } from './rules-mail.js';
import { EMAIL_VAR } from '../tools.js';
import { ScopeMemory } from './scope-memory.js';
import { runConfirm, runFocusedTyping, runPositional, runSetField } from './rules-actions.js';
import { runBoardMove } from './rules-board.js';
import { settingByWords } from './rules-setting.js';
import { editReadings, fieldsNamed, myFields, runEditThenSet, runMakeRole, valueAction } from './rules-edit.js';
import { objectText } from './rules-verbs.js';
import { runBulk, runPaginate, runSendFor, runVerbObject, verbObjectRef } from './rules-verbs-run.js';
import { choiceInSentence } from './rules-by-value.js';

import { bindPart, interpret, standInFile, unquote, UNDERSTOOD, type Intent, type TargetSpec } from './rules.js';
import { DECLARATION_NOUN, declarationBox } from './rules-purpose.js';

// Running the rules planner's intents (rules.ts reads the sentences): each step's intent on
// the page through the case's tools, part by part, each part reported.

export class RulesPlanner implements Planner {
  readonly name = 'rules';
  /** What each running case's steps have named so far, for "her row", "it", "the same card". */
  private memories = new WeakMap<CaseTools, { memory: ScopeMemory; lastClick: { intent: Intent | null } }>();

  private memoryOf(tools: CaseTools): { memory: ScopeMemory; lastClick: { intent: Intent | null } } {
    let m = this.memories.get(tools);
    if (!m) this.memories.set(tools, (m = { memory: new ScopeMemory(), lastClick: { intent: null } }));
    return m;
  }

  async runCase(c: PlanCase, tools: CaseTools): Promise<void> {
    this.memories.delete(tools);
    for (const step of c.steps) {
      const ok = await this.runStep(step, tools);
      if (!ok) {
        tools.complete(false, `Step ${step.index} failed: ${step.text}`);
        return;
      }
    }
    tools.complete(true, `All ${c.steps.length} steps done.`);
  }

  /** Run one plan step; false when it failed (the case stops there). */
  async runStep(step: PlanStep, tools: CaseTools): Promise<boolean> {
    const ask: AskContext = { planStep: step.index, asked: step.text, secretParams: secretNames(step), startedAt: Date.now() };
    // Steps outside the page (the run's inbox, HTTP checks) first.
    const outside = interpretMailStep(step.resolved);
    if (outside) return runMailStep(outside, step, tools, ask);
    // {{EMAIL}}: the run's inbox address, known once the inbox exists.
    let text = step.resolved;
    if (text.match(EMAIL_VAR)) {
      try {
        text = await tools.expandEmail(text);
      } catch (err) {
        await tools.fail(step.role, ask, errorOf(err));
        return false;
      }
    }
    const mem = this.memoryOf(tools);
    let intent = interpret(text);
    // Back-references bound part by part, before anything runs.
    if (intent.kind === 'sequence') intent = { ...intent, parts: intent.parts.map((p) => ({ ...p, intent: bindPart(p.text, p.intent, step.index, mem.memory, mem.lastClick) })) };
    else intent = bindPart(text, intent, step.index, mem.memory, mem.lastClick);
    if (intent.kind === 'sequence') {
      // Nothing runs unless every part is understood: a dropped part is never a pass.
      // A part about the inbox or an HTTP check ("enter the code from the email and click Verify").
      const mail = new Map(intent.parts.filter((p) => p.intent.kind === 'unknown').map((p) => [p, interpretMailStep(p.text)] as const).filter(([, m]) => m !== null));
      const bad = intent.parts.find((p) => p.intent.kind === 'unknown' && !mail.has(p));
      if (bad) {
        const understood = intent.parts.filter((p) => p.intent.kind !== 'unknown').map((p) => p.text);
        await tools.fail(step.role, ask, {
          code: 'step_not_understood',
          message: `The rules planner could not interpret step ${step.index} ("${step.text}"): it understood ${understood.length ? understood.map((t) => `"${t}"`).join(', ') : 'no part'}, but not "${bad.text}" (${(bad.intent as { reason: string }).reason}). It understands: ${UNDERSTOOD}.`,
          details: { planStep: step.index, line: step.line, understood, notUnderstood: bad.text },
        });
        return false;
      }
      for (const p of intent.parts) {
        const partAsk = { ...ask, part: p.text, startedAt: Date.now() };
        const m = mail.get(p);
        if (!(await (m ? runMailStep(m, step, tools, partAsk) : this.runIntent(p.intent, step, tools, partAsk)))) return false;
      }
      return true;
    }
    return this.runIntent(intent, step, tools, ask);
  }

  /**
   * "Correct the hotel amount to 289.00" when no field answers to `shown` now (one look, no
   * wait): the field through its editor (rules-edit.ts). null when there is no editor to open.
   */
  private async throughEditor(tools: CaseTools, step: PlanStep, ask: AskContext, act: (body: FlowAction, a?: AskContext) => Promise<boolean>, words: string, value: string, shown: TargetSpec[]): Promise<boolean | null> {
    const r = await tools.find(step.role, shown, 'fill', 0);
    if ('ref' in r || r.error.code === 'ambiguous_target') return null;
    for (const reading of editReadings(words)) {
      const done = await runEditThenSet(tools, step, ask, act, reading.item, reading.field, value);
      if (done !== null) return done;
    }
    return null;
  }

  private async runIntent(intent: Intent, step: PlanStep, tools: CaseTools, ask: AskContext): Promise<boolean> {
    const role = step.role;
    const act = async (body: FlowAction, a: AskContext = ask) => (await tools.act(role, body, a)).ok;
    switch (intent.kind) {
      case 'unknown': {
        // A bare step that is the exact name of one control on the page ("Save", "Disconnect",
        // "Reset password", "Next page"): a click on it, by that whole name, when only one has it.
        const words = (ask.part ?? step.text).trim().replace(/[.!]+$/, '');
        // (A menu item says a whole sentence at times: "Archive all cards in this list".)
        if (/^\p{L}[\p{L}\p{N}' -]{0,60}$/u.test(words) && words.split(/\s+/).length <= 8 && !isAssertionStep(words)) {
          const bare: TargetSpec = { phrase: words, role: null, quoted: true, strict: true };
          if (await tools.findQuietly(role, [bare], 'click')) return act({ action: 'click', target: bare }, { ...ask, part: ask.part ?? `click "${words}"` });
        }
        // "Disconnect GitHub", "Assign 'Update privacy policy'": a verb the planner does not know,
        // read as "<verb> <object>" only when a control is named by that verb, by the object's text.
        let tried = '';
        const lead = /^(?:please\s+)?([A-Za-z]{3,})\s+(.+)$/.exec(words);
        if (lead && !isAssertionStep(words) && !/["“]/.test(lead[1])) {
          const r = await verbObjectRef(tools, role, lead[1].toLowerCase(), objectText(lead[2]), true);
          if (r.ok) return act({ action: 'click', ref: r.ref }, { ...ask, part: ask.part ?? `${lead[1].toLowerCase()} "${objectText(lead[2])}": ${r.why}` });
          tried = ` Read as "<verb> <object>": ${r.message}`;
        }
        // "I want to be paid by cheque", "Charge this claim to the Finance department": the one
        // choice on the page that the words name by its value.
        if (!isAssertionStep(words)) {
          const c = choiceInSentence((await tools.snapshot(role)).tree, words);
          if (c.ok) {
            const part = ask.part ?? `${c.kind === 'fill' ? `fill "${c.label}" with` : 'choose'} "${c.value}"${c.kind !== 'fill' && c.label && c.label !== c.value ? ` in "${c.label}"` : ''} (the one choice on the page these words name)`;
            const body: FlowAction = c.kind === 'select' ? { action: 'select', ref: c.ref, value: c.value } : c.kind === 'radio' ? { action: 'check', ref: c.ref } : { action: 'fill', ref: c.ref, value: c.value };
            return act(body, { ...ask, part });
          }
          tried += ` Read as a value to choose: ${c.why}.`;
        }
        await tools.fail(role, ask, {
          code: 'step_not_understood',
          message: `The rules planner could not interpret step ${step.index} ("${step.text}"): ${intent.reason}. It understands: ${UNDERSTOOD}. Reword the step, or run with the anthropic or openai planner.${tried}`,
          details: { planStep: step.index, line: step.line, notUnderstood: ask.part ?? step.text },
        });
        return false;
      }
      case 'sequence':
        return this.runStep({ ...step, resolved: intent.parts.map((p) => p.text).join(', then ') }, tools);
      case 'navigate':
        return act({ action: 'navigate', url: intent.url });
      case 'back':
      case 'forward':
      case 'reload':
        return act({ action: intent.kind });
      case 'wait_stable':
        await tools.waitForStable(role, ask);
        return true;
      case 'dialog':
        return act({ action: 'handle_dialog', accept: intent.accept, ...(intent.promptText !== undefined ? { promptText: intent.promptText } : {}) });
      case 'close_dialog': {
        // A JS dialog waiting for an answer, or a modal on the page: its close control.
        if (await tools.hasDialog(role)) return act({ action: 'handle_dialog', accept: false });
        const close = { phrase: 'Close', role: 'button' as AriaRole, landmark: 'dialog' };
        const alts = ['×', '✕', 'x', 'Cancel', 'Dismiss', 'OK', 'Done'].map((phrase) => ({ phrase, role: 'button' as AriaRole, landmark: 'dialog' }));
        if (!(await act({ action: 'click', target: close, alternatives: alts }))) return false;
        return tools.expectNoDialogLandmark(role, ask);
      }
      case 'wait_text':
        return act({ action: 'wait_for', text: intent.text });
      case 'wait_gone':
        return act({ action: 'wait_for', textGone: intent.text });
      case 'wait_time':
        return act({ action: 'wait_for', time: Math.min(intent.ms, 60_000) });
      case 'scroll':
        return act({ action: 'scroll', direction: intent.direction });
      case 'press':
        return act({ action: 'press', key: intent.key, ...(intent.target ? { target: intent.target } : {}) });
      case 'set_field': {
        // "Change my name to ...": only a field of one's own ("Full name", never "Workspace name");
        // when no control answers to the words, the field may be behind its editor (rules-edit.ts).
        if (intent.edit?.startsWith('my ')) {
          const { tree } = await tools.snapshot(role);
          const mine = myFields(tree, intent.label);
          if (mine.length === 1) return act(valueAction(mine[0], intent.value), { ...ask, part: ask.part ?? `set "${mine[0].name}" to "${intent.value}"` });
          // None of one's own, but fields named for something else ("Workspace name"): never those.
          // (No field has the words at all, "Timezone" for "time zone": the usual look-up below.)
          const others = mine.length ? [] : fieldsNamed(tree, intent.label);
          if (others.length) {
            const done = await runEditThenSet(tools, step, ask, act, 'profile', intent.label, intent.value);
            if (done !== null) return done;
            await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): no field of your own is named "${intent.label}" (${others.slice(0, 3).map((o) => `"${o.name}"`).join(', ')} ${others.length > 1 ? 'are' : 'is'} named for something else), and no profile editor shows one; nothing was typed.`, details: { label: intent.label } }, 'fill');
            return false;
          }
        }
        if (intent.edit) {
          const done = await this.throughEditor(tools, step, ask, act, intent.edit, intent.value, [{ phrase: intent.label, role: 'textbox' }, { phrase: intent.label, role: 'combobox' }]);
          if (done !== null) return done;
        }
        const last = this.memoryOf(tools).memory.resolve('it');
        return runSetField(tools, step, ask, act, intent.label, intent.value, last.ok ? last.name : undefined);
      }
      case 'stop_setting': {
        // Not a setting's words ("Stop the video"): read as any other unknown step (a control named so, a verb and its object).
        const found = settingByWords((await tools.snapshot(role)).tree, intent.words);
        if (found.ok) return act({ action: 'uncheck', ref: found.ctl.ref }, { ...ask, part: ask.part ?? `turn off "${found.ctl.name}" (its row says ${found.kept.map((w) => `"${w}"`).join(' and ')})` });
        return this.runIntent({ kind: 'unknown', reason: `no rule matches its wording (read as turning off a setting by what it is about: ${found.why})` }, step, tools, ask);
      }
      case 'board_move':
        return runBoardMove(tools, step, ask, act, intent.item, intent.to);
      case 'make_role': {
        const done = await runMakeRole(tools, step, ask, act, intent.item, intent.value);
        if (done !== null) return done;
        await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): nothing in the row of "${intent.item}" offers "${intent.value}", and it has no edit control to look in; nothing was changed.`, details: { item: intent.item, value: intent.value } }, 'click');
        return false;
      }
      case 'type_focused':
        return runFocusedTyping(tools, step, ask, act, intent.value, intent.replace);
      case 'confirm_dialog':
        return runConfirm(tools, step, ask, act, intent.verb);
      case 'click':
        if (intent.beside) return runPositional(tools, step, ask, act, { action: 'click', ...(intent.double ? { double: true } : {}) }, intent.beside);
        return act({ action: 'click', target: intent.target, ...(intent.alternatives ? { alternatives: intent.alternatives } : {}), ...(intent.waitMs ? { waitMs: intent.waitMs } : {}), ...(intent.double ? { double: true } : {}) } as FlowAction);
      case 'hover':
      case 'check':
      case 'uncheck':
        if (intent.beside) return runPositional(tools, step, ask, act, { action: intent.kind }, intent.beside);
        return act({ action: intent.kind, target: intent.target, ...(intent.waitMs ? { waitMs: intent.waitMs } : {}) });
      case 'toggle':
        return act({ action: 'click', target: intent.target, alternatives: [] });
      case 'select':
        return act({ action: 'select', value: intent.value, target: intent.target });
      case 'choose': {
        // The list (select, listbox) that offers every value, when one does.
        const list: TargetSpec = { phrase: '', role: 'combobox', offers: intent.values };
        // "Select Black and white": one option whose name holds the "and", before two values.
        if (intent.values.length === 2 && !intent.tick) {
          const whole = intent.values.join(' and ');
          const one = await tools.findQuietly(role, [{ ...list, offers: [whole] }, { ...list, role: 'listbox' as AriaRole, offers: [whole] }], 'select', 0);
          if (one) return act({ action: 'select', value: whole, ref: one });
        }
        const ref = intent.tick ? null : await tools.findQuietly(role, [list, { ...list, role: 'listbox' as AriaRole }], 'select', 0);
        if (ref) return act({ action: 'select', value: intent.values.length > 1 ? intent.values : intent.values[0], ref });
        // "from the list" named a list: none offers the values, so that is the miss to report.
        if (intent.list && !intent.tick) return act({ action: 'select', value: intent.values.length > 1 ? intent.values : intent.values[0], target: list });
        if (intent.values.length === 1) {
          const t = parseTarget(intent.values[0]);
          return act({ action: 'click', target: t, alternatives: [{ ...t, role: 'radio' as AriaRole }] });
        }
        // A list that offers some of them: select there, and its answer names the missing ones.
        const some = intent.tick ? null : await tools.findQuietly(role, [{ ...list, offers: [intent.values[0]] }, { ...list, role: 'listbox' as AriaRole, offers: [intent.values[0]] }], 'select', 0);
        if (some) return act({ action: 'select', value: intent.values, ref: some });
        // Each value is its own box (or radio, or option): tick each, each reported; a name
        // that is all the words ("Terms and conditions") is one box.
        const whole = await tools.findQuietly(role, [parseTarget(intent.values.join(' and '), 'checkbox')], 'check', 0);
        if (whole) return act({ action: 'check', ref: whole });
        for (const [i, v] of intent.values.entries()) {
          if (!(await act({ action: 'check', target: parseTarget(v, 'checkbox') }, { ...ask, part: `tick "${v}"`, startedAt: Date.now() }))) return false;
          void i;
        }
        return true;
      }
      case 'untick_all': {
        // Every ticked box, one at a time (each reported), then the check that none is left.
        const ticked: TargetSpec = { phrase: '', role: 'checkbox', checked: true };
        for (let i = 0; i < 50; i++) {
          const ref = await tools.findQuietly(role, [{ ...ticked, ordinal: 1 }], 'uncheck', 0);
          if (!ref) break;
          if (!(await act({ action: 'uncheck', ref }, { ...ask, part: 'untick a ticked box', startedAt: Date.now() }))) return false;
        }
        const rec = await tools.assertOutside(role, { type: 'element_state', description: 'every checkbox', state: 'unchecked' }, { ...ask, description: 'nothing is ticked', startedAt: Date.now() }, async () => {
          const left = await tools.findQuietly(role, [{ ...ticked, ordinal: 1 }], 'uncheck', 0);
          return { passed: left === null, actual: left === null ? 'none is ticked: every box is left unticked' : `a box is still ticked (${left})` };
        });
        return rec.passed;
      }
      case 'fill':
        if (intent.beside) return runPositional(tools, step, ask, act, { action: 'fill', value: intent.value }, intent.beside);
        if (intent.edit) {
          const done = await this.throughEditor(tools, step, ask, act, intent.edit, intent.value, [intent.target]);
          if (done !== null) return done;
        }
        // The page layer writes the value in the form the field takes (a date, a number, a step).
        return act({ action: 'fill', value: intent.value, target: intent.target });
      case 'find': {
        const rec = await tools.assert(role, { type: 'text_visible', text: intent.name }, { ...ask, description: `find ${intent.name}` });
        return rec.passed;
      }
      case 'add_item': {
        // "Add card" where a control is named exactly so (a composer's button): that control,
        // never "card" typed in as a new item.
        const words = (ask.part ?? step.text).trim().replace(/[.!]+$/, '');
        if (/^add\s+[\p{L}-]+(?:\s+[\p{L}-]+)?$/iu.test(words)) {
          const named: TargetSpec = { phrase: words, role: null, quoted: true, strict: true };
          if (await tools.findQuietly(role, [named], 'click')) return act({ action: 'click', target: named }, { ...ask, part: ask.part ?? `click "${words}"` });
        }
        // The list's input (named like "new todo"/"add"/"what needs to be done", else the only
        // textbox), the value, then its Add button if it has one, else Enter.
        const input: TargetSpec = { phrase: '', role: 'textbox' };
        const alts: TargetSpec[] = ['new', 'add', 'what needs', 'todo', 'task', 'item'].map((phrase) => ({ phrase, role: 'textbox' as AriaRole }));
        const r = await tools.act(role, { action: 'fill', value: intent.value, target: { phrase: 'new', role: 'textbox' }, alternatives: [...alts.slice(1), input] }, { ...ask, part: ask.part ?? `type "${intent.value}" into the list's input` });
        if (!r.ok) return false;
        const addBtn = await tools.findQuietly(role, [{ phrase: 'Add', role: 'button' }]);
        if (addBtn) return act({ action: 'click', ref: addBtn }, { ...ask, part: 'click Add', startedAt: Date.now() });
        return act({ action: 'press', key: 'Enter', ref: r.step.ref }, { ...ask, part: 'press Enter', startedAt: Date.now() });
      }
      case 'search': {
        // The search box (a searchbox, a field named or placed for search), the value, then its
        // submit: a search button next to it if there is one, else Enter. Both parts reported.
        const specs: TargetSpec[] = [
          { phrase: 'search', role: 'searchbox' }, { phrase: 'search', role: 'textbox' },
          { phrase: '', role: 'searchbox' }, { phrase: '', role: 'textbox', landmark: 'search' },
        ];
        const r = await tools.act(role, { action: 'fill', value: intent.value, target: specs[0], alternatives: specs.slice(1) }, { ...ask, part: ask.part ?? `type "${intent.value}" into the search box` });
        if (!r.ok) return false;
        return act({ action: 'press', key: 'Enter', ref: r.step.ref }, { ...ask, part: 'press Enter', startedAt: Date.now() });
      }
      case 'remove_item': {
        // A control named by the whole words ("Remove member" in the menu a step opened) is
        // what the step asks for: clicked by that exact name, before any row is looked for.
        const wholeName = `${intent.verb} ${intent.item}`;
        const whole: TargetSpec = { phrase: wholeName, role: null, strict: true };
        if (await tools.findQuietly(role, [whole], 'click')) return act({ action: 'click', target: whole }, { ...ask, part: ask.part ?? `click "${wholeName}"` });
        // Hover the item first: delete buttons are often revealed on hover. An item named in a
        // person's own words ("the taxi expense") shows no such text to hover: its row is found
        // by the scope's words (scope-words.ts), without a hover.
        const item: TargetSpec = { phrase: intent.item, role: null };
        if (await tools.findQuietly(role, [item], 'hover')) {
          const hovered = await tools.act(role, { action: 'hover', target: item }, { ...ask, part: ask.part ?? `hover "${intent.item}"` });
          if (!hovered.ok) return false;
        }
        const verb = intent.verb[0].toUpperCase() + intent.verb.slice(1).toLowerCase();
        const names = [...new Set([verb, ...rowVerbNames('delete'), '×', '✕', '✖', 'x'])];
        // An icon-only button (no word name) counts as the row's delete control only when it is
        // the only such button in the row: a named Edit or Archive never stands for Delete. An
        // icon that means the verb (a bin) is the row's too.
        const specs: TargetSpec[] = [
          ...names.map((phrase) => ({ phrase, role: 'button' as AriaRole, scope: intent.item })),
          { phrase: '', role: 'button' as AriaRole, scope: intent.item, unnamed: true },
          { phrase: intent.verb.toLowerCase(), role: null, scope: intent.item, icon: true },
        ];
        // None in the row: the row's own menu may hold it ("Remove member" behind the ⋯).
        const inRow = await tools.find(role, specs, 'click', FIND_WAIT_MS);
        if ('error' in inRow && inRow.error.code === 'target_not_found') return runSendFor(tools, step, { ...ask, startedAt: Date.now() }, act, verb, intent.item);
        return act({ action: 'click', target: specs[0], alternatives: specs.slice(1) }, { ...ask, part: `click the ${verb.toLowerCase()} control of "${intent.item}"`, startedAt: Date.now() });
      }
      case 'row_action': {
        // Hover-only controls are revealed by hovering the row that shows exactly the item. An
        // element named by the whole words ("Share report") still counts, by its exact name only.
        const whole: TargetSpec = { phrase: unquote(intent.words), role: null, strict: true };
        // No row shows the item's text as written ("Download the March invoice"): the verb's
        // control nearest the words (its row's cells, its section), when exactly one fits.
        const direct = await tools.find(role, [...intent.specs, whole], 'click', FIND_WAIT_MS);
        // Only then: a row or card that shows the item as written holds the verb's control or
        // nothing does (its menu opened in the search is never "near" it: a silent wrong seen).
        if ('error' in direct && direct.error.code !== 'ambiguous_target') {
          const near = await verbObjectRef(tools, role, intent.verb, objectText(intent.item), false, intent.item);
          if (near.ok) return act({ action: 'click', ref: near.ref }, { ...ask, part: ask.part ?? `${intent.verb} "${intent.item}": ${near.why}` });
        }
        return act({ action: 'click', target: intent.specs[0], alternatives: [...intent.specs.slice(1), whole] }, { ...ask, part: ask.part ?? `click the ${intent.verb} control in the row "${intent.item}"` });
      }
      case 'verb_object':
        return runVerbObject(tools, step, ask, act, intent.verb, intent.object);
      case 'paginate':
        return runPaginate(tools, step, ask, act, intent.which);
      case 'bulk':
        return runBulk(tools, step, ask, act, intent.verb);
      case 'send_for':
        return runSendFor(tools, step, ask, act, intent.noun, intent.who);
      case 'drag':
        return act({ action: 'drag', description: intent.from, targetDescription: intent.to });
      case 'upload':
        // The plan names files it does not carry: a small stand-in of each name and type.
        return act({ action: 'upload', target: intent.target, files: intent.files.map(standInFile) } as FlowAction);
      case 'login': {
        const user = { phrase: 'user', role: 'textbox' as AriaRole };
        if (!(await act({ action: 'fill', value: intent.user, target: user, alternatives: [{ phrase: 'email', role: 'textbox' }, { phrase: 'login', role: 'textbox' }] }))) return false;
        if (!(await act({ action: 'fill', value: intent.password, target: { phrase: 'password', role: 'textbox' } }, { ...ask, startedAt: Date.now() }))) return false;
        return act({ action: 'click', target: { phrase: 'log in', role: 'button' }, alternatives: [{ phrase: 'sign in', role: 'button' }, { phrase: 'login', role: 'button' }] }, { ...ask, startedAt: Date.now() });
      }
      case 'declare': {
        const noun = DECLARATION_NOUN.exec(intent.words);
        const named: TargetSpec | null = noun ? { phrase: noun[1], role: 'checkbox' } : null;
        if (named && (await tools.findQuietly(role, [named], 'check'))) return act({ action: 'check', target: named });
        const declared = declarationBox((await tools.snapshot(role)).tree, intent.words);
        if (declared) return act({ action: 'check', ref: declared.ref }, { ...ask, part: ask.part ?? `tick the box "${declared.sentence.slice(0, 80)}" (the page asks to declare what the step confirms)` });
        await tools.fail(role, ask, {
          code: 'step_not_understood',
          message: `Step ${step.index} ("${step.text}"): read as a declaration, but no unticked box on the page says "I confirm / agree / declare ..." with these words; as a check, it is not one of the forms the rules planner checks. It understands: ${UNDERSTOOD}.`,
          details: { planStep: step.index, line: step.line, notUnderstood: ask.part ?? step.text },
        });
        return false;
      }
      case 'assert': {
        const check = intent.check;
        if ('target' in check) {
          const action = check.type === 'element_value' ? 'fill' : check.type === 'element_state' && (check.state === 'checked' || check.state === 'unchecked') ? 'check' : 'assert';
          const ref = await tools.findQuietly(role, [check.target], action, FIND_WAIT_MS);
          if (ref === null) {
            // No such element: for "X shows Y", the page showing Y is the fact we can check.
            if (check.type === 'element_text' && check.text) {
              const rec = await tools.assert(role, { type: 'text_visible', text: check.text, ...(check.match === 'words' ? { match: 'exact' as const } : {}) }, { ...ask, description: step.text });
              return rec.passed;
            }
            await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): no element matches "${check.target.phrase}" to check.`, details: { understood: check.target } }, 'assert');
            return false;
          }
          const spec: CheckSpec = check.type === 'element_text'
            ? { type: 'element_text', ref, text: check.text!, ...(check.match === 'words' ? { match: 'words' as const } : {}) }
            : check.type === 'element_state'
              ? { type: 'element_state', ref, state: check.state! }
              : { type: 'element_value', ref, value: check.value! };
          const rec = await tools.assert(role, spec, { ...ask, description: step.text });
          return rec.passed;
        }
        const rec = await tools.assert(role, check, { ...ask, description: step.text });
        return rec.passed;
      }
    }
  }
}

/** Variables whose names look secret, used by this step (kept out of exports). */
function secretNames(step: PlanStep): string[] {
  const names = [...step.text.matchAll(/\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g)].map((m) => m[1]);
  return names.filter((n) => /pass|secret|token|key|otp|pin/i.test(n));
}

export { CaseStop };
