import { landmarkRole, LOOK_WORDS, parseRating, parseRowAction, parseTarget, type AriaRole, type DescribedTarget } from '@ariadne/page';
import { isAssertionStep } from '../plan.js';
import type { CheckSpec } from '../types.js';
import { countWord, readTimes } from '@ariadne/page';
import { hasObjectPronoun, isBackReference, namedItem, replaceObjectPronoun, ScopeMemory } from './scope-memory.js';
import { actionVerb, parseConfirm, parseFocusedTyping, parseFormShorthand, parsePositional, parseReplaceIn, parseRowMenu, parseSetTo, parseWithControl, type Side } from './rules-wording.js';
import { type BoardStep, parseBoardMove } from './rules-board.js';
import { parseMakeRole } from './rules-edit.js';
import { parseStopSetting } from './rules-setting.js';
import { parseBulk, parsePagination, parseSendFor, parseVerbObject, type PageWhich } from './rules-verbs.js';

// The offline planner (the default): deterministic, no API key. It only turns sentences
// into intents — go to, click, type X into Y, select, check, press, mark X as done, add X,
// delete X, verify ... — and hands each target, parsed (name, kind, scope, landmark,
// ordinal), to the page layer's one resolver (the same one a REST `description` uses),
// which acts only on an element that can take the action. A compound step ("X and press
// Enter", "X, then Y") runs part by part, each part reported. Words it cannot parse are
// never passed on as a target: the step fails `step_not_understood`, saying which part
// it understood and which it did not. This file reads the sentences; rules-planner.ts runs
// the intents.

export type TargetSpec = DescribedTarget;

export type Intent =
  | { kind: 'navigate'; url: string }
  | { kind: 'back' | 'forward' | 'reload' }
  | { kind: 'click' | 'hover' | 'check' | 'uncheck' | 'toggle'; target: TargetSpec; alternatives?: TargetSpec[]; waitMs?: number; double?: boolean; beside?: Beside }
  /** `edit`: "Correct the hotel amount to 289.00" — a value put right, whose field may be behind an editor (rules-edit.ts). */
  | { kind: 'fill'; target: TargetSpec; value: string; beside?: Beside; edit?: string }
  /** "Department: Finance": the control a person reads as the label, set to the value (whatever kind it is). `edit`: said as a change ("Change my name to ..."). */
  | { kind: 'set_field'; label: string; value: string; edit?: string }
  /** "Stop notifications coming to my phone": the one setting whose row says those words, off (rules-setting.ts). */
  | { kind: 'stop_setting'; words: string }
  /** "Start work on the release notes", "Send X back a step": a card to the column the board names so (rules-board.ts). */
  | { kind: 'board_move'; item: string; to: BoardStep }
  /** "Make Omar Farouk an admin": his row's or his editor's control that makes it so (rules-edit.ts). */
  | { kind: 'make_role'; item: string; value: string }
  /** "Type 'X'", "Replace it with 'X'": into the field that has the caret. */
  | { kind: 'type_focused'; value: string; replace: boolean }
  /** "... and confirm (the removal)": the confirming button of the dialog the action opened. */
  | { kind: 'confirm_dialog'; verb: string | null }
  | { kind: 'select'; target: TargetSpec; value: string | string[] }
  /** "Select Kenya [from the list]", "Tick A, B and C": the list that offers the values, else each one's own control. */
  | { kind: 'choose'; values: string[]; list: boolean; tick?: boolean }
  /** "Tick nothing": every ticked box unticked, and the step says none is left ticked. */
  | { kind: 'untick_all' }
  | { kind: 'press'; key: string; target?: TargetSpec }
  | { kind: 'add_item'; value: string }
  | { kind: 'search'; value: string }
  | { kind: 'remove_item'; item: string; verb: string }
  | { kind: 'row_action'; item: string; verb: string; specs: TargetSpec[]; words: string }
  /** "Copy invite link": the control whose name or icon means the verb, by the object's text (rules-verbs.ts). */
  | { kind: 'verb_object'; verb: string; object: string }
  /** "Next page", "page 3": the pager's control. */
  | { kind: 'paginate'; which: PageWhich }
  /** "Delete them", "Archive the selected rows": the bulk control for the ticked rows. */
  | { kind: 'bulk'; verb: string }
  /** "Send Grace Okafor a password reset": the control named by the noun in that person's row or its menu. */
  | { kind: 'send_for'; noun: string; who: string }
  | { kind: 'close_dialog' }
  | { kind: 'drag'; from: string; to: string }
  | { kind: 'upload'; files: string[]; target: TargetSpec }
  | { kind: 'wait_text'; text: string }
  /** "Find Chris's post": the item is on the page (and later steps may say "it", "his post"). */
  | { kind: 'find'; name: string }
  | { kind: 'wait_gone'; text: string }
  | { kind: 'wait_time'; ms: number }
  | { kind: 'wait_stable' }
  | { kind: 'scroll'; direction: 'up' | 'down' | 'top' | 'bottom' }
  | { kind: 'assert'; check: CheckSpec | ElementCheck }
  /** "Confirm the expenses are for company business": no check the planner reads; the box that declares it, if the page has one. */
  | { kind: 'declare'; words: string }
  | { kind: 'login'; user: string; password: string }
  | { kind: 'dialog'; accept: boolean; promptText?: string }
  | { kind: 'sequence'; parts: { text: string; intent: Intent }[] }
  | { kind: 'unknown'; reason: string };

/** "the checkbox before 'Remember me'": the control right beside a text, on that side (rules-positional.ts). */
export interface Beside { kind: string; text: string; side: Side }

/** An element check whose element is still a description (resolved on the snapshot). */
export interface ElementCheck {
  type: 'element_text' | 'element_state' | 'element_value';
  target: TargetSpec;
  text?: string;
  match?: 'contains' | 'words';
  state?: 'checked' | 'unchecked' | 'enabled' | 'disabled' | 'visible' | 'hidden';
  value?: string;
}

export const UNDERSTOOD = 'go to/open <url>, click/tap <element>, type/enter <text> into <field>, fill <field> with <text>, enter <value> as the <field>, select/choose <option(s)> in <dropdown>, check/uncheck/tick/untick/toggle <box>, change/correct <field> [of <item>] to <value> (through its editor when the field is not shown), stop <what a setting is about> (the one switch whose row says it, off), start work on <card>, send <card> back/forward a step, make <person> a/an <role>, mark <item> as done/not done, add <item> (to a list), add <item> to the cart, search for <text>, <verb> <row> (archive/edit/share/like ... Invoice 12: the control named by that verb in the row showing exactly that text), delete/remove <item>, <purpose verb> <object> (any purpose an icon is recognised by — copy/download/share/pin/print/refresh/... — or a verb a control is named by: the control by the object\'s label, row, card or section, e.g. Copy invite link, Disconnect GitHub; "to the clipboard" and the like are dropped), next/previous/first/last page and page N (in the pager), <verb> them / the selected <things> (the bulk control for the ticked rows), send <person> a <thing> (the control named so in that person\'s row or its menu), clear <field>, press <key>, hover <element>, focus <field>, expand/collapse <section>, switch to the <tab> tab, open/close the dialog or menu, drag <a> to <b>, upload/attach <file.pdf> (to <field>), accept/dismiss the dialog, close/dismiss the banner/notice (its ×), a bare control name ("Save"), wait for "<text>" / the page to settle / N seconds, scroll down/up, go back, reload, log in as <user> with <password>, increase/decrease <field> by N, raise <field> to N, click <element> twice, find <the e-mail from X / X\'s post>; dates and numbers as people write them (the page writes them in the field\'s own form); later steps may say her row / his post / it / in it / the same card for the row last named; targets may say "in the navigation/header/footer/sidebar/main/dialog", "in the <X> card/row", "next to X", "X\'s checkbox", "the 2nd/last <kind>", \'labeled "X"\'; steps may be joined with "and <verb>", ", then"; <Label>: <value> (form shorthand); type/enter <value> or replace it with <value> (the focused field); <action> and confirm (the removal); in the <X> dialog, <step>; in the menu/panel that opens, <step>; the checkbox/field before/after/left of/right of "<text>"; open <X>\'s row menu / the menu of <X>; rate N stars; remove the <tag> tag from <row or card>; <verb> the <kind> in X and the <kind> in Y (two steps); and Verify/Check/Assert/Confirm/Ensure "<text>" is visible (exact) / contains "<text>" (substring) / is not visible / the URL contains <x> / the title is <x> / <element> contains "<text>" / <element> is checked';

const KEYS = new Set(['enter', 'return', 'tab', 'escape', 'esc', 'space', 'backspace', 'delete', 'arrowup', 'arrowdown', 'arrowleft', 'arrowright', 'up', 'down', 'left', 'right', 'home', 'end', 'pageup', 'pagedown', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6', 'f7', 'f8', 'f9', 'f10', 'f11', 'f12']);
const KEY_NAMES: Record<string, string> = { esc: 'Escape', escape: 'Escape', enter: 'Enter', return: 'Enter', tab: 'Tab', space: ' ', backspace: 'Backspace', delete: 'Delete', arrowup: 'ArrowUp', arrowdown: 'ArrowDown', arrowleft: 'ArrowLeft', arrowright: 'ArrowRight', up: 'ArrowUp', down: 'ArrowDown', left: 'ArrowLeft', right: 'ArrowRight', home: 'Home', end: 'End', pageup: 'PageUp', pagedown: 'PageDown' };

const QUOTE = /^\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)'|‘([^’]*)’)\s*$/;

/** "X" → X; bare text is trimmed of trailing punctuation. */
export function unquote(s: string): string {
  const m = QUOTE.exec(s);
  if (m) return m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
  return s.trim().replace(/[.!;:,]+$/, '').trim();
}

function isQuoted(s: string): boolean {
  return QUOTE.test(s);
}

export { parseTarget };
export { controlBesideText } from './rules-positional.js';
import { parseUntag } from './rules-tags.js';
import { DECLARATION_NOUN, purposeTarget, rewordPurpose } from './rules-purpose.js';
export { isPurposeVerb, PURPOSE_VERBS } from './rules-verbs.js';

// --- Compound steps -------------------------------------------------------------------

const VERBS = 'click|tap|press|hit|type|enter|input|write|fill|select|choose|pick|check|uncheck|tick|untick|toggle|submit|verify|confirm|assert|ensure|expect|wait|go|navigate|open|close|mark|clear|hover|focus|expand|collapse|scroll|add|remove|delete|switch|reload|refresh|accept|dismiss|drag|upload|attach|log|sign|make sure|double-click|complete';
const SPLIT = new RegExp(String.raw`\s*,?\s+and\s+then\s+|\s*,\s*then\s+|\s+then\s+(?=(?:${VERBS})\b)|\s*;\s*|\s*,?\s+and\s+(?=(?:${VERBS})\b)|\s*,\s+(?=(?:${VERBS})\b)`, 'i');

/** Split a step into its parts, outside quotes: "X and press Enter", "X, then Y". */
export function splitCompound(step: string): string[] {
  // Mask quoted text so "Tom and Jerry" or "Save; then close" stays whole.
  const masks: string[] = [];
  const masked = step.replace(/"[^"]*"|“[^”]*”|‘[^’]*’|(?<![\p{L}\p{N}])'[^']*'(?![\p{L}\p{N}])/gu, (m) => {
    masks.push(m);
    return `\u0000${masks.length - 1}\u0000`;
  });
  // "Tick the checkbox in Grace's row and the checkbox in Lena's row": one verb, two targets of a kind.
  const parts = masked.split(SPLIT).flatMap(sameVerbTwice).map((p) => p.replace(/\u0000(\d+)\u0000/g, (_, i: string) => masks[Number(i)]).trim()).filter(Boolean);
  return parts.length ? parts : [step];
}

const TWO_TARGETS = /^((?:double-)?click|tap|press|hit|tick|check|untick|uncheck)\s+(the\s+.+?)\s+and\s+(?:also\s+)?(the\s+(?:checkbox|check box|tick box|box|button|link|icon|switch|toggle|radio button|star|arrow|×)\b.+)$/i;
function sameVerbTwice(part: string): string[] {
  const m = TWO_TARGETS.exec(part.trim());
  return m ? [`${m[1]} ${m[2]}`, `${m[1]} ${m[3]}`] : [part];
}

/** "A, B and C" outside quotes → [A, B, C]. */
function splitList(s: string): string[] {
  const masks: string[] = [];
  const masked = s.replace(/"[^"]*"|“[^”]*”/g, (m) => {
    masks.push(m);
    return `\u0000${masks.length - 1}\u0000`;
  });
  return masked.split(/\s*,\s*(?:and\s+)?|\s+and\s+/i).map((p) => p.replace(/\u0000(\d+)\u0000/g, (_, i: string) => masks[Number(i)]).trim()).filter(Boolean);
}

// --- Assertions -----------------------------------------------------------------------

function textCheck(raw: string, contains: boolean, hidden = false): CheckSpec {
  const text = unquote(raw);
  return hidden ? { type: 'text_hidden', text, ...(contains ? {} : { match: 'exact' as const }) } : { type: 'text_visible', text, ...(contains ? {} : { match: 'exact' as const }) };
}

function assertionIntent(body: string): Intent {
  let s = body.trim().replace(/[.!]+$/, '');
  s = s.replace(/^(?:that|if|whether)\s+/i, '').replace(/^:\s*/, '');
  let m: RegExpExecArray | null;
  // URL and title.
  if ((m = /^(?:the\s+)?(?:page\s+|current\s+)?url\s+(?:is|equals|should be|=)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'url', op: 'is', value: unquote(m[1]) } };
  if ((m = /^(?:the\s+)?(?:page\s+|current\s+)?url\s+(?:contains|includes|has|ends with|matches)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'url', op: 'contains', value: unquote(m[1]) } };
  if ((m = /^(?:the\s+)?(?:page\s+)?title\s+(?:is|equals|should be)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'title', op: 'is', value: unquote(m[1]) } };
  if ((m = /^(?:the\s+)?(?:page\s+)?title\s+(?:contains|includes|has)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'title', op: 'contains', value: unquote(m[1]) } };
  // "text containing X is visible", "some text contains X": a substring, asked for.
  if ((m = /^(?:a\s+|some\s+)?text\s+(?:containing|that contains|including)\s+(.+?)\s+(?:is|are)\s+(?:visible|shown|displayed|present|on the page)$/i.exec(s))) return { kind: 'assert', check: textCheck(m[1], true) };
  // Negative visibility.
  if ((m = /^(.+?)\s+(?:is|are)\s+(?:not\s+(?:visible|shown|displayed|present|on the page)|hidden|gone|no longer (?:visible|shown))$/i.exec(s))) return { kind: 'assert', check: textCheck(m[1], false, true) };
  if ((m = /^(.+?)\s+(?:disappears|has disappeared|is gone)$/i.exec(s))) return { kind: 'assert', check: textCheck(m[1], false, true) };
  if ((m = /^(?:the\s+)?page\s+(?:does not|doesn't)\s+(contain|show|display|say)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: textCheck(m[2], /contain/i.test(m[1]), true) };
  // Element state / value.
  if ((m = /^(.+?)\s+(?:is|are)\s+(checked|unchecked|not checked|enabled|disabled|selected|ticked|unticked|done|completed|marked as done)$/i.exec(s))) {
    const st = m[2].toLowerCase();
    const state = st === 'not checked' || st === 'unticked' ? 'unchecked' : ['selected', 'ticked', 'done', 'completed', 'marked as done'].includes(st) ? 'checked' : (st as 'checked');
    return { kind: 'assert', check: { type: 'element_state', target: parseTarget(m[1], state === 'checked' || state === 'unchecked' ? 'checkbox' : null), state } };
  }
  if ((m = /^(.+?)\s+(?:has|has the)\s+value\s+(.+)$/i.exec(s))) return { kind: 'assert', check: { type: 'element_value', target: parseTarget(m[1], 'textbox'), value: unquote(m[2]) } };
  // Positive visibility.
  if ((m = /^(.+?)\s+(?:is|are)\s+(?:visible|shown|displayed|present|on the page|on screen)$/i.exec(s))) return { kind: 'assert', check: textCheck(m[1], false) };
  if ((m = /^(.+?)\s+(?:appears|is showing)$/i.exec(s))) return { kind: 'assert', check: textCheck(m[1], false) };
  if ((m = /^(?:the\s+)?(?:page|screen)\s+(contains|includes|shows|displays|says|has|reads)\s+(.+)$/i.exec(s))) return { kind: 'assert', check: textCheck(m[2], /contains|includes/i.test(m[1])) };
  if ((m = /^(?:i|you|we)\s+(?:can\s+)?see\s+(.+)$/i.exec(s))) return { kind: 'assert', check: textCheck(m[1], false) };
  if ((m = /^there\s+is\s+(.+)$/i.exec(s))) return { kind: 'assert', check: textCheck(m[1], false) };
  // Element text: "the cart link shows "Cart (1)"", "the Total contains $25".
  if ((m = /^(.+?)\s+(contains|shows|says|reads|displays|has text|includes|equals|is)\s+(.+)$/i.exec(s))) {
    // "contains/includes" asks for a substring; "is/shows/says" for the value as a whole word
    // ("status is Paid" does not pass on "Unpaid").
    const match = /^(?:contains|includes)$/i.test(m[2]) ? 'contains' : 'words';
    return { kind: 'assert', check: { type: 'element_text', target: parseTarget(m[1]), text: unquote(m[3]), match } };
  }
  // A bare quoted text: it is on the page.
  if (isQuoted(s)) return { kind: 'assert', check: textCheck(s, false) };
  return { kind: 'unknown', reason: `it is an assertion, but not one of the forms the rules planner checks` };
}

// --- Values ---------------------------------------------------------------------------

/** "hello in upper case" → HELLO; the modifier words never reach the field. */
function valueWithModifiers(raw: string): string {
  // "the code ABC-123": the value is the code, not the words that introduce it.
  const intro = /^(?:the\s+)?(?:code|text|value|word|number|string|coupon|promo code|password|pin)\s+("[^"]*"|“[^”]*”|\S+)$/i.exec(raw.trim());
  if (intro) return unquote(intro[1]);
  const m = /^(.+?)\s+(?:in\s+)?(upper ?case|uppercase|capitals|capital letters|all caps|lower ?case|lowercase)$/i.exec(raw.trim());
  if (!m) return unquote(raw);
  const v = unquote(m[1]);
  return /upper|capital|caps/i.test(m[2]) ? v.toUpperCase() : v.toLowerCase();
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** "May 20, 2024" / "20 May 2024" → "05/20/2024" (the form date fields and their checks read); else null. */
export function monthNameDate(raw: string): string | null {
  const s = unquote(raw);
  let m = /^([A-Za-z]{3,})\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})$/.exec(s);
  let month = m ? m[1] : '', day = m ? m[2] : '', year = m ? m[3] : '';
  if (!m && (m = /^(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]{3,})\.?,?\s+(\d{4})$/.exec(s))) [day, month, year] = [m[1], m[2], m[3]];
  if (!m) return null;
  const i = MONTHS.indexOf(month.slice(0, 3).toLowerCase());
  if (i < 0 || Number(day) < 1 || Number(day) > 31) return null;
  return `${String(i + 1).padStart(2, '0')}/${day.padStart(2, '0')}/${year}`;
}

const FILE_NAME = /^[^\s/\\]+\.[A-Za-z0-9]{1,5}$/;

/** A list "A, B and C" → [A, B, C]. */
function listOf(raw: string): string[] {
  return raw.split(/\s*,\s*(?:and\s+)?|\s+and\s+/i).map((x) => unquote(x)).filter(Boolean);
}

/** A small valid file of the name's type (PDF, PNG, text) for a plan that names a file to upload. */
export function standInFile(name: string): { name: string; mimeType: string; contentBase64: string } {
  const ext = (/\.([A-Za-z0-9]+)$/.exec(name)?.[1] ?? '').toLowerCase();
  const text = (t: string, mimeType: string) => ({ name, mimeType, contentBase64: Buffer.from(t).toString('base64') });
  switch (ext) {
    case 'pdf': return text('%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'application/pdf');
    case 'png': return { name, mimeType: 'image/png', contentBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==' };
    case 'csv': return text('name,value\nexample,1\n', 'text/csv');
    case 'json': return text('{"example":true}\n', 'application/json');
    case 'txt': case 'md': case 'log': return text(`stand-in file ${name}\n`, 'text/plain');
    default: return text(`stand-in file ${name}\n`, 'application/octet-stream');
  }
}

const FILTER_SYNONYMS: string[][] = [['completed', 'complete', 'done', 'finished'], ['active', 'open', 'remaining', 'pending', 'to do', 'todo'], ['all', 'everything', 'any']];

/** The filter control named by the word, or by a word people use for it ("done" → Completed). */
function filterTargets(word: string): { target: TargetSpec; alternatives: TargetSpec[] } {
  const w = word.trim();
  const group = FILTER_SYNONYMS.find((g) => g.includes(w.toLowerCase()));
  const names = [w, ...(group ?? []).filter((x) => x !== w.toLowerCase())].map((x) => x[0].toUpperCase() + x.slice(1));
  const specs = names.map((phrase): TargetSpec => ({ phrase, role: null, strict: true }));
  return { target: specs[0], alternatives: specs.slice(1) };
}

// --- Several fields at once -----------------------------------------------------------

const ROLE_NOUNS_ANY = /\b(?:button|btn|link|tab|checkbox|check box|radio|icon|field|box|input|textbox|row|item|card|menu|option|dropdown|list)\b/i;
const ORD_WORDS = ['first', 'second', 'third', 'fourth', 'fifth', 'sixth'];

/**
 * "Put the user name "x" and the password "y" into the boxes": one fill per named field;
 * "Type "a" and "b" into the text fields": the values into the fields of that kind, in
 * reading order; "Type the code "k" into both boxes": the one value into each of two. Each
 * part is a sentence of its own, so the report shows what went where. Null otherwise.
 */
function severalFields(s: string): Intent | null {
  const m = /^(put|type|enter|write|fill in|input)\s+(.+?)\s+(?:into|in|in to|on)\s+(?:the\s+|both\s+(?:the\s+)?|all\s+(?:the\s+)?)?((?:text |input |blank |empty )?(?:boxes|fields|inputs|text ?boxes|blanks|entries|form))$/i.exec(s);
  if (!m) return null;
  const both = /\s(?:into|in|in to|on)\s+both\s/i.test(s);
  const noun = m[3].toLowerCase().replace(/^form$/, 'fields');
  const items = splitList(m[2]);
  const parsed = items.map((it) => {
    const q = /^(?:(?:the|my|your)\s+)?(.*?)\s*("[^"]*"|“[^”]*”)$/.exec(it.trim());
    return q ? { field: q[1].replace(/^(?:code|text|value|word)$/i, '').trim(), value: unquote(q[2]) } : null;
  });
  if (parsed.some((p) => !p)) return null;
  const vals = parsed as { field: string; value: string }[];
  // "both boxes" with one value: that value into each of the two.
  const list = both && vals.length === 1 ? [vals[0], vals[0]] : vals;
  if (list.length < 2) return null;
  const kindWord = /^text\s/.test(noun) ? 'text field' : 'field';
  const parts = list.map((v, i) => {
    const text = v.field ? `Type "${v.value}" into the ${v.field} field` : `Type "${v.value}" into the ${ORD_WORDS[i] ?? `${i + 1}th`} ${kindWord}`;
    return { text, intent: interpretOne(text) };
  });
  return { kind: 'sequence', parts };
}

// --- One sentence → one intent ---------------------------------------------------------

/** Interpret one step (compound steps become a sequence). Pure: unit-tested without a browser. */
export function interpret(step: string): Intent {
  return openAndPick(interpretWords(step));
}

/**
 * "Open the Role drop-down and pick Admin": one select of Admin in that list (its choices read
 * as they show when it opens), not a click and then a look for "Admin" anywhere on the page.
 */
function openAndPick(intent: Intent): Intent {
  if (intent.kind !== 'sequence') return intent;
  const parts: typeof intent.parts = [];
  for (let i = 0; i < intent.parts.length; i++) {
    const open = intent.parts[i];
    const pick = intent.parts[i + 1];
    const list = /^(?:open|click|tap|expand)\s+(?:on\s+)?(?:the\s+)?.+?\s+(?:drop-?down(?:\s+list)?|select(?:\s+box)?|list\s?box|picker|combo\s?box)$/i.test(open.text);
    const value = pick && (pick.intent.kind === 'choose' && pick.intent.values.length === 1 && !pick.intent.tick ? pick.intent.values[0]
      : pick.intent.kind === 'click' && pick.intent.target.role === 'option' ? pick.intent.target.phrase : null);
    if (list && value && open.intent.kind === 'click') {
      parts.push({ text: `${open.text} and ${pick.text}`, intent: { kind: 'select', value, target: { ...open.intent.target, role: 'combobox' } } });
      i++;
    } else parts.push(open);
  }
  return parts.length === 1 ? parts[0].intent : { ...intent, parts };
}

function interpretWords(step: string): Intent {
  const s = step.trim().replace(/^[*_`]+|[*_`]+$/g, '').trim();
  // "Lena Voss should be active again — switch her on", "Put X away in the archive": the same
  // step in the planner's own wording (rules-purpose.ts).
  const reworded = rewordPurpose(s);
  if (reworded && reworded !== s) return interpret(reworded);
  // "In the Invite dialog that opens, click Send": the step, inside that dialog.
  const inDialog = dialogLead(s);
  if (inDialog) return inDialog;
  // "In the menu that opens, choose Remove member", "In the Edit profile panel that slides in
  // from the right, clear Full name": where the last step put what this one acts on; the step
  // itself (its target must still be the only one of its name on the page).
  const transient = /^(?:in|inside|within|on|from)\s+(?:the\s+|this\s+|that\s+)?(?:(.+?)\s+)?(?:menu|panel|side ?panel|drawer|sheet|slide-?over|popover|drop-?down|flyout)(\s+(?:that|which)\s+(?:opens|opened|appears|appeared|pops up|slides in|slid in|shows|is open)(?:\s+from\s+the\s+(?:right|left|top|bottom))?)?\s*,\s*(.+)$/i.exec(s);
  if (transient && (transient[2] || !transient[1]) && !isAssertionStep(s)) return interpret(transient[3]);
  // "For the user @u, click Like": the scope comes first.
  const lead = /^(?:for|in|on|within|inside)\s+(?:the\s+)?(?:user|item|row|card|product|post|entry|section)?\s*(.+?),\s*(.+)$/i.exec(s);
  if (lead && !isAssertionStep(s)) {
    const inner = interpret(lead[2]);
    // "In the main navigation, ...": a landmark; "In the Advanced section, ...": the section's name.
    const landmark = landmarkRole(lead[1].replace(/\s+(?:bar|area|region)$/i, ''));
    // "In the '2 selected' bar that appears above the table, ...": the bar by what it shows.
    const where = lead[1].replace(/\s+(?:that|which)\s+(?:appears|appeared|shows|showed up|pops up|is shown|sits)\b.*$/i, '').replace(/\s+(?:above|below|over|under|at\s+the\s+(?:top|bottom)\s+of)\s+the\s+(?:table|list|page|grid|rows)$/i, '');
    const scope = unquote(where.replace(/\s+(?:section|panel|card|row|item|tab|menu|area|box|group|form|column|bar|banner|strip|toolbar)$/i, '').replace(/^(?:for|of|with|by)\s+(?:the\s+)?(?:user\s+)?/i, ''));
    if ('target' in inner && inner.target && !inner.target.scope && !inner.target.landmark) return { ...inner, target: landmark ? { ...inner.target, landmark } : { ...inner.target, scope } } as Intent;
  }
  // "Enter Ann as the first name, Lee as the last name and ann@x.io as the email": one fill per field.
  const multi = /^(enter|type|input|fill in|set)\s+/i.exec(s);
  if (multi && (s.match(/\s+as\s+(?:the|my|your)\s+/gi)?.length ?? 0) >= 2) {
    const pieces = splitCompound(s).flatMap((p) => splitList(p));
    const parts = pieces.map((p, i) => (i > 0 && /\s+as\s+(?:the|my|your)\s+/i.test(p) && !new RegExp(`^(?:${VERBS})\\b`, 'i').test(p) ? `${multi[1]} ${p}` : p));
    return { kind: 'sequence', parts: parts.map((text) => ({ text, intent: interpretOne(text) })) };
  }
  // "Fill To with a@b.c, Subject with Lunch and the message with Hi": one fill per field, never
  // the whole rest of the sentence as the first field's value.
  const fills = /^(fill(?:\s+in|\s+out)?)\s+/i.exec(s);
  if (fills && (s.replace(/"[^"]*"|“[^”]*”/g, '').match(/\s+with\s+/gi)?.length ?? 0) >= 2) {
    const pieces = splitList(s.slice(fills[0].length)).map((p) => p.trim()).filter(Boolean);
    if (pieces.length >= 2 && pieces.every((p) => /\s+with\s+/i.test(p.replace(/"[^"]*"|“[^”]*”/g, '')))) {
      return { kind: 'sequence', parts: pieces.map((p) => `${fills[1]} ${p}`).map((text) => ({ text, intent: interpretOne(text) })) };
    }
  }
  const parts = splitCompound(s).flatMap(sentences).map(withoutConnective);
  if (parts.length > 1) {
    const out = parts.map((text) => ({ text, intent: interpretOne(text) }));
    // "Remove Ann and confirm": the confirming button may be named by the action's verb.
    out.forEach((p, i) => {
      if (p.intent.kind === 'confirm_dialog' && !p.intent.verb && i > 0) p.intent = { ...p.intent, verb: actionVerb(out[i - 1].text) };
    });
    return { kind: 'sequence', parts: out };
  }
  return interpretOne(parts[0] ?? s);
}

/** Kinds of intent that act on a target a dialog can scope. */
const TARGETED = new Set(['click', 'hover', 'check', 'uncheck', 'toggle', 'fill', 'select', 'press']);

/**
 * "In the Invite dialog that opens, type a@b.c into Email", "In the dialog, click OK": each part
 * scoped to the open dialog (and to its title, when one is named). A part that names no target
 * the dialog can scope (a list choice by value alone) is refused rather than run page-wide.
 */
function dialogLead(s: string): Intent | null {
  const m = /^(?:in|inside|within|on)\s+(?:the\s+|this\s+|that\s+)?(?:(.+?)\s+)?(?:dialog box|dialog|modal|pop-?up|popup window|alert)(?:\s+(?:that|which)\s+(?:opens|opened|appears|appeared|pops up|popped up|shows|is open|is shown))?\s*,\s*(.+)$/i.exec(s);
  if (!m || isAssertionStep(s)) return null;
  const title = m[1] ? unquote(m[1].replace(/^(?:the|a|an)\s+/i, '')) : '';
  const scope = title && !/^(?:confirm(?:ation)?|open|new|this|that|same|next)$/i.test(title) ? title : undefined;
  const inner = interpret(m[2]);
  const fix = (i: Intent, text: string, afterOpen = false): Intent => {
    if (i.kind === 'sequence') return { ...i, parts: i.parts.map((p, k) => ({ ...p, intent: fix(p.intent, p.text, k > 0 && /\b(?:drop-?down|list|select|picker|menu)\b/i.test(i.parts[k - 1].text)) })) };
    if (i.kind === 'unknown' || i.kind === 'confirm_dialog' || i.kind === 'wait_text' || i.kind === 'wait_gone' || i.kind === 'wait_time' || i.kind === 'wait_stable' || i.kind === 'type_focused') return i;
    if (i.kind === 'press' && !i.target) return i;
    // "open the Role drop-down and pick Admin": the option of the list just opened (its
    // overlay may sit outside the dialog), by its whole name.
    if (afterOpen && i.kind === 'choose' && i.values.length === 1 && !i.tick) return { kind: 'click', target: { phrase: i.values[0], role: 'option', quoted: true }, alternatives: [{ phrase: i.values[0], role: null, quoted: true, strict: true, landmark: 'dialog' }] };
    if (!TARGETED.has(i.kind) || !('target' in i) || !i.target) return { kind: 'unknown', reason: `"${text}" names no control the dialog can hold; name it (e.g. "click Admin")` };
    const t = i.target;
    const scoped = (x: TargetSpec): TargetSpec => ({ ...x, landmark: 'dialog', ...(scope && !x.scope ? { scope } : {}) });
    return { ...i, target: scoped(t), ...('alternatives' in i && i.alternatives ? { alternatives: i.alternatives.map(scoped) } : {}) } as Intent;
  };
  return fix(inner, m[2]);
}

/** "Find Chris's post. Like it.": one sentence per part, outside quotes (not after Mr., Dr., e.g.). */
function sentences(step: string): string[] {
  if (isAssertionStep(step)) return [step];
  const masks: string[] = [];
  const masked = step.replace(/"[^"]*"|“[^”]*”/g, (m) => {
    masks.push(m);
    return `\u0000${masks.length - 1}\u0000`;
  });
  const out = masked.split(/(?<!\b(?:Mr|Mrs|Ms|Dr|St|Jr|Sr|vs|etc|e\.g|i\.e|No|Inc|Ltd|Co))[.!]\s+(?=[A-Z\u0000])/).map((p) => p.replace(/\u0000(\d+)\u0000/g, (_, i: string) => masks[Number(i)]).trim()).filter(Boolean);
  return out.length ? out : [step];
}

/** "Then share his post", "And press Save", "Next, click OK": the connective is not part of the step. */
function withoutConnective(part: string): string {
  return part.replace(/^(?:and\s+then|then|and|next(?!\s+page\b)|finally|after that|afterwards|now)\b,?\s+(?=\S)/i, '');
}

function interpretOne(step: string): Intent {
  // "the date field (mm/dd/yyyy)": the format a person read off the field is not part of its name
  // (the page layer reads the format from the field itself).
  let s = step.trim().replace(/[.!]+$/, '').trim().replace(/\s*\((?:e\.g\.\s*)?(?:[dmyjat]{1,4}[/.\- ]){2}[dmyjat]{2,4}\)/gi, '');
  // "Turn off Tom's account so he is no longer active": why it is done is not what to do.
  s = s.replace(/^(\S+(?:\s+\S+){1,})\s+(?:so\s+(?:that\s+)?(?:he|she|it|they|we|i|you|his|her|its|their|the|this|that|nobody|no one)\b|because\b|in order to\b).*$/i, '$1');
  let m: RegExpExecArray | null;
  if ((m = /^confirm\s+(?:with|by clicking|by pressing)\s+(.+)$/i.exec(s))) return { kind: 'click', target: parseTarget(m[1]) };
  // "Tick the confirmation": the box whose sentence says "I confirm ...", unless one is named so.
  if (DECLARATION_NOUN.test(s)) return { kind: 'declare', words: s };
  // "Confirm the expenses are for company business", "Open the page for attaching receipts".
  const purpose = purposeTarget(s);
  if (purpose) return purpose;
  // "Confirm", "confirm the removal": the dialog the last action opened (never an assertion).
  const confirm = parseConfirm(s);
  if (confirm) return { kind: 'confirm_dialog', verb: confirm.verb };
  // "Department: Finance", "Confirm password: x": form shorthand, whatever kind of control the label is.
  const form = parseFormShorthand(s, VERBS);
  if (form) return { kind: 'set_field', label: form.label, value: form.value };
  if (isAssertionStep(s)) {
    const a = assertionIntent(s.replace(/^(?:verify|assert|confirm|ensure|expect|make sure|check)\b\s*:?\s*/i, ''));
    // "Confirm the expenses are for company business": a declaration the page may ask for.
    return a.kind === 'unknown' && /^(?:confirm|declare|certify)\s/i.test(s) ? { kind: 'declare', words: s } : a;
  }
  // "Stop notifications coming to my phone".
  const stop = parseStopSetting(s);
  if (stop) return { kind: 'stop_setting', words: stop.words };
  // "Start work on the release notes", "Send Cookie banner copy back a step".
  const board = parseBoardMove(s);
  if (board) return { kind: 'board_move', item: board.item, to: board.to };
  // "Make Omar Farouk an admin".
  const make = parseMakeRole(s);
  if (make) return { kind: 'make_role', item: make.item, value: make.value };
  // "Type 'X'", "Replace it with 'X'": into the field the caret is in.
  const focused = parseFocusedTyping(s);
  if (focused) return { kind: 'type_focused', value: focused.value, replace: focused.replace };
  // "Deactivate Lee Chen with the green switch in his row", "Close the editor with the × at the
  // top right": the control named after "with" does what the words before it say.
  const means = parseWithControl(s);
  if (means) {
    const target = parseTarget(means.control);
    const box = target.role === 'switch' || target.role === 'checkbox';
    if (box && /^(?:turn on|switch on|activate|enable|tick|tick off|check|select)$/.test(means.verb)) return { kind: 'check', target };
    if (box && /^(?:turn off|switch off|deactivate|disable|untick|uncheck|deselect)$/.test(means.verb)) return { kind: 'uncheck', target };
    return { kind: 'click', target };
  }
  // "Set Role to Admin", "Choose Viewer under Role": as "Role: Admin", whatever the control's kind.
  const setTo = parseSetTo(s);
  if (setTo) {
    // Said as a change of something ("Change my name to ..."): the words, "my" kept, for the editor route.
    const change = /^(?:set|change|update|correct|amend|adjust|modify)\s+(?:the\s+)?((?:my|our|your)\s+)?/i.exec(s);
    return { kind: 'set_field', label: setTo.label, value: setTo.value, ...(change ? { edit: `${change[1] ? 'my ' : ''}${setTo.label}` } : {}) };
  }
  // "Replace 245.00 with 289.00 in the amount box": the field showing the old value.
  const replace = parseReplaceIn(s);
  if (replace) {
    const named = parseTarget(replace.field, 'textbox');
    return { kind: 'fill', value: replace.value, target: { ...named, role: named.role ?? 'textbox', showing: replace.old } };
  }
  // "Tick the checkbox before 'Remember me'", "Type 5 into the field left of 'kg'": the control beside the text.
  const beside = besideIntent(s);
  if (beside) return beside;
  // "Open Ann's row menu", "Open the menu of Invoice 12": that row's own ⋯ / More menu.
  const rowMenu = parseRowMenu(s);
  if (rowMenu) {
    const specs: TargetSpec[] = [{ phrase: 'more actions', role: null, scope: rowMenu }, { phrase: '⋯ menu', role: null, scope: rowMenu }, ...['Actions', 'Options', 'More', 'Menu'].map((phrase): TargetSpec => ({ phrase, role: 'button', scope: rowMenu, strict: true }))];
    return { kind: 'click', target: specs[0], alternatives: specs.slice(1) };
  }
  // "Remove the contractor tag from Lena Vogel": the × on that tag in her row.
  const untag = parseUntag(s);
  if (untag) return { kind: 'click', target: untag[0], alternatives: untag.slice(1) };
  // "... when it appears": the plan asks to wait for the target.
  let waitMs: number | undefined;
  const w = /\s+(?:when|once|as soon as)\s+(?:it|they)\s+(?:appears?|(?:is|are)\s+(?:visible|shown|ready|enabled)|loads?)$/i.exec(s);
  if (w) {
    waitMs = 10_000;
    s = s.slice(0, w.index);
  }
  // "Click the up arrow again", "Press Save once more": the same action, once.
  s = s.replace(/\s+(?:again|once more|one more time)$/i, '');
  if (/^(?:go|navigate|browse)\s+back(?:\s+to\s+the\s+previous\s+page)?$/i.test(s) || /^back$/i.test(s)) return { kind: 'back' };
  if (/^(?:go\s+)?forward$/i.test(s)) return { kind: 'forward' };
  if (/^(?:reload|refresh)(?:\s+the\s+page)?$/i.test(s)) return { kind: 'reload' };
  // "Next page", "Go to the previous page", "page 3": the pager's control (never the browser's back).
  const pageWhich = parsePagination(s);
  if (pageWhich !== null) return { kind: 'paginate', which: pageWhich };
  // "Delete them", "Bulk remove them", "Archive the selected invoices": the bulk control for the ticked rows.
  const bulk = parseBulk(s);
  if (bulk) return { kind: 'bulk', verb: bulk.verb };
  // "Send Grace Okafor a password reset": a control named "Reset password" in her row or its menu.
  const sendFor = parseSendFor(s);
  if (sendFor) return { kind: 'send_for', noun: sendFor.noun, who: sendFor.who };
  // Dialogs (alert, confirm, prompt) the last action opened, or a modal on the page.
  if ((m = /^(accept|dismiss|cancel)\s+(?:the\s+)?(?:dialog|alert|prompt|confirm(?:ation)?|pop-?up)(?:\s+(?:with|typing|answering)\s+(.+))?$/i.exec(s))) {
    return { kind: 'dialog', accept: /^accept$/i.test(m[1]), ...(m[2] ? { promptText: unquote(m[2]) } : {}) };
  }
  if (/^close\s+(?:the\s+)?(?:dialog|modal|pop-?up|alert)$/i.test(s)) return { kind: 'close_dialog' };
  // "Dismiss the newsletter dialog", "Close the cookie popup": the open modal's close control.
  if (/^(?:close|dismiss)\s+(?:the\s+)?[\w -]+?\s+(?:dialog|modal|pop-?up|popup window)$/i.test(s)) return { kind: 'close_dialog' };
  // "Dismiss the banner", "Close the 'Northwind 2.0' announcement", "Hide the cookie notice":
  // the close control (×, Close, Dismiss) of a notice on the page — in the one that shows the
  // words when some are given, else the only close control there is (several: ambiguous).
  if ((m = /^(?:close|dismiss|hide|get rid of)\s+(?:the\s+)?(.*?)\s*\b(banner|bar|notice|notification|alert|message|announcement|toast|tip|callout|info box|flash|strip)(?:\s+(?:at|on|in)\s+the\s+(?:very\s+)?(?:top|bottom)(?:\s+of\s+the\s+(?:page|screen))?)?$/i.exec(s))) {
    const words = unquote(m[1].replace(LOOK_WORDS, '').replace(/\s+(?:at|on|in)\s+the\s+(?:top|bottom)(?:\s+of\s+the\s+page)?$/i, '').trim());
    const scope = words && !/^(?:top|bottom|purple|blue|yellow|red|green)$/i.test(words) ? { scope: words } : {};
    // The words a person read off the notice may be only part of its text: then the only close control there is (several: ambiguous).
    const loose: TargetSpec[] = 'scope' in scope ? [{ phrase: 'close', role: null, icon: true }] : [];
    return { kind: 'click', target: { phrase: 'close', role: null, icon: true, ...scope }, alternatives: [{ phrase: 'dismiss', role: null, ...scope }, { phrase: 'close', role: 'button', ...scope }, ...loose] };
  }
  if ((m = /^(?:answer|fill)\s+(?:the\s+)?prompt\s+with\s+(.+)$/i.exec(s))) return { kind: 'dialog', accept: true, promptText: unquote(m[1]) };
  // "Open the e-mail from Rochelle Park": the message's own link in the row that shows the name, when no control is named so.
  // "Submit Claim", "Open Ticket": first a control named with the verb ("Submit Claim"), else the object.
  if ((m = /^([Ss]ubmit|[Oo]pen)\s+([A-Z][\p{L}-]*(?:\s+[\p{L}-]+){0,2})$/u.exec(s)) && !/^(?:the|a|an|my|this|it)\b/i.test(m[2]) && !/\s(?:menu|drop-?down|submenu|section|panel|accordion|drawer|tab)$/i.test(m[2])) {
    return { kind: 'click', target: { phrase: `${m[1]} ${m[2]}`, role: null, strict: true }, alternatives: [parseTarget(m[2])], ...(waitMs ? { waitMs } : {}) };
  }
  if ((m = /^(?:open|read|view)\s+(?:the\s+)?(?:e-?mail|mail|message|conversation|thread)\s+(?:sent\s+)?(?:from|by)\s+(.+)$/i.exec(s))) {
    return { kind: 'click', target: parseTarget(s.replace(/^(?:open|read|view)\s+/i, '')), alternatives: [{ phrase: '', role: 'link', scope: unquote(m[1]) }] };
  }
  if ((m = /^(?:go to|open|navigate to|visit|load|browse to)\s+(.+)$/i.exec(s))) {
    const arg = unquote(m[1].replace(/^the\s+(?:url|page|address)\s+/i, ''));
    if (/^(https?:\/\/|\/|\.\.?\/)|^[\w.-]+\.(html?|php|aspx?)\b|^about:blank$/i.test(arg)) return { kind: 'navigate', url: arg };
    // "Open the Actions menu", "Open the Advanced section": the control that opens it.
    const route = /^(?:the\s+)?(.+?)\s+(menu|drop-?down|submenu|section|panel|accordion|drawer|tab)$/i.exec(m[1]);
    if (route && !/^(?:the|a|an|main|navigation|side|hamburger|nav|site|user|account)$/i.test(route[1])) return { kind: 'click', target: { ...parseTarget(route[1]), ...(/^tab$/i.test(route[2]) ? { role: 'tab' as AriaRole } : {}) }, ...(waitMs ? { waitMs } : {}) };
    // "Open the cart", "Open the Settings menu": a link or button to follow.
    return { kind: 'click', target: parseTarget(m[1]), ...(waitMs ? { waitMs } : {}) };
  }
  if ((m = /^log\s*in\s+as\s+(.+?)\s+(?:with|using)\s+(?:the\s+)?(?:password\s+)?(.+)$/i.exec(s))) return { kind: 'login', user: unquote(m[1]), password: unquote(m[2]) };
  // Several values into several fields at once: "Put the user name "x" and the password "y" into
  // the boxes", "Type "a" and "b" into the text fields", "Type the code "k" into both boxes".
  const many = severalFields(s);
  if (many) return many;
  // A bare "submit" / "sign in": the form's button.
  if (/^(?:submit|send)(?:\s+(?:it|the\s+form|the\s+answer|the\s+page))?$/i.test(s)) {
    const names = ['Submit', 'Send', 'OK', 'Go', 'Save', 'Continue', 'Done', 'Confirm'];
    return { kind: 'click', target: { phrase: names[0], role: 'button' }, alternatives: names.slice(1).map((phrase) => ({ phrase, role: 'button' as AriaRole, strict: true })) };
  }
  if ((m = /^(sign|log)\s*(in|on|up)$/i.exec(s))) {
    const names = m[2].toLowerCase() === 'up' ? ['Sign up', 'Register', 'Create account'] : ['Sign in', 'Log in', 'Login', 'Sign on', 'Submit'];
    return { kind: 'click', target: { phrase: names[0], role: 'button' }, alternatives: names.slice(1).map((phrase) => ({ phrase, role: 'button' as AriaRole })) };
  }
  // "Tick nothing", "Select none": every ticked box unticked.
  if (/^(?:tick|check|select|choose|pick)\s+(?:nothing|none|no (?:boxes|options|checkboxes|items))(?:\s+(?:at all|of them))?$/i.test(s)) return { kind: 'untick_all' };
  // "Select Kenya from the list", "Choose Medium", "Select A, B and C", "Tick A, B and C": a
  // choice named by its value, in whichever list offers it (a list the words name by no name).
  if ((m = /^(select|choose|pick|tick|check)\s+(.+?)(\s+(?:from|in|on)\s+(?:the\s+|a\s+)?(?:list|drop-?down|dropdown|options|choices|select(?:\s+box)?|picker|selector))?$/i.exec(s))) {
    const tick = /^(?:tick|check)$/i.test(m[1]);
    const list = Boolean(m[3]);
    const bare = m[2].replace(/"[^"]*"|“[^”]*”/g, ' ');
    // Values only: no kind of control, no place ("Choose Canada as the country", "Select the row for ...").
    const plain = !ROLE_NOUNS_ANY.test(bare) && !/\s(?:as|in|from|for|into|on|next to|beside|of|to)\s/i.test(` ${bare} `) && !/^(?:the|all|everything)\b/i.test(bare.trim());
    // "Tick both A and B", "Select all of A, B and C": the count word is no part of the first value.
    const values = splitList(m[2].replace(/^(?:both|each of|all of|all three of|the two)\s+(?=\S)/i, '')).map((v) => unquote(v)).filter(Boolean);
    if (plain && values.length && (values.length > 1 || !tick)) return { kind: 'choose', values, list, ...(tick ? { tick } : {}) };
  }
  if ((m = /^add\s+(?:the\s+|a\s+|an\s+|one\s+)?(.+?)\s+to\s+(?:the\s+|my\s+)?(?:cart|basket|bag)$/i.exec(s))) {
    return { kind: 'click', target: { phrase: 'Add to cart', role: 'button', scope: unquote(m[1]) } };
  }
  // "Add to Cart in the Desk Lamp card": a control whose name starts with "Add to".
  if (/^add\s+to\s+(?!(?:the\s+|my\s+)?(?:list|todos?|tasks?)\b)/i.test(s)) return { kind: 'click', target: parseTarget(s), ...(waitMs ? { waitMs } : {}) };
  // "Add a todo "Buy milk"", "Add Buy milk to the list": type it into the list's input.
  if ((m = /^add\s+(?:a\s+|an\s+|the\s+)?(?:new\s+)?(?:(?:todo|to-do|task|item|entry|note|row)s?\s*(?:called|named|:)?\s+)?(.+?)(?:\s+(?:to|in|into)\s+(?:the\s+|my\s+)?(?:list|todos?|to-do list|todo list|tasks?|items?))?$/i.exec(s))) {
    return { kind: 'add_item', value: unquote(m[1]) };
  }
  // "Search for lamp", "Search the catalog for "desk lamp"": type it into the search box and submit it.
  if ((m = /^search\s+(?:(?:the|this|our|my)\s+[\w -]+?\s+for|for)\s+(.+)$/i.exec(s)) || (m = /^search\s+(?!(?:the|for|in|on)\b)(.+)$/i.exec(s))) {
    const v = m[1].replace(/\s+(?:in|using|with)\s+(?:the\s+)?(?:search\s*(?:box|field|bar|input)|searchbox)$/i, '');
    if (!isQuoted(v) && /\s+(?:in|on|inside|within|from|using)\s+(?:the|a|an|my)\s+/i.test(v)) return { kind: 'unknown', reason: `a search is typed into the page's search box; "${v}" names another place` };
    return { kind: 'search', value: valueWithModifiers(v) };
  }
  if ((m = /^wait\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)$/i.exec(s)) || (m = /^wait\s+for\s+(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?)$/i.exec(s))) {
    const n = Number(m[1]);
    return { kind: 'wait_time', ms: Math.round(/^ms|milli/i.test(m[2]) ? n : n * 1000) };
  }
  if (/^wait\s+(?:for\s+)?(?:the\s+)?(?:page|network|app|ui|screen)?\s*(?:to\s+)?(?:load|settle|be stable|stabilize|stabilise|finish loading|be idle|idle)(?:\s+(?:to\s+)?(?:load|settle))?$/i.test(s) || /^wait\s+for\s+(?:the\s+)?page$/i.test(s)) return { kind: 'wait_stable' };
  if ((m = /^wait\s+(?:for|until)\s+(.+?)\s+(?:to\s+disappear|disappears|is gone|to be gone|to go away)$/i.exec(s))) return { kind: 'wait_gone', text: unquote(m[1]) };
  if ((m = /^wait\s+(?:for|until)\s+(.+?)(?:\s+(?:to\s+appear|appears|is visible|to be visible|to show))?$/i.exec(s))) return { kind: 'wait_text', text: unquote(m[1]) };
  if ((m = /^scroll\s+(?:the page\s+)?(?:to the\s+)?(up|down|top|bottom)$/i.exec(s))) return { kind: 'scroll', direction: m[1].toLowerCase() as 'up' };
  // "Press Enter to save", "Hit Escape to close it": the key; the purpose is the reader's.
  if ((m = /^((?:press|hit)\s+(?:the\s+)?(?:key\s+)?["“]?([A-Za-z0-9+]+)["”]?(?:\s+key)?)\s+to\s+(?:save|confirm|submit|close|cancel|finish|apply|send|search|continue|dismiss|accept|commit|add|keep)\b.*$/i.exec(s)) && KEYS.has(m[2].toLowerCase())) s = m[1];
  if ((m = /^(?:press|hit)\s+(?:the\s+)?(?:key\s+)?["“]?([A-Za-z0-9+]+)["”]?(?:\s+key)?(?:\s+(once|twice|three times|thrice|\d+\s+times))?(?:\s+(?:in|on|into)\s+(.+?))?(?:\s+(once|twice|three times|thrice|\d+\s+times))?$/i.exec(s))) {
    const key = m[1];
    const known = KEYS.has(key.toLowerCase()) || /^(?:(?:Control|Ctrl|Shift|Alt|Meta|ControlOrMeta)\+)+\w+$/i.test(key) || /^[A-Za-z0-9]$/.test(key);
    const times = (m[2] ?? m[4] ?? 'once').toLowerCase();
    const n = times === 'once' ? 1 : times === 'twice' ? 2 : /three|thrice/.test(times) ? 3 : parseInt(times, 10);
    const k = KEY_NAMES[key.toLowerCase()] ?? key.replace(/^ctrl\+/i, 'Control+');
    if (known && n === 1) return { kind: 'press', key: k, ...(m[3] ? { target: parseTarget(m[3]) } : {}) };
    if (known && n > 1 && n <= 20) return { kind: 'sequence', parts: Array.from({ length: n }, (_, i) => ({ text: `press ${k} (${i + 1} of ${n})`, intent: { kind: 'press' as const, key: k, ...(m![3] ? { target: parseTarget(m![3]) } : {}) } })) };
  }
  // "Upload report.pdf to the Attachment field", "Attach file notes.txt", "Attach a.png and b.png as the photos".
  if ((m = /^(?:upload|attach)\s+(?:the\s+)?(?:files?\s+)?(.+?)(?:\s+(?:to|into|in|on|as|for|using|via)\s+(?:the\s+|my\s+|a\s+)?(.+))?$/i.exec(s))) {
    const files = listOf(m[1]);
    if (!files.every((f) => FILE_NAME.test(f))) return { kind: 'unknown', reason: 'an upload names the file to send, e.g. "Upload report.pdf to Attachment"' };
    // "the Attachment field": the name of the file input, never a text box.
    const target = m[2] ? { ...parseTarget(m[2].replace(/\s+(?:field|input|box|control|uploader|upload|area|drop ?zone)$/i, '')), role: null } : { phrase: '', role: null };
    return { kind: 'upload', files, target };
  }
  // "Drag the Volume slider to 80", "Slide Volume to 30": the slider takes the value.
  if ((m = /^(?:drag|move|slide|set)\s+(?:the\s+)?(.+?)(?:\s+slider)\s+(?:to|at)\s+(-?\d+(?:\.\d+)?)\s*%?$/i.exec(s)) || (m = /^slide\s+(?:the\s+)?(.+?)\s+to\s+(-?\d+(?:\.\d+)?)\s*%?$/i.exec(s))) {
    return { kind: 'fill', value: m[2], target: { ...parseTarget(m[1]), role: 'slider' } };
  }
  if ((m = /^(?:drag|move)\s+(?:and\s+drop\s+)?(.+?)\s+(?:to|onto|into|over)\s+(.+)$/i.exec(s))) return { kind: 'drag', from: unquote(m[1]), to: unquote(m[2]) };
  // "Mark Buy milk as done", "Mark "Walk the dog" as not done", "Complete Buy milk".
  if ((m = /^mark\s+(.+?)\s+as\s+(not\s+done|undone|incomplete|not\s+completed?|active|unfinished|open|to\s?do)$/i.exec(s))) return { kind: 'uncheck', target: parseTarget(m[1], 'checkbox') };
  if ((m = /^mark\s+(.+?)\s+(?:as\s+)?(done|completed?|finished|read|complete)$/i.exec(s))) return { kind: 'check', target: parseTarget(m[1], 'checkbox') };
  if ((m = /^(?:complete|finish)\s+(.+)$/i.exec(s))) return { kind: 'check', target: parseTarget(m[1], 'checkbox') };
  if ((m = /^(?:toggle)\s+(.+)$/i.exec(s))) return { kind: 'toggle', target: parseTarget(m[1]) };
  // A list's filter or sort ("Show only active todos", "Filter by Completed", "Switch to the Done
  // filter", "Sort by Oldest"): the control whose whole name is the word (a link, button, tab),
  // with the usual synonyms; never prose that mentions it.
  if ((m = /^(?:only\s+)?(?:show|view|display|list)\s+(?:me\s+)?(?:only\s+)?(?:the\s+)?(all|active|completed?|done|finished|open|closed|remaining|pending|archived|unread|read|starred|[\p{L}-]+)\s+(?:todos?|to-dos?|items?|tasks?|entries|orders|messages|emails|issues|tickets|notes|posts|results|cards|rows|records|products|files|members|users|people|projects)(?:\s+only)?$/iu.exec(s))
    || (m = /^filter\s+(?:the\s+[\w -]+?\s+)?(?:by|to|on)\s+(?:the\s+)?(.+?)(?:\s+(?:filter|status|items?|todos?|tasks?))?$/i.exec(s))
    || (m = /^(?:switch|change|go)\s+to\s+(?:the\s+)?(.+?)\s+(?:filter|view)$/i.exec(s))) {
    return { kind: 'click', ...filterTargets(unquote(m[1])) };
  }
  if ((m = /^(?:sort|order)\s+(?:the\s+[\w -]+?\s+)?by\s+(?:the\s+)?(.+)$/i.exec(s))) {
    const w = unquote(m[1]);
    const specs: TargetSpec[] = [{ phrase: w, role: null, strict: true }, { phrase: `Sort by ${w}`, role: null, strict: true }, { phrase: w, role: 'option' }];
    return { kind: 'click', target: specs[0], alternatives: specs.slice(1) };
  }
  // "Switch to the Billing tab".
  if ((m = /^(?:switch|go|change)\s+to\s+(?:the\s+)?(.+?)\s+tab$/i.exec(s))) return { kind: 'click', target: { ...parseTarget(m[1]), role: 'tab' } };
  // "Expand the section", "Open the accordion": the one collapsed section, whatever its name.
  if (/^(?:expand|open|show)\s+(?:the\s+)?(?:collapsed\s+|closed\s+|hidden\s+)?(?:section|panel|accordion|details|group|node|folder|disclosure)$/i.test(s)) return { kind: 'click', target: { phrase: '', role: null, collapsed: true } };
  // "Expand the Advanced section", "Collapse FAQ".
  if ((m = /^(?:expand|collapse|show|hide)\s+(?:the\s+)?(.+?)(?:\s+(?:section|panel|group|details|accordion|folder|node|tree ?item|branch))?$/i.exec(s))) return { kind: 'click', target: parseTarget(m[1]) };
  // "Find Chris's post", "Locate the e-mail from Noor Haddad": the item is shown (a later step may say "it").
  if ((m = /^(?:find|locate|look\s+(?:at|for)|spot|go\s+to)\s+(.+)$/i.exec(s)) && namedItem(m[1])) return { kind: 'find', name: namedItem(m[1])! };
  // Numbers by steps: "Increase the quantity by 2", "Decrease adults by one", "Raise Seats from 5 to 7
  // (with the up arrow)": the field is set in the page layer, typed or stepped with its own +/−.
  if ((m = /^(increase|raise|increment|bump(?:\s+up)?|up|decrease|lower|reduce|decrement|drop|bump\s+down)\s+(?:the\s+)?(.+?)\s+by\s+(\S+)(?:\s+(?:with|using)\s+.+)?$/i.exec(s)) && countWord(m[3]) !== null) {
    const down = /^(?:decrease|lower|reduce|decrement|drop|bump\s+down)$/i.test(m[1]);
    return { kind: 'fill', value: `${down ? '-' : '+'}=${countWord(m[3])}`, target: parseTarget(m[2], 'textbox') };
  }
  if ((m = /^(?:increase|raise|decrease|lower|reduce|change|bump|take|move)\s+(?:the\s+)?(.+?)\s+(?:from\s+\S+\s+)?(?:up\s+|down\s+)?to\s+(-?\d+(?:\.\d+)?)(?:\s*,?\s+(?:with|using|by clicking|by pressing|clicking|pressing)\b.+)?$/i.exec(s))) {
    return { kind: 'fill', value: m[2], target: parseTarget(m[1], 'textbox') };
  }
  // "Click the up arrow twice", "Press the + button 3 times": the click, that many times, each reported.
  if ((m = /^(click|tap|press|hit)\s+(?:on\s+)?(.+?)\s+(twice|thrice|(?:\d+|two|three|four|five|six|seven|eight|nine|ten)\s+times)$/i.exec(s))) {
    const n = readTimes(m[3]);
    const click = interpretOne(`${m[1]} ${m[2]}`);
    const [verb, what] = [m[1], m[2]];
    if (n && n <= 20 && click.kind === 'click') return { kind: 'sequence', parts: Array.from({ length: n }, (_, i) => ({ text: `${verb} ${what} (${i + 1} of ${n})`, intent: click })) };
  }
  // "Choose Export from the File menu": a menu item, with the menu as the route to it.
  // "Pick Mia Kovacs in the list that opens": the item of the list or menu the last step opened.
  if ((m = /^(?:pick|choose|select|click|tap)\s+(.+?)\s+(?:in|from|on)\s+(?:the\s+)?(?:list|menu|drop-?down|dropdown|panel|pop-?up|options|choices)\s+(?:that|which)\s+(?:just\s+)?(?:opens|opened|appears|appeared|shows|showed up|pops up|popped up|comes up|came up)$/i.exec(s))) {
    return { kind: 'click', target: { ...parseTarget(m[1]), landmark: 'menu' } };
  }
  // A quoted item is one name: "Choose 'Archive all cards in this list' from the menu".
  if ((m = /^(?:pick|choose|select|click)\s+(["“‘'][^"“”‘’]+["”’']|.+?)\s+(?:from|in|on)\s+(?:the\s+)?(.+?\s+(?:menu|submenu|context menu))$/i.exec(s))) {
    const path = m[1].split(/\s*(?:>|→|›)\s*/).filter(Boolean);
    // "Choose Reset password from the menu", "... from the row menu": no menu's name, so the
    // menu that is open (the page layer reads it as the menu landmark), never a text "the menu".
    if (path.length === 1 && /^(?:the\s+)?(?:row\s+|context\s+|pop-?up\s+|drop-?down\s+)?menu$/i.test(m[2].trim())) return { kind: 'click', target: parseTarget(`${m[1]} from the menu`) };
    return { kind: 'click', target: { ...parseTarget(path[path.length - 1]), scope: path.length > 1 ? path[path.length - 2] : unquote(m[2]) } };
  }
  // "Pick May 20, 2024 as the end date": a date typed into its field, never a list choice (the
  // page layer writes it in the form the field takes).
  if ((m = /^(?:pick|choose|select|set|enter|use)\s+(.+?)\s+as\s+(?:the\s+|my\s+)?(.+)$/i.exec(s)) && monthNameDate(m[1])) {
    return { kind: 'fill', value: unquote(m[1]), target: parseTarget(m[2], 'textbox') };
  }
  // "Choose Canada as the country": a choice, never text left in a field.
  if ((m = /^(?:pick|choose|select)\s+(.+?)\s+as\s+(?:the\s+|my\s+)?(.+)$/i.exec(s))) {
    const values = listOf(m[1]);
    return { kind: 'select', value: values.length > 1 ? values : unquote(m[1]), target: parseTarget(m[2], 'combobox') };
  }
  // "Enter 05/14/2024 as the date", "Set 42 as the quantity".
  if ((m = /^(?:enter|type|input|set|use|put)\s+(.+?)\s+as\s+(?:the\s+|my\s+)?(.+)$/i.exec(s))) return { kind: 'fill', value: valueWithModifiers(m[1]), target: parseTarget(m[2], 'textbox') };
  // "Turn on Bluetooth", "Switch Wi-Fi off", "Enable Dark theme".
  if ((m = /^(?:turn|switch|toggle)\s+on\s+(.+)$/i.exec(s)) || (m = /^(?:turn|switch|toggle)\s+(.+?)\s+on$/i.exec(s)) || (m = /^(?:enable|activate)\s+(.+)$/i.exec(s))) return { kind: 'check', ...settingOf(m[1]) };
  if ((m = /^(?:turn|switch|toggle)\s+off\s+(.+)$/i.exec(s)) || (m = /^(?:turn|switch|toggle)\s+(.+?)\s+off$/i.exec(s)) || (m = /^(?:disable|deactivate)\s+(.+)$/i.exec(s))) return { kind: 'uncheck', ...settingOf(m[1]) };
  // "Select the row for Carla Diaz": tick that row's box.
  if ((m = /^select\s+(?:the\s+)?(?:row|line|entry|item|record)\s+(?:for|of|with)\s+(.+)$/i.exec(s))) return { kind: 'check', target: { phrase: '', role: 'checkbox', scope: unquote(m[1]) } };
  if ((m = /^(?:select|choose|pick)\s+(.+?)\s+(?:in|from|for)\s+(.+)$/i.exec(s))) {
    const values = listOf(m[1]);
    return { kind: 'select', value: values.length > 1 ? values : unquote(m[1]), target: parseTarget(m[2], 'combobox') };
  }
  // "Type abc-123 in upper case into Gift card code": the modifier sits between value and field.
  if ((m = /^(?:type|enter|input|write|put)\s+(.+?)\s+(in\s+(?:upper ?case|uppercase|capitals|capital letters|all caps|lower ?case|lowercase))\s+(?:into|in|in to|on)\s+(.+)$/i.exec(s))) {
    return { kind: 'fill', value: valueWithModifiers(`${m[1]} ${m[2]}`), target: parseTarget(m[3], 'textbox') };
  }
  if ((m = /^(?:type|enter|input|write|put)\s+(.+?)\s+(?:into|in|in to|on)\s+(.+)$/i.exec(s))) {
    // "Type hello into X in upper case"
    const mod = /^(.+?)\s+(in\s+(?:upper ?case|uppercase|capitals|capital letters|all caps|lower ?case|lowercase))$/i.exec(m[2]);
    if (mod) return { kind: 'fill', value: valueWithModifiers(`${m[1]} ${mod[2]}`), target: parseTarget(mod[1], 'textbox') };
    return { kind: 'fill', value: valueWithModifiers(m[1]), target: parseTarget(m[2], 'textbox') };
  }
  if ((m = /^fill\s+(?:in\s+|out\s+)?(.+?)\s+with\s+(.+)$/i.exec(s))) return { kind: 'fill', value: valueWithModifiers(m[2]), target: parseTarget(m[1], 'textbox') };
  // "Set X to Y", and the verbs of putting a wrong value right ("Correct the amount to 289.00").
  if ((m = /^(?:set|correct|amend|adjust|modify)\s+(.+?)\s+to\s+(.+)$/i.exec(s))) return { kind: 'fill', value: valueWithModifiers(m[2]), target: parseTarget(m[1].replace(/^(?:my|our|your)\s+/i, 'the '), 'textbox'), edit: m[1].replace(/^the\s+/i, '') };
  // "Clear the search field" empties a field; "Clear completed" clicks the control named so.
  if ((m = /^clear\s+(.+)$/i.exec(s))) {
    if (/\b(?:field|input|box|textbox|text box|search|textarea)\s*$/i.test(m[1])) return { kind: 'fill', value: '', target: parseTarget(m[1], 'textbox') };
    return { kind: 'click', target: { phrase: `Clear ${unquote(m[1].replace(/^the\s+/i, ''))}`, role: null } };
  }
  // "Remove the completed todos", "Delete all completed items": the list's Clear completed control.
  if ((m = /^(?:remove|delete|clear)\s+(?:all\s+)?(?:the\s+)?(?:completed|done|finished)(?:\s+(?:todos?|to-dos?|tasks?|items?|entries))?$/i.exec(s))) {
    return { kind: 'click', target: { phrase: 'Clear completed', role: null }, alternatives: [{ phrase: 'Delete completed', role: null }, { phrase: 'Remove completed', role: null }] };
  }
  // "Give the Coffee grinder 3 stars", "Rate Dana's post 4 out of 5": the Nth icon of that rating.
  const rating = parseRating(s);
  if (rating) return { kind: 'click', target: rating };
  // "Delete Buy milk", "Remove Pen from the cart": the delete control of that item.
  // "Remove Priya Natarajan from the members list", "Delete Invoice 12 from the table": where it is listed is colour.
  if ((m = /^(delete|remove|destroy|trash)\s+(?:the\s+)?(.+?)(?:\s+(?:from|in|off)\s+(?:the\s+|my\s+|our\s+|this\s+)?(?:[\p{L}-]+\s+)?(?:list|cart|basket|todos?|items?|inbox|table|team|group|members|users|board|project|workspace|organi[sz]ation|account|claim|order))?$/iu.exec(s)) && !/^(?:the\s+)?(?:button|btn|link|icon)\b/i.test(m[2])) {
    const item = m[2].replace(/\s+(?:item|row|entry|todo|task|message|email|mail|conversation|thread|note|comment)$/i, '').replace(/^(?:the\s+)?(?:e-?mail|message|mail|post|comment|note|file|entry|item)\s+(?:sent\s+)?(?:from|by|of|for)\s+/i, '').replace(/^(?:the\s+)?(?:row|item|entry|line|record)\s+(?:for|of|with)\s+/i, '').replace(/^(?:user|person|customer)\s+/i, '');
    return { kind: 'remove_item', item: unquote(item), verb: m[1] };
  }
  // "Archive Invoice 12", "Edit the Invoice 12 row", "Like Ben Ode's post": the control named by
  // the verb inside the row that shows exactly that text — never another row, never the row's name.
  const row = parseRowAction(s);
  if (row) return { kind: 'row_action', item: row.item, verb: row.verb, specs: row.specs, words: s };
  // "Accept all cookies", "Accept only necessary cookies": the consent button, named with or
  // without the verb and the noun ("Accept all", "Only necessary"); never a checkbox.
  if ((m = /^(accept|allow|reject|decline|deny|refuse)\s+(?:the\s+)?(.+?)\s+cookies$/i.exec(s))) {
    const verb = m[1][0].toUpperCase() + m[1].slice(1).toLowerCase();
    const names = [`${verb} ${m[2]} cookies`, `${verb} ${m[2]}`, ...(m[2].trim().split(/\s+/).length > 1 ? [m[2][0].toUpperCase() + m[2].slice(1)] : [])];
    const specs = names.map((phrase): TargetSpec => ({ phrase, role: 'button' }));
    return { kind: 'click', target: specs[0], alternatives: specs.slice(1) };
  }
  if ((m = /^(?:uncheck|untick|deselect|clear the checkbox)\s+(.+)$/i.exec(s))) return { kind: 'uncheck', target: parseTarget(m[1], 'checkbox') };
  if ((m = /^(?:check|tick|accept)\s+(.+)$/i.exec(s))) return { kind: 'check', target: parseTarget(m[1], 'checkbox') };
  if ((m = /^hover\s+(?:over\s+)?(.+)$/i.exec(s))) return { kind: 'hover', target: parseTarget(m[1]) };
  if ((m = /^focus\s+(?:on\s+)?(.+)$/i.exec(s))) return { kind: 'click', target: parseTarget(m[1], 'textbox') };
  if ((m = /^(double[- ]click)\s+(?:on\s+)?(.+)$/i.exec(s))) return { kind: 'click', target: parseTarget(m[2]), double: true };

  // "Agree to the terms".
  if ((m = /^(?:agree\s+to|accept)\s+(.+)$/i.exec(s))) return { kind: 'check', target: parseTarget(m[1], 'checkbox') };
  if ((m = /^(?:click|tap|press|hit|select|choose|pick|follow|submit|open)\s+(?:on\s+)?(.+)$/i.exec(s))) return { kind: 'click', target: parseTarget(m[1]), ...(waitMs ? { waitMs } : {}) };
  // "Copy invite link", "Print the receipt": a purpose verb (an icon concept's purpose) and its object.
  const vo = parseVerbObject(s);
  if (vo) return { kind: 'verb_object', verb: vo.verb, object: vo.object };
  return { kind: 'unknown', reason: 'no rule matches its wording' };
}

const BESIDE_ROLES: Record<string, AriaRole> = { radio: 'radio', radiobutton: 'radio', field: 'textbox', input: 'textbox', textbox: 'textbox', textfield: 'textbox', dropdown: 'combobox', 'drop-down': 'combobox', select: 'combobox', button: 'button', link: 'link' };

/** A click, tick, untick, hover or fill whose target is "the <kind> before/after/left of/right of <text>". */
function besideIntent(s: string): Intent | null {
  let m: RegExpExecArray | null;
  if ((m = /^(?:type|enter|write|put|input)\s+(.+?)\s+(?:into|in|in to)\s+(.+)$/i.exec(s)) || (m = /^fill\s+(?:in\s+)?(.+?)\s+with\s+(.+)$/i.exec(s))) {
    const fillFirst = /^fill/i.test(s);
    const where = parsePositional(fillFirst ? m[1] : m[2]);
    if (!where) return null;
    return { kind: 'fill', value: valueWithModifiers(fillFirst ? m[2] : m[1]), target: { phrase: '', role: BESIDE_ROLES[where.kind] ?? 'textbox' }, beside: where };
  }
  if (!(m = /^(click|tap|press|hit|tick|check|untick|uncheck|toggle|hover(?:\s+over)?|focus(?:\s+on)?|select|choose|pick)\s+(?:on\s+)?(.+)$/i.exec(s))) return null;
  const where = parsePositional(m[2]);
  if (!where) return null;
  const v = m[1].toLowerCase();
  const kind = /^(?:tick|check)$/.test(v) ? 'check' : /^(?:untick|uncheck)$/.test(v) ? 'uncheck' : /^hover/.test(v) ? 'hover' : 'click';
  return { kind, target: { phrase: '', role: BESIDE_ROLES[where.kind] ?? 'checkbox' }, beside: where };
}

// --- Back-references ----------------------------------------------------------------

/** A scope worth remembering as a row/card/item: a name as a row shows it, not "the toolbar". */
function looksLikeName(s: string | undefined): s is string {
  return typeof s === 'string' && /^[\p{Lu}@#"“\d]/u.test(s.trim()) && !isBackReference(s);
}

/** The rows/cards/items an intent names ("the e-mail from Rochelle Park" → Rochelle Park). */
export function namesOf(intent: Intent): string[] {
  const out: string[] = [];
  const add = (s: string | null | undefined) => {
    if (looksLikeName(s ?? undefined) && !out.includes(s!)) out.push(s!);
  };
  const spec = (t: TargetSpec | undefined) => {
    if (!t) return;
    if (t.scope) add(namedItem(t.scope) ?? t.scope);
    else if (t.phrase) add(namedItem(t.phrase));
  };
  switch (intent.kind) {
    case 'row_action': case 'remove_item': add(namedItem(intent.item) ?? intent.item); break;
    case 'find': add(intent.name); break;
    case 'click': case 'hover': case 'check': case 'uncheck': case 'toggle': case 'fill': case 'select': spec(intent.target); break;
    case 'press': spec(intent.target); break;
    case 'sequence': for (const p of intent.parts) for (const n of namesOf(p.intent)) add(n); break;
    default: break;
  }
  return out;
}

/**
 * "Deactivate Tom Reyes", "Turn on Weekly digest": the switch named so, or — a person or a
 * row's title rather than a setting's name — the one switch in the row that shows those words
 * (tried first: a row's selection box takes the row's text as its name too).
 */
function settingOf(words: string): { target: TargetSpec; alternatives?: TargetSpec[] } {
  // "Turn off Tom Reyes's account", "Disable Ann's access": the person's row.
  words = words.replace(/['’]s?\s+(?:account|access|membership|subscription|user|login|profile)$/i, '');
  const named = parseTarget(words, 'switch');
  if (named.role !== 'switch' || named.scope || named.landmark || named.ordinal || !named.phrase) return { target: named };
  return { target: { phrase: '', role: 'switch', scope: named.phrase }, alternatives: [named] };
}

function withScope(t: TargetSpec, name: string): TargetSpec {
  return isBackReference(t.scope) ? { ...t, scope: name } : t;
}

/** The intent with every scope that only points back ("her row", "the same card") set to `name`. */
function rebind(intent: Intent, name: string): Intent {
  switch (intent.kind) {
    case 'row_action':
      return { ...intent, item: isBackReference(intent.item) ? name : intent.item, specs: intent.specs.map((t) => withScope(t, name)), words: intent.words.replace(/\b(?:her|his|its|their|that|this|the same)\s+(?:row|card|item|post|entry|line|message|e-?mail|record|tile|one)\b/i, `the row of "${name}"`) };
    case 'remove_item':
      return isBackReference(intent.item) ? { ...intent, item: name } : intent;
    case 'click': case 'hover': case 'check': case 'uncheck': case 'toggle': case 'fill': case 'select':
      return { ...intent, target: withScope(intent.target, name), ...('alternatives' in intent && intent.alternatives ? { alternatives: intent.alternatives.map((t) => withScope(t, name)) } : {}) } as Intent;
    case 'press':
      return intent.target ? { ...intent, target: withScope(intent.target, name) } : intent;
    case 'assert':
      return 'target' in intent.check ? { ...intent, check: { ...intent.check, target: withScope(intent.check.target, name) } } : intent;
    default:
      return intent;
  }
}

/**
 * A scope worded as the thing a row shows ("the row "e-mail from Rochella Parks"", "the post by
 * Marcus Webb") is the row that shows the name: the scope is the name.
 */
function plainScopes(intent: Intent): Intent {
  const fix = (t: TargetSpec): TargetSpec => {
    const n = t.scope && !isBackReference(t.scope) ? namedItem(t.scope) : null;
    return n && n !== t.scope ? { ...t, scope: n } : t;
  };
  switch (intent.kind) {
    case 'row_action': {
      const n = namedItem(intent.item);
      return { ...intent, ...(n ? { item: n } : {}), specs: intent.specs.map(fix) };
    }
    case 'click': case 'hover': case 'check': case 'uncheck': case 'toggle': case 'fill': case 'select':
      return { ...intent, target: fix(intent.target), ...('alternatives' in intent && intent.alternatives ? { alternatives: intent.alternatives.map(fix) } : {}) } as Intent;
    default:
      return intent;
  }
}

/** Whether an intent leans on a back-reference it cannot act on alone. */
function pointsBack(intent: Intent): string | null {
  const specs: (TargetSpec | undefined)[] = [];
  switch (intent.kind) {
    case 'row_action': if (isBackReference(intent.item)) return intent.item; specs.push(...intent.specs); break;
    case 'remove_item': if (isBackReference(intent.item)) return intent.item; break;
    case 'click': case 'hover': case 'check': case 'uncheck': case 'toggle': case 'fill': case 'select': specs.push(intent.target, ...('alternatives' in intent ? intent.alternatives ?? [] : [])); break;
    case 'press': specs.push(intent.target); break;
    case 'assert': if ('target' in intent.check) specs.push(intent.check.target); break;
    default: break;
  }
  const t = specs.find((x) => x && isBackReference(x.scope));
  return t?.scope ?? null;
}

/**
 * One part of a step, with its back-references bound to what earlier parts and steps named
 * (scope-memory.ts); the part's own names are remembered for later parts. A reference with
 * no antecedent, or an ambiguous one, is an unknown intent saying so (the step fails).
 */
export function bindPart(text: string, intent: Intent, stepIndex: number, memory: ScopeMemory, lastClick: { intent: Intent | null }): Intent {
  let out = intent;
  // "Delete them" after ticking rows: "them" is the ticked rows, not a name the plan gave.
  if (intent.kind === 'bulk' || intent.kind === 'paginate') return intent;
  if (hasObjectPronoun(text)) {
    // "Click it again" right after a click: that control. Otherwise "it" is the item last named.
    if (/^\s*(?:click|tap|press|hit)\s+(?:on\s+)?(?:it|them)\b/i.test(text) && lastClick.intent) out = lastClick.intent;
    else {
      const r = memory.resolve(/\b(?:it|them|him|her)\b/i.exec(text)?.[0] ?? 'it');
      if (!r.ok) return { kind: 'unknown', reason: r.reason };
      const again = replaceObjectPronoun(text, r.name);
      if (again) out = interpret(again);
    }
  }
  // "Rate it 4 stars": "it" is the item the plan last named, when it named one; else the page's one rating.
  if (out.kind === 'click' && out.target.icon && out.target.run && !out.target.scope && /^\s*(?:please\s+)?(?:rate|give|award|score)\s+(?:it|this|that)\b/i.test(text)) {
    const r = memory.resolve('it');
    if (r.ok) out = { ...out, target: { ...out.target, scope: r.name } };
  }
  out = plainScopes(out);
  const back = pointsBack(out);
  if (back) {
    const r = memory.resolve(back);
    if (!r.ok) return { kind: 'unknown', reason: r.reason };
    out = rebind(out, r.name);
  }
  const names = namesOf(out);
  for (const n of names) memory.remember(stepIndex, n);
  lastClick.intent = out.kind === 'click' ? out : null;
  return out;
}
