import type { DescribedTarget } from './spec.js';

// A count of like icons as a target (issue 25): "Give the Coffee grinder 3 stars", "Rate Chris's
// post 4 out of 5", "4 stars for the Espresso machine", "a 2-star rating for Dana". A rating
// widget is a run of same-kind icons (or radios) in one container, and N stars is the Nth of that
// run: parsed here to the Nth "star" icon in the run, scoped to the thing rated. The tree match
// counts inside exactly one run (tree-match.ts runsOf) and refuses when N is out of range, when
// "out of M" does not match the run's length, or when no single run can be found.

const NUMBER_WORDS: Record<string, number> = { one: 1, a: 1, an: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10 };
// The pictures a rating is counted in.
const UNIT = String.raw`(?:stars?|hearts?|thumbs(?:[- ]ups?)?|points?|dots?|circles?|diamonds?)`;
const COUNT = String.raw`(\d{1,2}|one|two|three|four|five|six|seven|eight|nine|ten|an?)`;

function countOf(w: string): number {
  return NUMBER_WORDS[w.toLowerCase()] ?? parseInt(w, 10);
}

function unitPhrase(u: string | undefined): string {
  const w = (u ?? 'star').toLowerCase();
  if (/^thumb/.test(w)) return 'thumbs up';
  return w.replace(/s$/, '');
}

function cleanScope(s: string): string {
  const t = s.trim()
    .replace(/^(?:the|a|an)\s+/i, '')
    // "Give the app a 4 out of 5 rating": the article before the count is no part of the name.
    .replace(/\s+(?:a|an)$/i, '')
    .replace(/['’]s?\s+(?:post|row|card|item|entry|review|product|listing|comment|answer|photo|line)$/i, '')
    .replace(/\s+(?:post|row|card|item|entry|review|product|listing)$/i, '')
    .replace(/^["“‘']|["”’']$/g, '')
    .trim();
  // "the app", "the site", "this page": the page itself is rated, not a row or card of it.
  return /^(?:app|site|website|web ?site|page|this page|service|shop|store|us|it|this|them)$/i.test(t) ? '' : t;
}

/**
 * "Give X N stars" / "Rate X N stars" / "Rate X N out of M" / "give X a rating of N" / "N stars
 * for X" / "an N-star rating for X" → the Nth star icon in X's run. Null for other words.
 */
export function parseRating(words: string): DescribedTarget | null {
  const s = words.trim().replace(/[.!]+$/, '').trim();
  let m: RegExpExecArray | null;
  let item = '';
  let n = 0;
  let of = 0;
  let unit: string | undefined;
  // "Give the Coffee grinder 3 stars", "Rate Chris's post 4 stars", "Rate it 3 out of 5".
  // "Rate 4 stars", "Give 3 out of 5": nothing named; the page's one rating (or the one the plan spoke of).
  if ((m = new RegExp(String.raw`^(?:please\s+)?(?:give|rate|award|leave|score)\s+(?:(?:it|this|that|this one|that one)\s+)?(?:a\s+rating\s+of\s+)?${COUNT}(?:\s*[- ]?\s*(${UNIT}))?(?:\s+(?:out\s+of|of|\/)\s*(\d{1,2}|five|ten)(?:\s+${UNIT})?)?(?:\s+rating)?$`, 'i').exec(s)) && (m[2] || m[3] || /rating\s+of/i.test(s))) {
    n = countOf(m[1]);
    unit = m[2];
    of = m[3] ? countOf(m[3]) : 0;
  } else if ((m = new RegExp(String.raw`^(?:please\s+)?(?:give|rate|award|leave|score)\s+(.+?)\s+(?:a\s+rating\s+of\s+|a\s+score\s+of\s+)?${COUNT}(?:\s*[- ]?\s*(${UNIT}))?(?:\s+(?:out\s+of|of|\/)\s*(\d{1,2}|five|ten)(?:\s+${UNIT})?)?(?:\s+rating)?$`, 'i').exec(s))) {
    item = m[1];
    n = countOf(m[2]);
    unit = m[3];
    of = m[4] ? countOf(m[4]) : 0;
    // "Rate it 3" alone (no unit, no "out of") is not a rating: it may be a field's value.
    if (!unit && !of && !/a\s+(?:rating|score)\s+of/i.test(s)) return null;
  } else if ((m = new RegExp(String.raw`^(?:(?:click|give|select|choose|pick|set)\s+)?(?:an?\s+)?${COUNT}[- ]?(${UNIT})(?:\s+rating)?(?:\s+(?:out\s+of|of)\s+(\d{1,2}|five|ten))?\s+(?:for|to|on)\s+(.+)$`, 'i').exec(s))) {
    // "4 stars for the Espresso machine", "a 2-star rating for Dana's post", "click 3 stars on X".
    n = countOf(m[1]);
    unit = m[2];
    of = m[3] ? countOf(m[3]) : 0;
    item = m[4];
  } else return null;
  if (!Number.isFinite(n) || n < 1) return null;
  const scope = cleanScope(item);
  const spec: DescribedTarget = { phrase: unitPhrase(unit), role: null, icon: true, ordinal: n, run: of > 1 ? of : 1 };
  // "Rate it 4 stars": the thing rated is the one the plan spoke of (no scope of its own).
  if (scope && !/^(?:it|this|that|them|this one|that one)$/i.test(scope)) spec.scope = scope;
  if (of > 1 && n > of) return { ...spec, ordinal: n };
  return spec;
}

const ORD: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, last: -1 };
const ORD_WORD = String.raw`(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|\d{1,2}(?:st|nd|rd|th))`;

function ordinalOf(w: string): number {
  return ORD[w.toLowerCase()] ?? parseInt(w, 10);
}

/**
 * An icon named with where it is, in words the general parse leaves whole: "the 4th star of
 * Espresso machine", "the fourth star under Espresso machine", "star number 4", "the circular
 * arrow right of the Milk frother stars" → the icon, its position and the thing it belongs to.
 */
export function refineIconTarget(spec: DescribedTarget, isIcon: (w: string) => boolean): DescribedTarget {
  if (spec.quoted) return spec;
  let out = spec;
  // "the link icon", "the key icon": the kind word was the picture ("link" read as a link named "icon").
  const kindPicture = /^(?:the\s+)?([\p{L}-]+(?:\s+[\p{L}-]+)?)\s+(?:icon|symbol|glyph)$/iu.exec(out.whole ?? '');
  if (kindPicture && /^(?:icon|symbol|glyph)?$/i.test(out.phrase) && isIcon(kindPicture[1])) return { ...out, phrase: kindPicture[1], role: null, icon: true };
  if (!out.phrase) return out;
  // "the (toolbar) button with dots and lines", "the icon showing a paper plane": the picture it shows.
  const showing = /^(?:the\s+)?(?:(.+?)\s+)?(?:button|btn|icon|control|link)\s+(?:with|showing|that shows|which shows|displaying|drawn as)\s+(?:an?\s+|the\s+)?(.+)$/i.exec(out.phrase);
  if (showing && isIcon(showing[2])) {
    out = { ...out, phrase: showing[2], icon: true, whole: out.phrase };
    if (showing[1] && !out.scope) out.scope = showing[1];
  }
  if (!out.scope) {
    const m = new RegExp(String.raw`^(?:the\s+)?(?:${ORD_WORD}\s+)?(.+?)\s+(?:of|under|below|beneath|above|on|in|for|from|beside|next to|by|right of|left of)\s+(?:the\s+)?(.+)$`, 'i').exec(out.phrase);
    // Only a picture ("the star of X"), never a purpose that starts a name ("Share on Facebook");
    // the whole words still win first as a name.
    if (m && isIcon(m[2]) && m[3].trim() && !out.role) {
      out = { ...out, phrase: m[2], icon: true, scope: m[3], whole: out.phrase };
      if (m[1]) out.ordinal = ordinalOf(m[1]);
    }
  }
  const n = /^(?:the\s+)?(.+?)\s+(?:number|no\.?|#)\s*(\d{1,2})$/i.exec(out.phrase);
  if (n && isIcon(n[1]) && !out.ordinal) out = { ...out, phrase: n[1], icon: true, ordinal: parseInt(n[2], 10) };
  // "the Milk frother's stars", "Dana's rating": the thing whose icons they are.
  if (out.scope && isIcon(out.phrase)) {
    const sc = out.scope.replace(/['’]s?\s*$/, '').replace(/['’]s?\s+(?:stars?|rating|ratings|icons?|row|card|post|line)$/i, '').replace(/\s+(?:stars|rating|ratings|icons)$/i, '').trim();
    if (sc && sc !== out.scope) out = { ...out, scope: sc };
  }
  return out;
}
