// Pure text logic for the description ladder (seed 004): which phrases to try, in
// which order, and which ARIA role the words hint at.

export type AriaRole =
  | 'button' | 'link' | 'checkbox' | 'radio' | 'textbox' | 'combobox' | 'tab' | 'menuitem'
  | 'heading' | 'option' | 'switch' | 'slider' | 'searchbox' | 'row' | 'cell' | 'img' | 'listitem';

// Quoted text: double or curly quotes anywhere; single quotes only at word edges,
// so apostrophes ("Bob's cart") are not mistaken for quotes.
const QUOTED = /"([^"]+)"|“([^”]+)”|‘([^’]+)’|(?<![\p{L}\p{N}])'([^']+)'(?![\p{L}\p{N}])/gu;

// Word → role. Order matters: the first role in this list found in the description wins.
const ROLE_WORDS: [RegExp, AriaRole][] = [
  // "the Cheque radio button": a radio, not a button.
  [/\bradio\s+buttons?\b/i, 'radio'],
  [/\b(button|btn)\b/i, 'button'],
  [/\b(link|hyperlink)\b/i, 'link'],
  [/\b(checkbox|check box|tick box)\b/i, 'checkbox'],
  [/\b(radio|radio button)\b/i, 'radio'],
  [/\b(search box|searchbox|search field)\b/i, 'searchbox'],
  [/\b(dropdown|drop-down|select|combobox|combo box|picker)\b/i, 'combobox'],
  [/\b(field|input|textbox|text box|textarea|text area)\b/i, 'textbox'],
  [/\b(tab)\b/i, 'tab'],
  [/\b(menu item|menuitem)\b/i, 'menuitem'],
  [/\b(heading|title|header)\b/i, 'heading'],
  [/\b(option)\b/i, 'option'],
  [/\b(switch|toggle)\b/i, 'switch'],
  [/\b(slider)\b/i, 'slider'],
  [/\b(image|icon|logo|picture)\b/i, 'img'],
];

// The instruction around the name: a leading verb ("click", "select" ...) and article.
// Only stripped at the start, so a name that contains such words keeps them.
const LEAD_VERB = /^(?:please\s+)?(?:double[- ]?click|right[- ]?click|click|press|tap|hit|select|choose|pick|open|check|uncheck|tick|untick|toggle|hover(?:\s+over)?|fill(?:\s+in)?|type\s+into|enter|focus(?:\s+on)?|go\s+to|use)(?:\s+on)?\s+/i;
const ARTICLE = /^(?:the|a|an|this|that)\s+/i;
// The element kind as a noun ("the Sign in button"): the last one is the head noun.
const ROLE_NOUN = String.raw`(?:button|btn|hyperlink|link|check ?box|tick box|radio button|radio|drop-?down|combo ?box|search ?box|search field|text ?box|text ?area|textarea|field|input|menu ?item|tab|heading|option|switch|slider|icon|image|logo)`;
const HEAD_NOUN = new RegExp(String.raw`^(.*?)\s*\b${ROLE_NOUN}\b(?!.*\b${ROLE_NOUN}\b)(.*)$`, 'i');
// "... labeled X", "... named X", "... that says X": X is the name.
const NAMED = /\b(?:label(?:l)?ed|named|called|titled|saying|that says|which says|with (?:the )?(?:text|label|name))\s+(.+)$/i;
// Old-style filler removal, kept as a late, generous fallback.
const FILLER = /\b(click|press|tap|hit|select|choose|open|the|a|an|on|in|into|at|to|of|for|button|btn|link|field|input|textbox|text box|checkbox|dropdown|drop-down|tab|menu item|labeled|labelled|named|called|titled|with text|that says|icon|element)\b/gi;

function stripInstruction(s: string): string {
  let out = s.trim().replace(/[.!?;,:]+$/g, '').trim();
  out = out.replace(LEAD_VERB, '');
  out = out.replace(ARTICLE, '');
  return out.trim();
}

export function roleHintFor(description: string): AriaRole | null {
  // Quoted text is the element's name, not a hint ("the 'Add link' button" is a button),
  // and a leading verb is an instruction ("Select the France option" is an option).
  const unquoted = stripInstruction(description.replace(QUOTED, ' '));
  for (const [re, role] of ROLE_WORDS) if (re.test(unquoted)) return role;
  return null;
}

/**
 * Phrases to try, most specific first: quoted substrings (so a verbose description
 * cannot poison the match); otherwise what follows "labeled/named ...", the words
 * before the element's kind ("Add to cart" in "click the Add to cart button"), the
 * description without its leading verb and article, a filler-stripped form, and the
 * description as given. Small words inside a name ("Log in", "Add to cart") are kept.
 */
export function extractPhrases(description: string): string[] {
  const out: string[] = [];
  const add = (s: string | undefined) => {
    const t = (s ?? '').trim().replace(/\s+/g, ' ').replace(/[.!?;,:]+$/g, '').trim();
    if (t && !out.some((o) => o.toLowerCase() === t.toLowerCase())) out.push(t);
  };
  for (const m of description.matchAll(QUOTED)) add(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  if (out.length) return out;

  const core = stripInstruction(description);
  const named = NAMED.exec(core);
  if (named) add(stripInstruction(named[1]).replace(new RegExp(String.raw`\s+\b${ROLE_NOUN}$`, 'i'), ''));
  const head = HEAD_NOUN.exec(core);
  if (head) {
    const before = head[1].replace(/\s+(?:the|a|an)$/i, '').trim();
    if (before) add(before);
    else add(head[2].replace(/^\s*(?:for|to|with|of)\s+/i, ''));
  }
  add(core);
  // The leading "verb" may be part of the name after all ("Select all checkbox").
  const kept = description.trim().replace(/[.!?;,:]+$/g, '').replace(ARTICLE, '');
  const keptHead = kept !== core ? HEAD_NOUN.exec(kept) : null;
  if (keptHead) add(keptHead[1].replace(/\s+(?:the|a|an)$/i, ''));
  add(description.replace(FILLER, ' '));
  add(description);
  return out;
}
