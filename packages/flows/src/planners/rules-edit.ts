import type { AriaNode } from '@ariadne/page';
import type { PlanStep } from '../plan.js';
import type { AskContext, CaseTools, FlowAction } from '../tools.js';
import { verbObjectRef } from './rules-verbs-run.js';
import { controlsOf, textsIn, type Ctl } from './rules-verbs-tree.js';

// "Change my name to Alex Morgan-Reid", "Correct the hotel amount to 289.00": a field that is
// not on the page until its editor is open (a slide-over, a dialog, a grid row in edit mode).
// The route a person takes: the one edit control of the thing named (its row's or card's pencil
// or Edit; for "my ..." the profile's), then the field among what that click brought, then the
// Save among what it brought. Each part is reported; a part with no single answer stops there,
// with nothing guessed.

type Act = (body: FlowAction, a?: AskContext) => Promise<boolean>;

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'listbox', 'spinbutton']);
const LISTS = new Set(['combobox', 'listbox']);
const SAVE_NAMES = /^(?:save|save changes|update|apply|done|ok|confirm|submit)$/i;
const wordsOf = (s: string) => s.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** The readings of "<label>" as what to open and which field: "hotel amount" → hotel's amount. */
export function editReadings(label: string): { item: string; field: string }[] {
  const mine = /^(?:my|our)\s+(.+)$/i.exec(label.trim());
  if (mine) return [{ item: 'profile', field: mine[1] }];
  const words = label.trim().split(/\s+/);
  const out: { item: string; field: string }[] = [];
  // The last word is the field, the words before it the thing ("the hotel amount").
  if (words.length >= 2 && words.length <= 5) out.push({ item: words.slice(0, -1).join(' '), field: words[words.length - 1] });
  return out;
}

/** "Make Omar Farouk an admin", "Make Ana the owner": who, and what they become. */
export function parseMakeRole(step: string): { item: string; value: string } | null {
  const m = /^make\s+(.+?)\s+(?:an?|the)\s+([\p{L}][\p{L}-]*(?:\s+[\p{L}][\p{L}-]*)?)$/iu.exec(step.trim().replace(/[.!]+$/, ''));
  if (!m || /^(?:it|this|that|them|sure|a|an|the)$/i.test(m[1]) || m[1].split(/\s+/).length > 5) return null;
  return { item: m[1].replace(/^["“']|["”']$/g, ''), value: m[2] };
}

/** The options a list in the tree shows (a native select's; a drawn list shows none until open). */
function optionsOf(c: Ctl): string[] {
  const out: string[] = [];
  const walk = (nodes: AriaNode[]) => { for (const n of nodes) if (typeof n !== 'string') { if (n.role === 'option') out.push(String(n.name ?? '')); walk(n.children ?? []); } };
  walk(c.node.children ?? []);
  return out;
}

/**
 * "Make Omar Farouk an admin": the one control that makes it so — in his row already (a role
 * list offering it, a box or switch named so), else in his editor: the radio, box or list
 * there that offers the value (a drawn list whose options show only when open: the editor's
 * only list). Then the editor's save. null when neither his row nor an editor of his has one.
 */
export async function runMakeRole(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, item: string, value: string): Promise<boolean | null> {
  const role = step.role;
  const want = value.toLowerCase();
  const pick = (ctls: Ctl[]): { body: FlowAction; what: string } | null => {
    const named = ctls.filter((c) => ['radio', 'checkbox', 'switch', 'menuitemradio'].includes(c.role) && c.name.trim().toLowerCase() === want);
    if (named.length === 1) return { body: { action: 'check', ref: named[0].ref }, what: `tick "${named[0].name}"` };
    const offering = ctls.filter((c) => LISTS.has(c.role) && optionsOf(c).some((o) => o.trim().toLowerCase() === want));
    if (offering.length === 1) return { body: { action: 'select', ref: offering[0].ref, value }, what: `choose "${value}" in "${offering[0].name}"` };
    return null;
  };
  // In the row already: a role list or box of that row.
  const inRow = await tools.findQuietly(role, [{ phrase: '', role: 'combobox', scope: item, offers: [value] }], 'select', 0);
  if (inRow) return act({ action: 'select', ref: inRow, value }, { ...ask, part: `choose "${value}" in the row of "${item}"` });
  const opened = await openEditor(tools, step, ask, act, item, (fresh) => fresh.some((c) => FIELD_ROLES.has(c.role) || ['radio', 'checkbox', 'switch'].includes(c.role)));
  if (!opened) return opened;
  const { had, fresh } = opened;
  const lists = fresh.filter((c) => LISTS.has(c.role));
  const choice = pick(fresh) ?? (lists.length === 1 && !optionsOf(lists[0]).length ? { body: { action: 'select', ref: lists[0].ref, value } as FlowAction, what: `choose "${value}" in "${lists[0].name}" (the editor's one list)` } : null);
  if (!choice) {
    await tools.fail(role, ask, { code: 'target_not_found', message: `Step ${step.index} ("${step.text}"): opened the editor of "${item}", but nothing it brought offers "${value}" (no box, switch or list of it); nothing was changed.`, details: { item, value } }, 'select');
    return false;
  }
  if (!(await act(choice.body, { ...ask, part: choice.what, startedAt: Date.now() }))) return false;
  // No save shown: the change stands as made (a list that applies on choice).
  return (await saveEditor(tools, step, ask, act, had)) ?? true;
}

/** The editor's one save-like control (among what it brought), clicked; null when it shows none. */
async function saveEditor(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, had: Set<string>): Promise<boolean | null> {
  const after = (await tools.snapshot(step.role)).tree;
  const saves = controlsOf(after).filter((c) => !had.has(c.ref) && ['button', 'link', 'menuitem'].includes(c.role) && SAVE_NAMES.test(c.name.trim()));
  if (saves.length === 1) return act({ action: 'click', ref: saves[0].ref }, { ...ask, part: `save with "${saves[0].name}"`, startedAt: Date.now() });
  if (saves.length > 1) {
    await tools.fail(step.role, ask, { code: 'ambiguous_target', message: `Step ${step.index} ("${step.text}"): the editor shows ${saves.length} ways to save (${saves.map((x) => `"${x.name}"`).join(', ')}); say which.` }, 'click');
    return false;
  }
  return null;
}

/** The controls whose closest container showing every word of `item` is closest to them. */
export function nearestTo(ctls: Ctl[], item: string): Ctl[] {
  const want = wordsOf(item);
  const reach = (c: Ctl): number => {
    for (let d = c.path.length - 1; d >= 0; d--) {
      const words = new Set(textsIn(c.path[d]).flatMap(wordsOf));
      if (want.every((w) => words.has(w))) return c.path.length - d;
    }
    return Infinity;
  };
  const dist = ctls.map(reach);
  const best = Math.min(...dist);
  return best === Infinity ? ctls : ctls.filter((_, i) => dist[i] === best);
}

/**
 * Click the one edit control of `item` and wait (briefly, a few looks) for what it brings until
 * `ready` says so: null when there is no single edit control, false when the click failed.
 */
async function openEditor(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, item: string, ready: (fresh: Ctl[]) => boolean): Promise<{ had: Set<string>; fresh: Ctl[] } | null | false> {
  const role = step.role;
  const edit = await verbObjectRef(tools, role, 'edit', item);
  if (!edit.ok) return null;
  const had = new Set(controlsOf((await tools.snapshot(role)).tree).map((c) => c.ref));
  if (!(await act({ action: 'click', ref: edit.ref }, { ...ask, part: `open the editor of "${item}" (${edit.why})`, startedAt: Date.now() }))) return false;
  // The editor may take a moment to render (an animation, a fetch).
  let fresh: Ctl[] = [];
  for (let i = 0; i < 8; i++) {
    fresh = controlsOf((await tools.snapshot(role)).tree).filter((c) => !had.has(c.ref));
    if (ready(fresh)) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { had, fresh };
}

/** Setting a field to a value: a list's choice, else its text. */
export function valueAction(f: Ctl, value: string): FlowAction {
  return LISTS.has(f.role) ? { action: 'select', ref: f.ref, value } : { action: 'fill', ref: f.ref, value };
}

/** Is this a field a label names (all its words: "name" in "Full name")? */
function fieldNamed(field: string): (c: Ctl) => boolean {
  const want = wordsOf(field);
  return (c) => FIELD_ROLES.has(c.role) && want.length > 0 && want.every((w) => wordsOf(c.name).includes(w));
}

// "my name" is the person's own: "Full name", "Your name", "Display name" are it; "Workspace
// name", "Team name" are another thing's.
const MINE = new Set(['my', 'your', 'full', 'display', 'first', 'last', 'user', 'account', 'profile', 'preferred', 'personal', 'own', 'the']);

/** Fields on the page that are "my <field>": named by its words and, besides them, only words of one's own. */
export function myFields(tree: AriaNode[], field: string): Ctl[] {
  const want = new Set(wordsOf(field));
  return fieldsNamed(tree, field).filter((c) => wordsOf(c.name).every((w) => want.has(w) || MINE.has(w)));
}

/** Fields a label names on the page. */
export function fieldsNamed(tree: AriaNode[], field: string): Ctl[] {
  return controlsOf(tree).filter(fieldNamed(field));
}

/**
 * Open the editor of `item` and set `field` there to `value`, then save. null when there is no
 * single edit control for the item (the caller reports its own miss); true/false once it acted.
 */
export async function runEditThenSet(tools: CaseTools, step: PlanStep, ask: AskContext, act: Act, item: string, field: string, value: string): Promise<boolean | null> {
  const role = step.role;
  const named = fieldNamed(field);
  const opened = await openEditor(tools, step, ask, act, item, (fresh) => fresh.some(named));
  if (!opened) return opened;
  const { had } = opened;
  let fields = opened.fresh.filter(named);
  // Several (a grid re-rendered whole, the new-line row's field too): the one nearest the item's
  // own words (its row's other fields show them as values).
  if (fields.length > 1) fields = nearestTo(fields, item);
  if (fields.length !== 1) {
    await tools.fail(role, ask, {
      code: fields.length ? 'ambiguous_target' : 'target_not_found',
      message: `Step ${step.index} ("${step.text}"): opened the editor of "${item}", but ${fields.length ? `${fields.length} fields it brought are named "${field}"` : `no field it brought is named "${field}"`}; nothing was typed.`,
      details: { item, field },
    }, 'fill');
    return false;
  }
  const f = fields[0];
  if (!(await act(valueAction(f, value), { ...ask, part: `set "${f.name}" to "${value}"`, startedAt: Date.now() }))) return false;
  // Save: the one save-like control the editor brought; none: Enter in a text field (an inline
  // editor that saves on Enter); several: say so.
  const saved = await saveEditor(tools, step, ask, act, had);
  if (saved !== null) return saved;
  if (f.role === 'textbox') return act({ action: 'press', key: 'Enter', ref: f.ref } as FlowAction, { ...ask, part: 'press Enter to save (the editor shows no Save)', startedAt: Date.now() });
  return true;
}
