// Steps worded by what a person wants rather than by what to press, rewritten into the
// wording the rules planner reads — never into a guess: each form says one action on one
// thing the words name, and the page layer still has to find exactly that thing.
//  - a statement, a dash, and a command with a pronoun: "Lena Voss should be an active member
//    again — switch her on" → "switch Lena Voss on"; "Lena Vogel is no longer a contractor —
//    take that tag off her" → "take the contractor tag off Lena Vogel"; "I want to get the
//    Monday summary of my projects by email — enable it" → "enable the Monday summary of my
//    projects";
//  - "Put the privacy policy card away in the archive" → "Archive the privacy policy card";
//  - "Take the taxi expense off the claim" → "Remove the taxi expense from the claim", and the
//    other rewrites below (clear and type, move back, a list's menu, add a card).
// purposeTarget reads the forms that need a target the planner's own wording cannot say (a
// link by its sentence, a plan by its price, "Submit the claim"); declarationBox finds the box
// a "Confirm <clause>" or "Tick the confirmation" step means, on the page's tree.
// Pure; null when the words are not one of these forms.

import { contentWords, flattenTree, stem, type AriaNode, type DescribedTarget } from '@ariadne/page';

const DASH = /^(.+?)\s+(?:—|–|--|-)\s+(.+)$/;

interface Statement { subject: string; attribute?: string }

/** "X is no longer (a) Y", "X isn't Y", "X should be (a) Y (again)", "I want (to get) X (by email)". */
function statementOf(s: string): Statement | null {
  const t = s.trim().replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  if ((m = /^(.+?)\s+(?:is|are)\s+no\s+longer\s+(?:a\s+|an\s+|the\s+)?(.+?)$/i.exec(t))) return { subject: m[1], attribute: m[2] };
  if ((m = /^(.+?)\s+(?:isn['’]t|is\s+not|aren['’]t|are\s+not)\s+(?:a\s+|an\s+)?(.+?)$/i.exec(t))) return { subject: m[1], attribute: m[2] };
  if ((m = /^(.+?)\s+(?:should|must|needs?\s+to|has\s+to|ought\s+to)\s+be\s+(?:a\s+|an\s+)?(.+?)(?:\s+(?:again|now|from\s+now\s+on))?$/i.exec(t))) return { subject: m[1], attribute: m[2] };
  if ((m = /^i\s+(?:want|would\s+like|['’]d\s+like|need|wish)\s+(?:to\s+(?:get|receive|have|see|use|keep)\s+)?(.+?)(?:\s+(?:by|via|through|over)\s+(?:e-?mail|text|sms|post|phone))?$/i.exec(t))) return { subject: m[1] };
  return null;
}

/** The subject as a later step names it: a person as written, a thing without its article. */
function asNamed(subject: string): string {
  return subject.trim().replace(/^(?:the|a|an)\s+/i, '');
}

/** A command leaning on what the statement said: its pronouns and "that tag" replaced. */
function commandWith(command: string, st: Statement): string | null {
  // "(only hers, leave Lena Voss alone)": a person's aside, not a step.
  let c = command.trim().replace(/[.!]+$/, '').replace(/\s*\([^()]*\)\s*$/, '').trim();
  const subject = asNamed(st.subject);
  let changed = false;
  if (st.attribute) {
    const attr = st.attribute.replace(/\s+(?:any\s+more|anymore|again|now)$/i, '').trim();
    c = c.replace(/\b(?:that|this|the)\s+(tag|label|chip|badge|pill|category|status|role)\b/i, (_, noun: string) => {
      changed = true;
      return `the ${attr} ${noun}`;
    });
  }
  c = c.replace(/\b(it|her|him|them)\b(?=\s*(?:$|on\b|off\b|up\b|back\b|down\b|again\b|too\b))/i, () => {
    changed = true;
    return subject;
  });
  return changed ? c : null;
}

export function rewordPurpose(step: string): string | null {
  const s = step.trim().replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  // A statement, then what to do about it.
  if ((m = DASH.exec(s))) {
    const st = statementOf(m[1]);
    if (st) return commandWith(m[2], st);
  }
  // "Put the privacy policy card away in the archive", "Move Invoice 12 to the archive".
  if ((m = /^(?:put|move|send|file)\s+(.+?)\s+(?:away\s+)?(?:in|into|to)\s+(?:the\s+)?archives?$/i.exec(s)) || (m = /^(?:put|file)\s+(.+?)\s+away\s+in\s+(?:the\s+)?archives?$/i.exec(s))) return `Archive ${m[1]}`;
  // "Clear Full name and type Alex Morgan-Reid": the field's new text, whatever it held.
  if ((m = /^clear\s+(?:the\s+)?(.+?)\s+and\s+(?:then\s+)?(?:type|enter|write|put\s+in)\s+(.+)$/i.exec(s))) return `Type ${m[2]} into ${m[1]}`;
  // "Move 'Cookie banner copy' back to In progress": back is where it was, not part of its name.
  if ((m = /^(move|drag|send)\s+(.+?)\s+back\s+(to|into|onto)\s+(.+)$/i.exec(s))) return `${/^send$/i.test(m[1]) ? 'Move' : m[1]} ${m[2]} ${m[3]} ${m[4]}`;
  // "Open the Done list menu": the menu of the list titled Done.
  if ((m = /^(?:open|click|show)\s+(?:the\s+)?(.+?)\s+(?:list|column|lane|board|section|panel|group)(?:['’]s)?\s+(?:actions\s+|options\s+|more\s+|⋯\s+)?menu$/i.exec(s))) return `Open ${m[1]}'s row menu`;
  // "Add a card in Review", "Add a task to the Backlog list": the list's own "Add a card" control.
  if ((m = /^add\s+(a|an|another|one)\s+(?:new\s+)?([\p{L}-]+)\s+(?:in|to|into|under|at\s+the\s+bottom\s+of)\s+(?:the\s+)?(.+?)(?:\s+(?:list|column|lane|section|board))?$/iu.exec(s)) && !/^(?:list|column|lane|section|board|cart|basket)$/i.test(m[2])) return `Click Add ${m[1] === 'an' ? 'an' : 'a'} ${m[2]} in the ${m[3]} list`;
  // "Take the taxi expense off the claim", "Take Pen out of the cart": a tag is parseUntag's.
  if ((m = /^(?:take|get)\s+(.+?)\s+(?:off|out\s+of)\s+(the\s+.+|my\s+.+|our\s+.+)$/i.exec(s)) && !/\b(?:tag|label|chip|badge|pill)$/i.test(m[1])) return `Remove ${m[1]} from ${m[2]}`;
  return null;
}

export type PurposeTarget = { kind: 'click' | 'check'; target: DescribedTarget; alternatives?: DescribedTarget[] };

/**
 * "Open the page for attaching scanned receipts": the link (or button) in the one sentence
 * that says those words ("To attach scanned receipts click here"). The words are a scope
 * (scope-words.ts in the page layer): every content word in one container, which holds
 * exactly one such control.
 */
export function purposeTarget(step: string): PurposeTarget | null {
  const s = step.trim().replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  if ((m = /^(?:open|go\s+to|show|visit|follow)\s+(?:the\s+)?(?:page|form|screen|section|window|view|link|place)\s+(?:for|to|about|where\s+(?:i|you|we)\s+can)\s+(.+)$/i.exec(s))) {
    const scope = m[1];
    return { kind: 'click', target: { phrase: '', role: 'link', scope }, alternatives: [{ phrase: '', role: 'button', scope }] };
  }
  // "Upgrade us to the $12 per user per month plan": the plan by its name, else the one choice
  // (a card, a radio) that shows those words.
  if ((m = /^(?:upgrade|downgrade|switch|move|change)\s+(?:us|me|my\s+account|our\s+(?:team|account|workspace|plan))?\s*to\s+(?:the\s+)?(.+?)\s+(plan|tier|package|subscription)$/i.exec(s))) {
    return { kind: 'click', target: { phrase: `${m[1]} ${m[2]}`, role: null }, alternatives: [{ phrase: m[1], role: null, strict: true }, { phrase: '', role: null, scope: m[1] }] };
  }
  // "Submit the claim": the form's "Submit Claim" button, else its one Submit.
  if ((m = /^submit\s+(?:the|my|this|our|your)\s+([\p{L}-]+(?:\s+[\p{L}-]+)?)$/iu.exec(s)) && !/^(?:form|page|answer|button|it)$/i.test(m[1])) {
    return { kind: 'click', target: { phrase: `Submit ${m[1]}`, role: 'button' }, alternatives: [{ phrase: 'Submit', role: 'button', strict: true }] };
  }
  return null;
}

/** "I confirm ...", "I hereby declare ...": a sentence that says the person does one of these. */
const iSay = (verbs: string) => new RegExp(String.raw`^\s*i\s+(?:hereby\s+)?(?:${verbs})\b`, 'i');
const DECLARES = iSay('confirm|agree|declare|certify|accept|acknowledge|understand|consent');

/** "Tick the confirmation", "Check the declaration box": the box by the kind of sentence it declares. */
export const DECLARATION_NOUN = /^(?:tick|check|select)\s+(?:the\s+)?(confirmation|declaration|agreement|consent|acknowledge?ment|certification)(?:\s+(?:box|checkbox|check ?box|tick ?box))?$/i;
const NOUN_VERB: Record<string, RegExp> = {
  confirmation: iSay('confirm'), declaration: iSay('declare'), agreement: iSay('agree'), consent: iSay('consent|agree'),
  acknowledgement: iSay('acknowledge'), acknowledgment: iSay('acknowledge'), certification: iSay('certify'),
};

/**
 * "Confirm the expenses are for company business": an assertion, unless the page asks the
 * person to declare it — an unticked box whose sentence starts "I confirm / agree / declare ..."
 * and holds every content word of the clause ("I confirm that these expenses were incurred ...
 * on company business"). "Tick the confirmation": the box whose sentence starts "I confirm".
 * The one such box, or null.
 */
export function declarationBox(tree: AriaNode[], step: string): { ref: string; sentence: string } | null {
  const text = step.trim().replace(/[.!]+$/, '');
  const noun = DECLARATION_NOUN.exec(text);
  const m = noun ? null : /^(?:confirm|declare|certify|agree)\s+(?:that\s+)?(.+)$/i.exec(text);
  if (!m && !noun) return null;
  const want = m ? [...new Set(contentWords(m[1]).map(stem))] : [];
  if (m && want.length < 2) return null;
  const starts = noun ? NOUN_VERB[noun[1].toLowerCase()] : DECLARES;
  const hits = flattenTree(tree).map((f) => ({ ref: f.ref, node: f.node, sentence: f.name || f.adjacent || '' })).filter(({ node, sentence }) => {
    if (node.role !== 'checkbox' || node.checked === true || !starts.test(sentence)) return false;
    const have = new Set(sentence.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).map(stem));
    return want.every((w) => have.has(w));
  });
  return hits.length === 1 ? { ref: hits[0].ref, sentence: hits[0].sentence } : null;
}
