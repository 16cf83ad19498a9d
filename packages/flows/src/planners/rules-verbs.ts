import { ICON_CONCEPTS, ROW_VERBS } from '@ariadne/page';
import { namedItem } from './scope-memory.js';

// Wordings about what a control DOES on weakly labelled pages: "<verb> <object>" ("Copy invite
// link" → the copy control by "Invite link"), pagination ("Next page", "page 3"), a bulk action
// on the ticked rows ("Delete them", "Archive the selected invoices") and "Send X a password
// reset" (the control named so in X's row or its menu). Pure: each returns what the words say,
// or null (the rules planner then tries its other rules). rules-verbs-tree.ts finds the control.

/**
 * The purpose verbs "<verb> <object>" reads: every one-word purpose of the page layer's icon
 * concepts (iconography.ts), so each purpose an icon can be recognised by is a verb the planner
 * reads, plus the row verbs (spec.ts) that no icon draws (refund, resend, ...).
 */
export const PURPOSE_VERBS: ReadonlySet<string> = new Set([
  ...ICON_CONCEPTS.flatMap((c) => c.purposes).filter((p) => /^[a-z]+$/.test(p)),
  ...ROW_VERBS.split('|').filter((v) => /^[a-z]+$/.test(v)),
  'favourite', 'favorite',
]);

/** Words the planner reads as its own steps (click, go to, type ...), or nouns, never a purpose verb. */
const NOT_A_VERB = /^(?:click|tap|press|hit|go|open|close|enter|type|select|choose|pick|check|tick|toggle|hover|submit|confirm|accept|dismiss|cancel|clear|expand|collapse|show|hide|view|see|read|find|search|look|wait|more|menu|options|actions|overflow|settings|preferences|home|info|information|details|about|help|faq|support|profile|account|user|me|users|team|members|contacts|group|people|date|time|event|events|schedule|recent|pending|history|notifications|notification|alerts|alert|mail|email|message|messages|comment|comments|chat|image|photo|picture|gallery|video|audio|sound|volume|file|document|page|folder|files|cloud|map|location|place|address|directions|where|language|website|public|internet|region|web|tag|label|labels|category|tags|cart|basket|checkout|shopping|price|money|cost|pricing|wallet|balance|funds|security|protection|privacy|password|key|credentials|keys|tools|dashboard|overview|performance|statistics|stats|analytics|reports|charts|insights|metrics|company|organisation|organization|business|office|mobile|sms|text|device|call|phone|keyboard|shortcuts|layers|stack|levels|table|grid|code|list|rows|tiles|apps|thumbnails|numbering|bullets|emphasis|italics|underlined|strike|strong|bold|italic|underline|strikethrough|centre|center|left|right|up|down|earlier|later|next|previous|prev|back|forward|new|less|yes|ok|okay|done|power|magic|auto|ai|quick|instant|idea|tip|hint|tips|suggestion|feed|rss|qr|identity|biometric|emoji|mood|reaction|theme|style|colour|color|store|keep|get|me|mention|channel|number|hashtag|unread|incoming|inbox|drafts|docs|documentation|guide|manual|rank|prize|win|awards|achievements|rewards|offers|gift|payment|billing|card|sidebar|dock|loading|nav|navigation|config|configuration|setup|contact|lookup|flash|boost|bug|debug|service|build|maintenance|safe|secure|private|locked|unlocked|visible|invisible|starred|archived|unarchived|rating|love|fave|loop|repeat|update|start|end|stop|hold|skip|rewind|record|voice|speak|dictate|unmute|mute|silence)$/;

/** A one-word purpose read as a verb: in the vocabulary and not one of the planner's own words. */
export function isPurposeVerb(word: string): boolean {
  const w = word.toLowerCase();
  return PURPOSE_VERBS.has(w) && !NOT_A_VERB.test(w);
}

/** What the purpose is for, after the object: "to the clipboard", "to my computer", "as a PDF", "for later". */
const PURPOSE_TAIL = /\s+(?:(?:to|onto|into|on)\s+(?:the\s+|my\s+|your\s+|our\s+)?(?:clipboard|computer|device|disk|desktop|downloads?(?:\s+folder)?|machine|laptop|phone)|as\s+(?:a\s+|an\s+)?(?:pdf|csv|file|zip|spreadsheet|excel(?:\s+file)?)|for\s+later|now|right away|again)$/i;
const QUOTE = /^\s*(?:"([^"]*)"|“([^”]*)”|'([^']*)'|‘([^’]*)’)\s*$/;

function unquote(s: string): string {
  const m = QUOTE.exec(s);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4] ?? '') : s.trim().replace(/[.!;:,]+$/, '').trim();
}

/** The thing an object phrase names, as the page shows it: "the note about hiring" → hiring, "the March invoice" → March invoice. */
export function objectText(raw: string): string {
  let t = raw.trim();
  for (let i = 0; i < 2; i++) t = t.replace(PURPOSE_TAIL, '');
  const named = namedItem(t);
  if (named) return named;
  return unquote(t.replace(/^(?:the|a|an|this|that|my|our|your)\s+/i, ''));
}

/**
 * "Copy invite link", "Copy the team invite link to the clipboard", "Pin the note about hiring",
 * "Download the March invoice" → the purpose verb and the object's text. Null when the first word
 * is no purpose verb, or the object is a pronoun or a control kind.
 */
export function parseVerbObject(step: string): { verb: string; object: string } | null {
  const s = step.trim().replace(/[.!]+$/, '');
  const m = /^(?:please\s+)?([A-Za-z]+)\s+(.+)$/.exec(s);
  if (!m || !isPurposeVerb(m[1])) return null;
  const rest = m[2].trim();
  if (/^(?:it|them|this|that|these|those|all|everything|(?:the\s+)?selected\b|(?:the\s+)?(?:button|btn|link|icon|control)\b)/i.test(rest)) return null;
  const object = objectText(rest);
  if (!object || object.split(/\s+/).length > 8) return null;
  return { verb: m[1].toLowerCase(), object };
}

export type PageWhich = 'next' | 'previous' | 'first' | 'last' | number;

/** "Next page", "Go to the next page", "the last page", "page 3", "Go to page 3" → which page control. */
export function parsePagination(step: string): PageWhich | null {
  const s = step.trim().replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  const lead = String.raw`^(?:(?:go|move|skip|jump|navigate|turn)\s+(?:on\s+|back\s+)?to\s+|click\s+(?:on\s+)?|open\s+|show\s+)?(?:the\s+)?`;
  if ((m = new RegExp(String.raw`${lead}(next|previous|prev|first|last|final)\s+page(?:\s+of\s+(?:the\s+)?results)?$`, 'i').exec(s))) {
    const w = m[1].toLowerCase();
    return w === 'prev' ? 'previous' : w === 'final' ? 'last' : (w as PageWhich);
  }
  if ((m = new RegExp(String.raw`${lead}page\s+(\d{1,4})(?:\s+of\s+(?:the\s+)?results)?$`, 'i').exec(s))) return Number(m[1]);
  // "Show the remaining members on the next page of the list", "See more results on the next page".
  if ((m = /^(?:show|see|view|list|display|browse|look at)\s+(?:the\s+)?(?:remaining|other|rest\s+of\s+the|more|further|older|newer)\s+[\p{L} ]{1,30}?\s+(?:on|in)\s+the\s+(next|previous)\s+page(?:\s+of\s+(?:the\s+)?(?:list|table|results))?$/iu.exec(s))) return m[1].toLowerCase() as PageWhich;
  return null;
}

/**
 * "Delete them", "Bulk remove them", "Archive the selected invoices", "Delete all selected rows"
 * → the verb of a bulk action on the rows earlier steps ticked. Null for other words.
 */
export function parseBulk(step: string): { verb: string } | null {
  const s = step.trim().replace(/[.!]+$/, '');
  const m = /^(?:bulk[- ]\s*)?([A-Za-z]+)\s+(?:them(?:\s+all)?|all\s+of\s+them|(?:all\s+)?(?:the\s+)?(?:selected|ticked|checked|chosen)(?:\s+(?:[\p{L}-]+\s*){1,2})?|the\s+selection|(?:the\s+)?(?:[\p{L}-]+\s+)?(?:ones\s+)?(?:i|we|you)\s+(?:selected|ticked|checked))(?:\s+in\s+bulk|\s+(?:all\s+)?at\s+once|\s+in\s+one\s+go|\s+together)?$/iu.exec(s);
  if (!m) return null;
  const v = m[1].toLowerCase();
  if (/^(?:click|tap|press|select|tick|check|untick|uncheck|open|find|verify|see|show|view|go)$/.test(v)) return null;
  // "Bulk X them" or "X the selected ..." says a bulk action; "X them" alone does too when X is a purpose verb.
  const bulkWords = /^bulk|selected|ticked|checked|chosen|selection|in\s+bulk|at\s+once|in\s+one\s+go|together/i.test(s);
  if (!bulkWords && !isPurposeVerb(v) && !/^(?:delete|remove|archive|export)$/.test(v)) return null;
  return { verb: v };
}

/**
 * "Send Grace Okafor a password reset", "Email Ann the invoice", "Send a password reset to Grace
 * Okafor" → the noun phrase the control is named by and the row it is for. Null otherwise.
 */
export function parseSendFor(step: string): { noun: string; who: string; verb: string } | null {
  const s = step.trim().replace(/[.!]+$/, '');
  let m: RegExpExecArray | null;
  let noun = '', who = '', verb = '';
  if ((m = /^(send|resend|email|e-mail|give|issue|trigger)\s+(?:a\s+|an\s+|the\s+|another\s+)?(?:new\s+)?(.+?)\s+(?:to|for)\s+(.+)$/i.exec(s))) [verb, noun, who] = [m[1], m[2], m[3]];
  else if ((m = /^(send|resend|email|e-mail|issue)\s+(.+?)\s+(?:a|an|the|another)\s+(?:new\s+)?(.+)$/i.exec(s))) [verb, who, noun] = [m[1], m[2], m[3]];
  else return null;
  who = unquote(who.replace(/^(?:the\s+)?(?:user|member|person|customer)\s+/i, ''));
  noun = noun.replace(/^(?:a|an|the)\s+/i, '').trim();
  // The person is named as a row shows them: a name, an address, a quoted text.
  if (!who || !/^[\p{Lu}@"“\d]|@/u.test(who) || /^(?:it|them|him|her|me|us)$/i.test(who)) return null;
  if (!noun || !/\p{L}/u.test(noun) || noun.split(/\s+/).length > 4) return null;
  return { noun, who, verb: verb.toLowerCase() };
}
