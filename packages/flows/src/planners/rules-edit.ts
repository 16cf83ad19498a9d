import type { AriaNode } from '@ariadne/page';
import type { PlanStep } from '../plan.js';
import type { AskContext, CaseTools, FlowAction } from '../tools.js';
import { verbObjectRef } from './rules-verbs-run.js';
import { controlsOf, type Ctl } from './rules-verbs-tree.js';

// "Change my name to Alex Morgan-Reid", "Correct the hotel amount to 289.00": a field that is
// not on the page until its editor is open (a slide-over, a dialog, a grid row in edit mode).
// The route a person takes: the one edit control of the thing named (its row's or card's pencil
// or Edit; for "my ..." the profile's), then the field among what that click brought, then the
// Save among what it brought. Each part is reported; a part with no single answer stops there,
// with nothing guessed.

type Act = (body: FlowAction, a?: AskContext) => Promise<boolean>;

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton']);
const SAVE_NAMES = /^(?:save|save changes|update|apply|done|ok|confirm|submit)$/i;
const wordsOf = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The readings of "<label>" as what to open and which field: "hotel amount" → hotel's amount. */
export function editReadings(label: string, item?: string): { item: string; field: string }[] {
  const mine = /^(?:my|our)\s+(.+)$/i.exec(label.trim());
  if (item) return [{ item, field: label }];
  if (mine) return [{ item: 'profile', field: mine[1] }];
  const words = label.trim().split(/\s+/);
  const out: { item: string; field: string }[] = [];
  // The last word is the field, the words before it the thing ("the hotel amount").
  if (words.length >= 2 && words.length <= 5) out.push({ item: words.slice(0, -1).join(' '), field: words[words.length - 1] });
  return out;
}

/** Fields a click brought that a label names (all its words, "name" in "Full name"). */
function freshFields(tree: AriaNode[], had: Set<string>, field: string): Ctl[] {
  const want = wordsOf(field);
  return controlsOf(tree).filter((c) => FIELD_ROLES.has(c.role) && !had.has(c.ref) && want.length > 0 && want.every((w) => wordsOf(c.name).includes(w)));
}

/**
 * Open the editor of `item` and set `field` there to `value`, then save. null when there is no
 * single edit control for the item (the caller reports its own miss); true/false once it acted.
 */
export async function runEditThenSet(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, item: string, field: string, value: string): Promise<boolean | null> {
  const role = step.role;
  const edit = await verbObjectRef(tools, role, 'edit', item);
  if (!edit.ok) return null;
  const before = await tools.snapshot(role);
  const had = new Set(controlsOf(before.tree).map((c) => c.ref));
  if (!(await act({ action: 'click', ref: edit.ref }, { ...ask, part: `open the editor of "${item}" (${edit.why})`, startedAt: Date.now() }))) return false;
  // The editor may take a moment to render (an animation, a fetch): look a few times.
  let fields: Ctl[] = [];
  let tree: AriaNode[] = before.tree;
  for (let i = 0; i < 8; i++) {
    tree = (await tools.snapshot(role)).tree;
    fields = freshFields(tree, had, field);
    if (fields.length) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (fields.length !== 1) {
    await tools.fail(role, ask, {
      code: fields.length ? 'ambiguous_target' : 'target_not_found',
      message: `Step ${step.index} ("${step.text}"): opened the editor of "${item}", but ${fields.length ? `${fields.length} fields it brought are named "${field}"` : `no field it brought is named "${field}"`}; nothing was typed.`,
      details: { item, field },
    }, 'fill');
    return false;
  }
  const f = fields[0];
  const set: FlowAction = f.role === 'combobox' || f.role === 'listbox' ? { action: 'select', ref: f.ref, value } : { action: 'fill', ref: f.ref, value };
  if (!(await act(set, { ...ask, part: `set "${f.name}" to "${value}"`, startedAt: Date.now() }))) return false;
  // Save: the one save-like control the editor brought; none: Enter in a text field (an inline
  // editor that saves on Enter); several: say so.
  const after = (await tools.snapshot(role)).tree;
  const saves = controlsOf(after).filter((c) => !had.has(c.ref) && ['button', 'link', 'menuitem'].includes(c.role) && SAVE_NAMES.test(c.name.trim()));
  if (saves.length === 1) return act({ action: 'click', ref: saves[0].ref }, { ...ask, part: `save with "${saves[0].name}"`, startedAt: Date.now() });
  if (saves.length > 1) {
    await tools.fail(role, ask, { code: 'ambiguous_target', message: `Step ${step.index} ("${step.text}"): set "${f.name}", but the editor shows ${saves.length} ways to save (${saves.map((s) => `"${s.name}"`).join(', ')}); say which.` }, 'click');
    return false;
  }
  if (f.role === 'textbox') return act({ action: 'press', key: 'Enter', ref: f.ref } as FlowAction, { ...ask, part: 'press Enter to save (the editor shows no Save)', startedAt: Date.now() });
  return true;
}
