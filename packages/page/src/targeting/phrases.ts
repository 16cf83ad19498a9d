// Pure text logic for the description ladder (seed 004): which phrases to try, in
// which order, and which ARIA role the words hint at.

export type AriaRole =
  | 'button' | 'link' | 'checkbox' | 'radio' | 'textbox' | 'combobox' | 'tab' | 'menuitem'
  | 'heading' | 'option' | 'switch' | 'slider' | 'searchbox' | 'row' | 'cell' | 'img' | 'listitem';

// Quoted text: double or curly quotes anywhere; single quotes only at word edges,
// so apostrophes ("Bob's cart") are not mistaken for quotes.
const QUOTED = /"([^"]+)"|“([^”]+)”|‘([^’]+)’|(?<![\p{L}\p{N}])'([^']+)'(?![\p{L}\p{N}])/gu;

// Word → role. Order matters: the first word found in the description wins.
const ROLE_WORDS: [RegExp, AriaRole][] = [
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

export function roleHintFor(description: string): AriaRole | null {
  // Quoted text is the element's name, not a hint ("the 'Add link' button" is a button).
  const unquoted = description.replace(QUOTED, ' ');
  for (const [re, role] of ROLE_WORDS) if (re.test(unquoted)) return role;
  return null;
}

const FILLER = /\b(click|press|tap|hit|select|choose|open|the|a|an|on|in|into|at|to|of|for|button|btn|link|field|input|textbox|text box|checkbox|dropdown|drop-down|tab|menu item|labeled|labelled|named|called|titled|with text|that says|icon|element)\b/gi;

/**
 * Phrases to try, most specific first: quoted substrings (so a verbose description
 * cannot poison the match), then the description without filler words, then as given.
 */
export function extractPhrases(description: string): string[] {
  const out: string[] = [];
  const add = (s: string) => {
    const t = s.trim().replace(/\s+/g, ' ');
    if (t && !out.includes(t)) out.push(t);
  };
  for (const m of description.matchAll(QUOTED)) add(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
  if (out.length) return out;
  add(description.replace(FILLER, ' ').replace(/[.,;:!?]+$/g, ''));
  add(description);
  return out;
}
