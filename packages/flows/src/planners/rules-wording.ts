// Wordings people write in plans that are not verb-led sentences about a named target: form
// shorthand ("Department: Finance"), typing into the field the caret is in ("Type 'X'",
// "Replace it with 'X'"), confirming the dialog an action opened ("... and confirm the
// removal"), and a row's own menu ("Open Ann's row menu"). Pure: each returns what the words
// say, or null when they are not that shape (the rules planner then tries its other rules).

/** Markers of prose or plan structure before a colon: never a field's label. */
// Labels of fields that take a sentence of their own: their value is text, whatever its first word.
const FREE_TEXT_LABEL = /^(?:(?:card|task|item|post|issue|ticket|page|new|short)\s+)?(?:title|name|subject|description|message|body|text|caption|heading|headline)$/i;
const NOT_A_LABEL = /^(?:note|notes|nb|n\.b|tip|tips|hint|warning|caution|important|info|fyi|todo|fixme|step(?:\s*\d+)?|steps|example|examples|e\.g|expected|expected result|expectation|result|results|outcome|scenario|case(?:\s*\d+)?|given|when|then|and|but|also|precondition|preconditions|setup|comment|remark|why|goal|purpose|summary|context|reason|url|link|page|address bar|go to|navigate to|visit|open|as \w+)$/i;

/** Values that mean a box is ticked or not. */
const YES = /^(?:yes|y|on|true|checked|ticked|selected|enabled|1)$/i;
const NO = /^(?:no|n|off|false|unchecked|unticked|not checked|not ticked|deselected|disabled|0)$/i;

export function booleanValue(v: string): boolean | null {
  const t = v.trim();
  return YES.test(t) ? true : NO.test(t) ? false : null;
}

const QUOTED = /^\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)'|‘([^’]*)’)\s*$/;

function unquoteValue(s: string): string {
  const m = QUOTED.exec(s);
  if (m) return m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
  return s.trim().replace(/[.;,]+$/, '').trim();
}

/**
 * "Department: Finance", "Start date: 14/11/2026", "**Country:** Kenya" → the label and the
 * value. Null for anything else a colon appears in: a verb-led step ("Go to: https://…",
 * "Verify: …", "Check the title: Welcome"), prose markers ("Note: …", "Step 3: …"), a value
 * that is itself a step ("Admin: click Delete"), a label that reads as a sentence.
 */
export function parseFormShorthand(step: string, verbs: string): { label: string; value: string } | null {
  // Markdown bold around the label ("**Country:** Kenya"; the step may arrive with its outer * trimmed).
  const s = step.trim().replace(/^\*{0,2}([^:*]+?)(?::\*{1,2}|\*{1,2}:)\s*/, '$1: ');
  const m = /^([\p{L}][\p{L}\p{N} '’&/()#.-]{0,48}?)\s*:\s+(\S.*)$/u.exec(s);
  if (!m) return null;
  const label = m[1].trim().replace(/\s*\*$/, '');
  const value = m[2].trim().replace(/[.]$/, '');
  // A label is a noun phrase of a few words: not a verb-led clause, not a sentence.
  if (label.split(/\s+/).length > 5 || NOT_A_LABEL.test(label)) return null;
  // A verb alone ("Verify: …") or a verb-led clause ("Check the title: …", "Go to: …") is a step;
  // a verb used as a field's word ("Confirm password", "Check-in date") is a label.
  const lead = new RegExp(String.raw`^(?:${verbs})(?:$|\s+(?:the|a|an|to|that|this|it|on|in|into|for|with|if|whether|all|my|your|out|up)\b)`, 'i');
  if (lead.test(label)) return null;
  if (/\b(?:is|are|was|should|must|will|can|does|do|the page|that)\b/i.test(label)) return null;
  // The value is one value: not a step of its own ("click Delete"), not a URL to go to for a
  // label that names no field.
  // A free-text field's value may start with a verb ("Title: Check Spanish translations").
  if (new RegExp(String.raw`^(?:${verbs})\s`, 'i').test(value) && !FREE_TEXT_LABEL.test(label)) return null;
  const v = unquoteValue(value);
  if (!v) return null;
  return { label, value: v };
}

/**
 * "Type 'Hello'", "Enter 42", "Replace it with 'Bob'", "Change it to 'Bob'", "Replace the text
 * with X": a value for the field that has the caret, no field named. replace: the field's
 * text is replaced (else typed where the caret is, or written into an empty field).
 */
export function parseFocusedTyping(step: string): { value: string; replace: boolean } | null {
  const s = step.trim().replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  if ((m = /^(?:replace|overwrite)\s+(?:it|that|this|the\s+(?:text|value|contents?|name|word)|its\s+(?:text|value))\s+with\s+(.+)$/i.exec(s))
    || (m = /^(?:change|set|update|edit)\s+(?:it|that|this|the\s+(?:text|value|contents?)|its\s+(?:text|value))\s+to\s+(.+)$/i.exec(s))) {
    const v = valueOnly(m[1]);
    return v === null ? null : { value: v, replace: true };
  }
  // "Type 'Check Spanish translations' in the box that opens": the field the last step opened
  // is the one with the caret (an editor, a composer); nothing focused is a clear failure.
  if ((m = /^(?:type|enter|input|write|put)\s+(.+?)\s+(?:in|into)\s+(?:the\s+)?(?:new\s+)?(?:box|field|input|text ?box|text ?area|textarea|editor)\s+(?:that|which)\s+(?:just\s+)?(?:opens|opened|appears|appeared|shows|showed up|comes up|came up|pops up|popped up)$/i.exec(s))) {
    const v = valueOnly(m[1]);
    if (v !== null) return { value: v, replace: false };
  }
  if ((m = /^(?:type|enter|input|write)\s+(?:in\s+)?(.+)$/i.exec(s))) {
    const v = valueOnly(m[1]);
    return v === null ? null : { value: v, replace: false };
  }
  return null;
}

/** A value alone: quoted, or a few words that name no place ("into X", "as the Y", "in the Z"). */
function valueOnly(raw: string): string | null {
  const t = raw.trim();
  const q = QUOTED.exec(t);
  if (q) return q[1] ?? q[2] ?? q[3] ?? q[4] ?? '';
  if (/["“”‘’]/.test(t)) return null;
  if (/^(?:the|a|an|my|your|his|her|its|their|this|that|it)\b/i.test(t)) return null;
  if (/\s(?:into|in|in to|on|as|to|with|for|from|at|and|then)\s/i.test(` ${t} `)) return null;
  if (t.split(/\s+/).length > 4) return null;
  return t;
}

/** Nouns for what is being confirmed, with the verb a confirming button is named by. */
const CONFIRM_NOUNS: [RegExp, string | null][] = [
  [/^(?:removal|remove)$/i, 'Remove'],
  [/^(?:deletion|delete)$/i, 'Delete'],
  [/^(?:disconnection|disconnect)$/i, 'Disconnect'],
  [/^(?:archival|archiving|archive)$/i, 'Archive'],
  [/^(?:revocation|revoke)$/i, 'Revoke'],
  [/^(?:reset)$/i, 'Reset'],
  [/^(?:it|this|that|action|dialog|prompt|choice|change|changes|operation|request|popup|pop-up|modal|warning)$/i, null],
];

/**
 * "Confirm", "confirm it", "confirm the removal", "confirm the deletion" → confirm the dialog the
 * last action opened; the verb its confirming button may be named by (from the noun), if any.
 */
export function parseConfirm(step: string): { verb: string | null } | null {
  const m = /^(?:and\s+)?confirm(?:\s+(?:the\s+|this\s+|that\s+)?([\p{L}-]+))?(?:\s+in\s+the\s+(?:dialog|modal|pop-?up|prompt))?$/iu.exec(step.trim().replace(/[.!]+$/, ''));
  if (!m) return null;
  if (!m[1]) return { verb: null };
  for (const [re, verb] of CONFIRM_NOUNS) if (re.test(m[1])) return { verb };
  // "Confirm Send", "Confirm Archive": a capitalised word is the confirming button's own verb.
  if (/^\p{Lu}/u.test(m[1]) && !/^(?:The|This|That)$/.test(m[1])) return { verb: m[1] };
  return null;
}

/** The verb an action part starts with ("Remove Ann" → Remove), for the button that confirms it. */
export function actionVerb(part: string): string | null {
  const m = /^(?:please\s+)?([A-Za-z]+)/.exec(part.trim());
  if (!m) return null;
  const v = m[1].toLowerCase();
  if (/^(?:click|tap|press|hit|select|choose|pick|open|go|then|and|type|enter|fill|check|tick|verify|wait)$/.test(v)) return null;
  return v[0].toUpperCase() + v.slice(1);
}

/** Button names that answer a dialog without doing the action: never its confirming button. */
export const DISMISS_NAME = /^(?:cancel|close|no|dismiss|back|keep|abort|not now|never ?mind|don['’]?t|go back|stay|×|✕|x)\b/i;

/**
 * "Open Ann's row menu", "Open the menu of Invoice 12", "Click the row menu for Invoice 12",
 * "Open the actions menu for report.pdf" → the row's text (its own ⋯ / More menu is opened).
 */
export function parseRowMenu(step: string): string | null {
  const s = step.trim().replace(/[.!]+$/, '');
  const KIND = String.raw`(?:(?:row|item|entry|line|card|record|post|message|comment|file)\s+)?(?:(?:actions?|overflow|context|options|more|kebab|⋯|⋮|…|three[- ]dots?)\s+)?menu`;
  let m: RegExpExecArray | null;
  // "Open her row menu", "open its menu": the row a pronoun points back to (scope-memory.ts binds it).
  if ((m = new RegExp(String.raw`^(?:open|click|tap|show|expand)\s+(?:on\s+)?(her|his|its|their|that|this)\s+(${KIND})$`, 'iu').exec(s))) return `${m[1]} row`;
  // "Ann's row menu", "Ann Lee's ⋯ menu": the possessive names the row.
  if ((m = new RegExp(String.raw`^(?:open|click|tap|show|expand)\s+(?:on\s+)?(?:the\s+)?(.+?)['’]s?\s+(${KIND})$`, 'iu').exec(s))) {
    const row = cleanRow(m[1]);
    // "Ann's menu" without a row word: only a name as a row shows it (never "the user's menu").
    if (row && (/^(?:row|item|entry|line|card|record|post|message|comment|file)\b|actions?|overflow|context|options|more|kebab|⋯|⋮|…|dots/i.test(m[2]) || /^[\p{Lu}\p{N}"“@#]/u.test(row))) return row;
    return null;
  }
  if ((m = new RegExp(String.raw`^(?:open|click|tap|show|expand)\s+(?:on\s+)?(?:the\s+)?(${KIND})\s+(?:of|for|on|in)\s+(?:the\s+)?(.+)$`, 'iu').exec(s))) {
    // "the menu of X" needs a row word or a name; "Open the menu for mobile" is not a row.
    const row = cleanRow(m[2]);
    if (row && (/^(?:row|item|entry|line|card|record|post|message|comment|file)\b/i.test(m[1]) || /^[\p{Lu}\p{N}"“@#]/u.test(row) || /^\S+\.\w{1,5}$/.test(row))) return row;
  }
  return null;
}

function cleanRow(raw: string): string | null {
  const t = unquoteValue(raw.trim().replace(/^(?:the\s+)?(?:row|item|entry|line|record)\s+(?:for|of|with)\s+/i, '').replace(/\s+(?:row|item|entry|line|record|card)$/i, ''));
  if (/^(?:her|his|its|their|that|this)$/i.test(t)) return `${t} row`;
  return t && !/^(?:it|them)$/i.test(t) ? t : null;
}

export type Side = 'before' | 'after';

/**
 * "the checkbox before 'Remember me'", "the box right after "Email me"", "the field to the left
 * of 'kg'" → the kind of control, the text and the side it is on (in reading order). Null for
 * other words ("next to" stays with the resolver's text-beside-a-control reading).
 */
export function parsePositional(words: string): { kind: string; text: string; side: Side } | null {
  const s = words.trim().replace(/[.!]+$/, '');
  const m = /^(?:the\s+|a\s+)?(check ?box|tick ?box|box|radio(?: button)?|switch|toggle|field|input|text ?box|text field|drop-?down|select|button|link)\s+(?:that\s+is\s+|which\s+is\s+)?(?:immediately\s+|right\s+|just\s+|directly\s+)?(before|after|(?:to\s+the\s+|on\s+the\s+)?(?:left|right)\s+(?:of|side\s+of)|in\s+front\s+of|following|preceding)\s+(.+)$/i.exec(s);
  if (!m) return null;
  const q = QUOTED.exec(m[3]);
  const text = q ? (q[1] ?? q[2] ?? q[3] ?? q[4] ?? '') : m[3].trim().replace(/^(?:the\s+)?(?:text|label|word|words)\s+/i, '');
  if (!text) return null;
  const side: Side = /^(?:before|in\s+front\s+of|preceding)|left/i.test(m[2]) ? 'before' : 'after';
  return { kind: m[1].toLowerCase().replace(/\s+/g, ''), text: unquoteValue(text), side };
}

/**
 * "Set Role to Admin", "Change my time zone to Europe/Berlin", "Choose Viewer under Role",
 * "Pick Admin for Role": a value for the control a label names, whatever its kind (the same as
 * "Role: Admin"). Never "Set it to X" (the focused field) or a sentence.
 */
export function parseSetTo(step: string): { label: string; value: string } | null {
  const s = step.trim();
  let label: string;
  let value: string;
  const set = /^(?:set|change|update|switch|correct|amend|adjust|modify)\s+(?:the\s+|my\s+|your\s+|our\s+)?(.+?)\s+(?:to|into)\s+(.+)$/i.exec(s);
  // ("Choose Canada as the country" is a list's choice already: rules.ts.)
  const choose = set ? null : /^(?:choose|pick|select)\s+(.+?)\s+(?:under|for)\s+(?:the\s+)?(.+)$/i.exec(s);
  // A value is bare words: "Select the row for Carla" names a control, not a value.
  if (choose && (/\d/.test(choose[1]) || /^(?:the|a|an|all|every|each|this|that|my|your)\s/i.test(choose[1]))) return null;
  // A value with digits (a date, a count) stays a field's fill, with its conversions (rules.ts).
  if (set && /\d/.test(set[2])) return null;
  if (set) [label, value] = [set[1], set[2]];
  else if (choose) [label, value] = [choose[2], choose[1]];
  else return null;
  const l = label.trim().replace(/\s+(?:field|box|drop-?down|list|select|setting|option)$/i, '');
  if (!l || /^(?:it|this|that|them|the text|the value)$/i.test(l) || l.split(/\s+/).length > 4 || NOT_A_LABEL.test(l)) return null;
  const v = unquoteValue(value.trim().replace(/[.]$/, ''));
  if (!v || v.split(/\s+/).length > 6) return null;
  return { label: unquoteValue(l), value: v };
}

/**
 * "Replace 245.00 with 289.00 in the amount box (that appears)": the field that shows the old
 * value, named so when the words name it; the new value replaces its text.
 */
export function parseReplaceIn(step: string): { old: string; value: string; field: string } | null {
  const m = /^replace\s+(.+?)\s+(?:with|by)\s+(.+?)\s+in\s+(?:the\s+)?(.+?)(?:\s+that\s+(?:appears|opens|shows up|came up|is shown))?$/i.exec(step.trim());
  if (!m) return null;
  const old = unquoteValue(m[1]);
  const value = unquoteValue(m[2]);
  return old && value ? { old, value, field: m[3].trim() } : null;
}

// A control a step names as the means of its purpose: what a person sees on the screen.
const MEANS_NOUN = /(?:^|\s)(?:button|btn|icon|switch|toggle|checkbox|check ?box|tick ?box|radio(?: button)?|link|arrow|chevron|circle|dot|dots|star|stars|heart|bin|trash(?: can)?|pencil|cross|x|×|✕|ⓧ|\+|−|✓|⋮|⋯|…|glyph|symbol|key|tab|chip|pill|menu|caret|triangle|envelope|bell|cog|gear|ribbon|bookmark)(?=$|\s|[,.])/i;
// Verbs whose "with" takes a value or a tool of the page's own text, not a control ("Fill X with Y", "Sign in with Google").
// Nor verbs of an amount or a choice ("Raise Adults from 2 to 4 with the up arrow": clicks until the value shows).
const VALUE_VERBS = /^(?:fill|fill in|replace|type|enter|write|set|change|update|populate|compose|sign in|log in|login|pay|search|reply|answer|respond|start|begin|register|sign up|continue|share|raise|increase|decrease|lower|increment|decrement|reduce|adjust|move|drag|scroll|rate|give|select|choose|pick|sort|upload|attach|drop)\b/i;

/**
 * "Deactivate Lee Chen with the green switch in his row", "Close the dialog with the × in its
 * top-right corner", "Tick off 'Call the plumber' with the round checkbox in front of it": the
 * control after "with" (or "using", "by clicking") does the purpose before it. Its pronouns
 * ("his row", "its title bar", "in front of it") stand for what the purpose names. Null when
 * the words after "with" name no control (a value, a tool, a person).
 */
export function parseWithControl(step: string): { verb: string; object: string; control: string } | null {
  const m = /^(.+?)\s+(?:with|using|via|by (?:clicking|pressing|tapping|ticking|switching|toggling))\s+(the|its|his|her|their|that|a|an|this)\s+(.+)$/i.exec(step.trim());
  if (!m) return null;
  const head = m[1].trim();
  const owned = /^(?:its|his|her|their)$/i.test(m[2]);
  const tail = m[3].trim();
  if (VALUE_VERBS.test(head) || !MEANS_NOUN.test(` ${tail.split(/\s+(?:in|on|at|under|next to|beside|of|to the (?:left|right) of|in front of)\s/i)[0]}`)) return null;
  const verb = /^\S+(?:\s+(?:on|off|out|up))?/i.exec(head)?.[0] ?? '';
  // What the purpose names: the words after the verb, without an "as ..." ("Mark X as read").
  let object = head.slice(verb.length).trim().replace(/\s+as\s+.+$/i, '').replace(/^(?:the|a|an)\s+/i, '').trim();
  object = object.replace(/['’]s\s+\w+$/i, '').replace(/^["“‘']|["”’']$/g, '').trim();
  const from = /^(?:e-?mail|message|post|row|task|item|card|entry|note)\s+(?:from|by|of|for)\s+(.+)$/i.exec(object);
  if (from) object = from[1].trim();
  let control = tail;
  if (object) {
    // "in his row", "in its title bar", "at the end of its line", "in front of it", "to the right of its stars".
    control = control
      .replace(/\b(?:his|her|its|their)\s+(row|line|card|post|entry|item|e-?mail|message)\b/gi, `${object}'s $1`)
      .replace(/\b(?:in|on)\s+(?:its|his|her|their)\s+(?:title ?bar|header|top(?:[- ](?:right|left))? corner|corner)\b/gi, `in the ${object}`)
      .replace(/\b(in front of|next to|beside|before|after|to the (?:left|right) of)\s+it\b/gi, `$1 "${object}"`)
      // "to the right of its stars": a part of it, so in its row.
      .replace(/\s+(?:to the (?:left|right) of|next to|beside|after|before|under|above)\s+(?:its|his|her|their)\s+[\w-]+$/i, ` in ${object}'s row`);
    // "with its green circle": the control is the named thing's own.
    if (owned && !/\s(?:in|on|of|at|under|for|inside)\s/i.test(` ${control} `)) control = `${control} of "${object}"`;
  }
  if (/\b(?:his|her|its|their|it)\b/i.test(control.replace(/["“‘'][^"”’']*["”’']/g, ''))) return null;
  return { verb: verb.toLowerCase(), object, control: `the ${control}` };
}
