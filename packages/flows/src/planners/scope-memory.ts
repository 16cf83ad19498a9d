// Back-references across the steps of one plan: "Open the e-mail from Rochelle Park, then
// star her row", "Find Chris's post. Like it. Then share his post", "its row", "that row",
// "the same card", "in it". The rules planner tells this memory which row/card/item each
// part of a step named (a person's or an item's name, never a control's), and asks it what
// a pronoun stands for. The answer is the one name the most recent naming step gave; a
// pronoun with no name before it, or after a step that named two different ones, is refused
// (the caller fails the step saying so), never guessed. Pure: unit-tested without a browser.

/** A scope word that only points back: "her", "his row", "that card", "the same post", "it". */
const BACK = /^(?:(?:in|on|inside|within|of|for|from)\s+)?(?:the\s+)?(?:her|his|its|their|him|it|them|that|this|same|that same|this same|the same|said)(?:\s+(?:one|row|card|item|post|entry|line|message|e-?mail|mail|record|tile|person|user|product|listing|comment|thread|conversation|note|task|todo|order|file|folder))?$/i;

export function isBackReference(scope: string | undefined | null): boolean {
  return typeof scope === 'string' && BACK.test(scope.trim());
}

/** Nouns for things shown as a row or a card, after which a possessive or "from X" names the item's person. */
const THING = String.raw`(?:e-?mail|mail|message|post|comment|row|card|entry|item|line|record|tile|thread|conversation|note|profile|order|invoice|listing|product|review|task|todo|file|photo|tweet|reply)`;

/**
 * The row/card/item a phrase names, as text a row shows: "the e-mail from Rochelle Park" →
 * Rochelle Park; "Chris's post" → Chris; "the row for Invoice 12" → Invoice 12; a quoted
 * name → it. Null when the phrase names no such thing (a control: "Save", "the up arrow").
 */
export function namedItem(phrase: string): string | null {
  const s = phrase.trim().replace(/[.!,;:]+$/, '');
  let m: RegExpExecArray | null;
  if ((m = /^"([^"]+)"$|^“([^”]+)”$/.exec(s))) return (m[1] ?? m[2]).trim();
  if ((m = new RegExp(String.raw`^(?:the\s+|a\s+|an\s+)?(?:[\w-]+\s+)?${THING}s?\s+(?:sent\s+)?(?:from|by|of|for|about|with|called|named|titled)\s+(?:the\s+)?(?:user\s+|person\s+|customer\s+)?(.+)$`, 'i').exec(s))) return clean(m[1]);
  if ((m = new RegExp(String.raw`^(?:the\s+)?(.+?)(?:'s|’s|'|’)\s+(?:[\w-]+\s+)?${THING}s?$`, 'i').exec(s))) return clean(m[1]);
  if ((m = new RegExp(String.raw`^(?:the\s+)?(.+?)\s+${THING}$`, 'i').exec(s)) && /^(?:"[^"]+"|“[^”]+”|[\p{Lu}@#\d].*)$/u.test(m[1].trim())) return clean(m[1]);
  return null;
}

function clean(s: string): string | null {
  const t = s.trim().replace(/^"([^"]+)"$|^“([^”]+)”$/, (_, a: string, b: string) => a ?? b).replace(/\s+\((?:[^)]*)\)$/, '').trim();
  if (!t || isBackReference(t)) return null;
  return t;
}

export type Resolution = { ok: true; name: string } | { ok: false; reason: string };

/** What the plan has named so far, step by step (the current step last). */
export class ScopeMemory {
  private steps: { index: number; names: string[] }[] = [];

  /** Note that step `index` (or a part of it) named this row/card/item. */
  remember(index: number, name: string): void {
    const n = name.trim();
    if (!n || isBackReference(n)) return;
    let last = this.steps[this.steps.length - 1];
    if (!last || last.index !== index) {
      last = { index, names: [] };
      this.steps.push(last);
    }
    if (!last.names.some((x) => same(x, n))) last.names.push(n);
  }

  /**
   * What a back-reference in step `index` stands for: the one name of the most recent step
   * (this step's earlier parts included) that named any. Refused when none did, or when
   * that step named several different ones.
   */
  resolve(words: string): Resolution {
    const last = this.steps[this.steps.length - 1];
    if (!last) return { ok: false, reason: `"${words}" refers back to a row, card or item, but no earlier step named one (say which, e.g. "in the row of Rochelle Park")` };
    if (last.names.length > 1) return { ok: false, reason: `"${words}" could mean ${last.names.map((n) => `"${n}"`).join(' or ')} (step ${last.index} named ${last.names.length}); say which by name` };
    return { ok: true, name: last.names[0] };
  }

  clear(): void {
    this.steps = [];
  }
}

function same(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * A sentence whose object is a pronoun the parser cannot take as a target ("Like it",
 * "Click Reply in it", "Star them too"): the pronoun replaced by the name it stands for.
 * Null when the sentence has no such pronoun.
 */
export function replaceObjectPronoun(sentence: string, name: string): string | null {
  const q = `"${name.replace(/"/g, '')}"`;
  let out = sentence.replace(/\b(in|on|inside|within|from|of)\s+(?:it|them|him|her)\b(?=\s*(?:$|[.,;!]|\s+(?:and|then|again|too|as well)\b))/i, (_, prep: string) => `${prep} ${q}`);
  if (out !== sentence) return out;
  out = sentence.replace(/^(\s*[A-Za-z-]+(?:\s+(?:on|up|off|out))?)\s+(?:it|them|him|her)\b(?=\s*(?:$|[.,;!]|\s+(?:again|too|as well|once more)\b))/i, (_, verb: string) => `${verb} ${q}`);
  return out !== sentence ? out : null;
}

/** "Click Reply in it", "Like it": whether the sentence leans on an object pronoun. */
export function hasObjectPronoun(sentence: string): boolean {
  return /\b(?:in|on|inside|within|from|of)\s+(?:it|them|him|her)\b\s*[.!]?\s*$/i.test(sentence) || /^\s*[A-Za-z-]+(?:\s+(?:on|up|off|out))?\s+(?:it|them|him|her)\b(?:\s+(?:again|too|as well|once more))?\s*[.!]?\s*$/i.test(sentence);
}
