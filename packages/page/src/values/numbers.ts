// Numbers as people write them for a quantity ("3", "three", "1,200", "2.5"), and the
// relative form a caller uses to step a number field from where it is ("+=2", "-=1": only
// ever read on a field that holds a number, where such text could not be a real value).

const WORDS: Record<string, number> = {
  zero: 0, none: 0, no: 0, one: 1, a: 1, an: 1, once: 1, two: 2, twice: 2, three: 3, thrice: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19, twenty: 20,
  dozen: 12, 'a dozen': 12,
};

/** "3", "-2", "2.5", "1,200", "three", "a dozen" → the number; null when it is not one. */
export function readNumber(raw: string): number | null {
  const s = raw.trim().toLowerCase().replace(/^(?:the\s+)?(?:number|value)\s+/, '');
  if (/^[+-]?\d+(?:\.\d+)?$/.test(s)) return Number(s);
  if (/^[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(s)) return Number(s.replace(/,/g, ''));
  if (s in WORDS && !['a', 'an', 'no', 'none', 'once'].includes(s)) return WORDS[s];
  return null;
}

/** A count in words: "twice", "3 times", "once more", "two times" → n; null otherwise. */
export function readTimes(raw: string): number | null {
  const s = raw.trim().toLowerCase().replace(/\s+(?:more|again)$/, '');
  if (s === 'once') return 1;
  if (s === 'twice') return 2;
  if (s === 'thrice') return 3;
  const m = /^(\S+)\s+times?$/.exec(s);
  if (!m) return null;
  const n = /^\d+$/.test(m[1]) ? Number(m[1]) : WORDS[m[1]];
  return n !== undefined && n > 0 ? n : null;
}

/** The count words of readNumber, for callers that parse "by one", "by two" (a/an: one). */
export function countWord(raw: string): number | null {
  const s = raw.trim().toLowerCase();
  if (s === 'a' || s === 'an' || s === 'one') return 1;
  const n = readNumber(s);
  return n !== null && Number.isFinite(n) ? n : null;
}

/** "+=2" → 2, "-=1" → -1: a step from the field's current value; null otherwise. */
export function readRelative(raw: string): number | null {
  const m = /^([+-])=\s*(\d+(?:\.\d+)?)$/.exec(raw.trim());
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * Number(m[2]);
}

/** A number as a field shows it: no float noise (0.1 + 0.2 → "0.3"). */
export function showNumber(n: number): string {
  return String(Number.isInteger(n) ? n : Number(n.toFixed(10)));
}
