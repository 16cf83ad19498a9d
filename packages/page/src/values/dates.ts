// Dates and times as people write them ("14 March 1990", "March 14, 1990", "14/03/1990",
// "tomorrow", "next Friday", "3:30 pm"), read into parts, and written back in the form a
// field takes: ISO for <input type=date|time|datetime-local|month|week> (Playwright's fill
// throws "Malformed value" on anything else), or the pattern a text field shows
// ("DD/MM/YYYY" in its placeholder or hint, a datepicker's dateFormat). Pure: no page, no
// clock (today comes from the caller, read in the page so the context's time zone counts).
// A numeric date whose day/month order is not decided (03/04/2025) throws ValueError
// 'ambiguous_value' unless the caller knows the order (a format hint, the page's lang):
// a date is never guessed.

export interface DateParts { y: number; m: number; d: number }
export interface TimeParts { h: number; min: number; s?: number }
export type DayOrder = 'dmy' | 'mdy';

/** What a value says: a day, a month, a time, a week, or a day with a time. */
export interface When {
  date?: DateParts;
  /** "March 1990": a month without a day. */
  month?: { y: number; m: number };
  time?: TimeParts;
  week?: { y: number; w: number };
  /** How it was read, for the answer: "14/03/1990 read day first (the field's format DD/MM/YYYY)". */
  note?: string;
}

export class ValueError extends Error {
  constructor(readonly code: 'ambiguous_value' | 'invalid_value' | 'value_out_of_range', message: string, readonly details: Record<string, unknown> = {}) {
    super(message);
  }
}

const MONTH_NAMES = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** "Mar", "march", "Sept." → 1..12; else 0. */
export function monthNumber(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return 0;
  if (w === 'sept') return 9;
  const i = MONTH_NAMES.findIndex((n) => n === w || (w.length === 3 && n.startsWith(w)));
  return i + 1;
}

function dayNumber(word: string): number {
  const w = word.toLowerCase().replace(/\.$/, '');
  if (w.length < 3) return -1;
  return DAY_NAMES.findIndex((n) => n.startsWith(w));
}

export function daysInMonth(y: number, m: number): number {
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

function validDate(y: number, m: number, d: number): boolean {
  return Number.isInteger(y) && y >= 1 && y <= 9999 && m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

function checkedDate(y: number, m: number, d: number, raw: string): DateParts {
  if (!validDate(y, m, d)) throw new ValueError('invalid_value', `"${raw}" is not a real date (${m >= 1 && m <= 12 ? `${MONTH_NAMES[m - 1][0].toUpperCase()}${MONTH_NAMES[m - 1].slice(1)} ${y} has ${daysInMonth(y, m)} days` : `there is no month ${m}`}).`, { value: raw });
  return { y, m, d };
}

/** A two-digit year: within 10 years ahead of today, else the century before. */
function fullYear(yy: string, today: DateParts): number {
  if (yy.length !== 2) return Number(yy);
  const n = Number(yy);
  const century = Math.floor(today.y / 100) * 100;
  return century + n > today.y + 10 ? century - 100 + n : century + n;
}

function addDays(p: DateParts, n: number): DateParts {
  const t = new Date(Date.UTC(p.y, p.m - 1, p.d + n));
  return { y: t.getUTCFullYear(), m: t.getUTCMonth() + 1, d: t.getUTCDate() };
}

function weekday(p: DateParts): number {
  return new Date(Date.UTC(p.y, p.m - 1, p.d)).getUTCDay();
}

/** ISO 8601 week of a day: { y, w } (the year the week's Thursday falls in). */
export function isoWeek(p: DateParts): { y: number; w: number } {
  const t = new Date(Date.UTC(p.y, p.m - 1, p.d));
  t.setUTCDate(t.getUTCDate() - ((t.getUTCDay() + 6) % 7) + 3); // that week's Thursday
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return { y: t.getUTCFullYear(), w: Math.floor((t.getTime() - yearStart) / 86_400_000 / 7) + 1 };
}

export interface ReadOptions {
  /** Today in the page's time zone, for "tomorrow", "next Friday" and two-digit years. */
  today: DateParts;
  /** Day/month order when the caller knows it (a format hint, the page's lang). */
  order?: DayOrder | null;
  /** Where the order came from, for messages: "the field's format DD/MM/YYYY". */
  orderSource?: string;
}

const ORD = '(?:st|nd|rd|th)?';

/**
 * A day as people write it; null when the text is not a date at all. Throws ValueError
 * for a date-shaped text that is impossible (31/02/2024) or whose order is not decided.
 */
export function readDate(raw: string, opts: ReadOptions): DateParts | null {
  const s = raw.trim().replace(/\s+/g, ' ').replace(/^(?:on|the)\s+/i, '').replace(/[.,]$/, '');
  const today = opts.today;
  let m: RegExpExecArray | null;
  // Relative days.
  const rel = s.toLowerCase();
  if (rel === 'today' || rel === 'now') return today;
  if (rel === 'tomorrow') return addDays(today, 1);
  if (rel === 'yesterday') return addDays(today, -1);
  if (rel === 'the day after tomorrow' || rel === 'day after tomorrow') return addDays(today, 2);
  if ((m = /^in (\d{1,3}|a|one|two|three|four|five|six|seven) (day|week)s?(?: from (?:now|today))?$/i.exec(s))) {
    const words: Record<string, number> = { a: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
    const n = words[m[1].toLowerCase()] ?? Number(m[1]);
    return addDays(today, /week/i.test(m[2]) ? n * 7 : n);
  }
  // "next Friday", "this Friday", "Friday": the first such day after today ("this": today counts).
  if ((m = /^(next|this|coming|this coming)?\s*([a-z]+)$/i.exec(s)) && dayNumber(m[2]) >= 0) {
    const want = dayNumber(m[2]);
    const from = /^this$/i.test(m[1] ?? '') ? 0 : 1;
    for (let i = from; i < from + 7; i++) {
      const d = addDays(today, i);
      if (weekday(d) === want) return d;
    }
  }
  // A weekday before a written date ("Friday, 14 March 1990") says nothing more.
  const bare = s.replace(/^(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?\.?,?\s+/i, '');
  // ISO and year-first: 1990-03-14, 1990/3/14, 1990.03.14.
  if ((m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(bare))) return checkedDate(Number(m[1]), Number(m[2]), Number(m[3]), raw);
  // Month names: "14 March 1990", "14th of March, 1990", "14-Mar-1990", "March 14, 1990", "Mar 14th 1990".
  if ((m = new RegExp(`^(\\d{1,2})${ORD}(?:\\s+of)?[\\s-]+([A-Za-z]{3,}\\.?)[\\s,-]+(\\d{4}|'?\\d{2})$`).exec(bare)) && monthNumber(m[2])) {
    return checkedDate(fullYear(m[3].replace("'", ''), today), monthNumber(m[2]), Number(m[1]), raw);
  }
  if ((m = new RegExp(`^([A-Za-z]{3,}\\.?)[\\s-]+(\\d{1,2})${ORD},?[\\s-]+(\\d{4}|'?\\d{2})$`).exec(bare)) && monthNumber(m[1])) {
    return checkedDate(fullYear(m[3].replace("'", ''), today), monthNumber(m[1]), Number(m[2]), raw);
  }
  // No year: "14 March", "March 14th": this year.
  if ((m = new RegExp(`^(\\d{1,2})${ORD}(?:\\s+of)?\\s+([A-Za-z]{3,}\\.?)$`).exec(bare)) && monthNumber(m[2])) return checkedDate(today.y, monthNumber(m[2]), Number(m[1]), raw);
  if ((m = new RegExp(`^([A-Za-z]{3,}\\.?)\\s+(\\d{1,2})${ORD}$`).exec(bare)) && monthNumber(m[1])) return checkedDate(today.y, monthNumber(m[1]), Number(m[2]), raw);
  // All numbers: 14/03/1990, 03-14-90, 14.3.1990.
  if ((m = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{4}|\d{2})$/.exec(bare))) {
    const a = Number(m[1]), b = Number(m[3]), y = fullYear(m[4], today);
    const asDmy = validDate(y, b, a), asMdy = validDate(y, a, b);
    if (!asDmy && !asMdy) throw new ValueError('invalid_value', `"${raw}" is not a real date, day first or month first.`, { value: raw });
    if (asDmy && asMdy && a !== b) {
      if (opts.order === 'dmy') return { y, m: b, d: a };
      if (opts.order === 'mdy') return { y, m: a, d: b };
      throw new ValueError('ambiguous_value', `"${raw}" could be ${a} ${cap(MONTH_NAMES[b - 1])} or ${cap(MONTH_NAMES[a - 1])} ${b}, and nothing on the page says which order the field uses (no format hint; the page's lang does not decide it). Write the date with the month's name ("${a} ${cap(MONTH_NAMES[b - 1])} ${y}") or as ${y}-${pad(b)}-${pad(a)}.`, { value: raw, readings: [`${y}-${pad(b)}-${pad(a)}`, `${y}-${pad(a)}-${pad(b)}`] });
    }
    return asDmy ? { y, m: b, d: a } : { y, m: a, d: b };
  }
  return null;
}

function cap(s: string): string {
  return s[0].toUpperCase() + s.slice(1);
}

export function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

/** "3:30 pm", "3pm", "15:30", "15:30:05", "noon", "midnight", "3.30 p.m."; null when not a time. */
export function readTime(raw: string): TimeParts | null {
  const s = raw.trim().toLowerCase().replace(/^at\s+/, '').replace(/\s+/g, ' ');
  if (s === 'noon' || s === 'midday') return { h: 12, min: 0 };
  if (s === 'midnight') return { h: 0, min: 0 };
  const m = /^(\d{1,2})(?:[:.h](\d{2})(?::(\d{2}))?)?\s*(a\.?m\.?|p\.?m\.?|o'?clock)?$/.exec(s);
  if (!m) return null;
  // A bare number is a time only with am/pm or o'clock ("3" alone is a quantity).
  if (m[2] === undefined && !m[4]) return null;
  let h = Number(m[1]);
  const min = Number(m[2] ?? 0), sec = m[3] !== undefined ? Number(m[3]) : undefined;
  const ap = m[4]?.replace(/\./g, '');
  if (ap === 'am' || ap === 'pm') {
    if (h < 1 || h > 12) throw new ValueError('invalid_value', `"${raw}" is not a time (a ${ap} hour is 1 to 12).`, { value: raw });
    if (ap === 'am' && h === 12) h = 0;
    else if (ap === 'pm' && h !== 12) h += 12;
  }
  if (h > 23 || min > 59 || (sec ?? 0) > 59) throw new ValueError('invalid_value', `"${raw}" is not a time of day.`, { value: raw });
  return sec !== undefined ? { h, min, s: sec } : { h, min };
}

/**
 * Everything a value can say about when: a day, a month ("March 1990", "1990-03"), a time,
 * a day and a time ("14 March 1990 at 3:30 pm", "tomorrow 15:30", "1990-03-14T15:30"), an
 * ISO week ("2025-W10", "week 10 of 2025"). Null when it is none of these.
 */
export function readWhen(raw: string, opts: ReadOptions): When | null {
  const s = raw.trim().replace(/\s+/g, ' ');
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})-W(\d{1,2})$/i.exec(s)) || (m = /^week (\d{1,2}),? (?:of )?(\d{4})$/i.exec(s))) {
    const [y, w] = /^\d{4}$/.test(m[1]) ? [Number(m[1]), Number(m[2])] : [Number(m[2]), Number(m[1])];
    if (w < 1 || w > 53) throw new ValueError('invalid_value', `"${raw}" is not a week of the year.`, { value: raw });
    return { week: { y, w } };
  }
  if ((m = /^(\d{4})-(\d{1,2})$/.exec(s)) || (m = /^(\d{1,2})\/(\d{4})$/.exec(s))) {
    const [y, mo] = m[1].length === 4 ? [Number(m[1]), Number(m[2])] : [Number(m[2]), Number(m[1])];
    if (mo < 1 || mo > 12) throw new ValueError('invalid_value', `"${raw}" is not a month.`, { value: raw });
    return { month: { y, m: mo } };
  }
  if ((m = /^([A-Za-z]{3,}\.?),? (\d{4})$/.exec(s)) && monthNumber(m[1])) return { month: { y: Number(m[2]), m: monthNumber(m[1]) } };
  // ISO date-time.
  if ((m = /^(\d{4}-\d{1,2}-\d{1,2})[T ](\d{1,2}:\d{2}(?::\d{2})?)$/.exec(s))) {
    const date = readDate(m[1], opts), time = readTime(m[2]);
    if (date && time) return { date, time };
  }
  const time = readTime(s);
  if (time) return { time };
  const date = readDate(s, opts);
  if (date) return { date };
  // A day and a time: "<day> at <time>", "<day>, <time>", "<day> <time>" (the time last).
  if ((m = /^(.+?)(?:,? at |, | )((?:\d{1,2}(?:[:.]\d{2}(?::\d{2})?)?\s*(?:[ap]\.?m\.?)?)|noon|midnight)$/i.exec(s))) {
    const t = readTime(m[2]);
    const d = t ? readDate(m[1], opts) : null;
    if (d && t) return { date: d, time: t };
  }
  // "3 pm tomorrow", "15:30 on 14 March 1990": the time first.
  if ((m = /^(\d{1,2}(?:[:.]\d{2})?\s*(?:[ap]\.?m\.?)?|noon|midnight)(?:,? on | )(.+)$/i.exec(s))) {
    const t = readTime(m[1]);
    const d = t ? readDate(m[2], opts) : null;
    if (d && t) return { date: d, time: t };
  }
  return null;
}

// --- Formats ------------------------------------------------------------------------------

/** One piece of a date format: a field of the date, or literal text between them. */
export type FormatToken = { kind: 'D' | 'DD' | 'M' | 'MM' | 'MON' | 'MONTH' | 'YY' | 'YYYY' } | { kind: 'lit'; text: string };

/**
 * A date format a person reads ("DD/MM/YYYY", "mm/dd/yy", "yyyy-mm-dd", "dd.mm.yyyy",
 * "MM/DD/YYYY") found in a field's placeholder or hint text; null when the text shows none.
 * Day, month and year must each appear once.
 */
export function formatFromHint(text: string): FormatToken[] | null {
  const m = /(?<![A-Za-z])((?:d{1,2}|m{1,4}|y{2,4}|j{1,2}|a{2,4}|t{1,2})(?:([/.\- ])(?:d{1,2}|m{1,4}|y{2,4}|j{1,2}|a{2,4}|t{1,2})){2})(?![A-Za-z])/i.exec(text);
  if (!m) return null;
  const sep = m[2];
  const parts = m[1].split(sep);
  if (parts.length !== 3) return null;
  const tokens: FormatToken[] = [];
  for (const [i, p] of parts.entries()) {
    const l = p.toLowerCase();
    // French/Spanish/German hints: jj/mm/aaaa, tt.mm.jjjj.
    let kind: FormatToken['kind'] | null = null;
    if (/^[dj]{1,2}$/.test(l) && !(l === 'jj' && parts.some((q) => /^j{3,4}$/i.test(q)))) kind = l.length === 1 ? 'D' : 'DD';
    if (/^t{1,2}$/.test(l)) kind = l.length === 1 ? 'D' : 'DD';
    if (/^m+$/.test(l)) kind = l.length === 1 ? 'M' : l.length === 2 ? 'MM' : l.length === 3 ? 'MON' : 'MONTH';
    if (/^[yaj]{2,4}$/.test(l) && (l[0] === 'y' || l.length >= 3 || (l[0] === 'a' && l.length >= 2))) kind = l.length === 2 ? 'YY' : 'YYYY';
    if (!kind) return null;
    if (i > 0) tokens.push({ kind: 'lit', text: sep });
    tokens.push({ kind });
  }
  return wellFormed(tokens) ? tokens : null;
}

/**
 * A datepicker's own format string: jQuery UI's dateFormat (d dd m mm M MM y yy, where yy
 * is the four-digit year) or bootstrap-datepicker's (d dd m mm M MM yy yyyy).
 */
export function formatFromPicker(format: string, dialect: 'jquery-ui' | 'bootstrap'): FormatToken[] | null {
  const tokens: FormatToken[] = [];
  const re = dialect === 'jquery-ui' ? /dd|d|mm|m|MM|M|yy|y|'[^']*'|[^dmMy']+/g : /dd|d|mm|m|MM|M|yyyy|yy|[^dmMy]+/g;
  for (const [t] of format.matchAll(re)) {
    let kind: FormatToken['kind'] | null = null;
    switch (t) {
      case 'd': kind = 'D'; break;
      case 'dd': kind = 'DD'; break;
      case 'm': kind = 'M'; break;
      case 'mm': kind = 'MM'; break;
      case 'M': kind = 'MON'; break;
      case 'MM': kind = 'MONTH'; break;
      case 'y': kind = dialect === 'jquery-ui' ? 'YY' : null; break;
      case 'yy': kind = dialect === 'jquery-ui' ? 'YYYY' : 'YY'; break;
      case 'yyyy': kind = 'YYYY'; break;
      default: break;
    }
    if (kind) tokens.push({ kind });
    else if (/^[dmMy]+$/.test(t)) return null;
    else tokens.push({ kind: 'lit', text: t.replace(/^'|'$/g, '') });
  }
  return wellFormed(tokens) ? tokens : null;
}

function wellFormed(tokens: FormatToken[]): boolean {
  const k = tokens.map((t) => t.kind);
  const one = (...ks: string[]) => k.filter((x) => ks.includes(x)).length === 1;
  return one('D', 'DD') && one('M', 'MM', 'MON', 'MONTH') && one('YY', 'YYYY');
}

/** Day before month in this format (numeric months only decide an order). */
export function orderOfFormat(tokens: FormatToken[]): DayOrder {
  const di = tokens.findIndex((t) => t.kind === 'D' || t.kind === 'DD');
  const mi = tokens.findIndex((t) => t.kind === 'M' || t.kind === 'MM' || t.kind === 'MON' || t.kind === 'MONTH');
  return di < mi ? 'dmy' : 'mdy';
}

/** The format as a person reads it: DD/MM/YYYY. */
export function formatName(tokens: FormatToken[]): string {
  return tokens.map((t) => (t.kind === 'lit' ? t.text : t.kind === 'MON' ? 'Mon' : t.kind === 'MONTH' ? 'Month' : t.kind)).join('');
}

export function formatDate(p: DateParts, tokens: FormatToken[]): string {
  return tokens.map((t) => {
    switch (t.kind) {
      case 'lit': return t.text;
      case 'D': return String(p.d);
      case 'DD': return pad(p.d);
      case 'M': return String(p.m);
      case 'MM': return pad(p.m);
      case 'MON': return cap(MONTH_NAMES[p.m - 1].slice(0, 3));
      case 'MONTH': return cap(MONTH_NAMES[p.m - 1]);
      case 'YY': return pad(p.y % 100);
      case 'YYYY': return pad(p.y, 4);
    }
  }).join('');
}

/**
 * The day/month order a page's lang decides: en-US (and a few others) month first; other
 * languages, and English outside North America, day first; "en" alone or en-CA: undecided.
 */
export function orderOfLang(lang: string | null | undefined): DayOrder | null {
  if (!lang) return null;
  const [language, region] = lang.toLowerCase().split(/[-_]/);
  if (!language) return null;
  if (language === 'en') {
    if (!region) return null;
    if (['us', 'ph', 'um', 'as', 'gu', 'mp', 'pr', 'vi'].includes(region)) return 'mdy';
    if (region === 'ca') return null;
    return 'dmy';
  }
  // Year-first languages write numeric dates year first: a d/m or m/d date there is not decided.
  if (['zh', 'ja', 'ko', 'hu', 'lt', 'mn'].includes(language)) return null;
  return 'dmy';
}

// --- Into a field ---------------------------------------------------------------------------

export type DateInputType = 'date' | 'time' | 'datetime-local' | 'month' | 'week';

function isoTime(t: TimeParts): string {
  return `${pad(t.h)}:${pad(t.min)}${t.s !== undefined ? `:${pad(t.s)}` : ''}`;
}

/**
 * The ISO value a native date/time input takes for what the value says; null when the
 * value says nothing of the kind the input holds (the caller reports it). A value already
 * in the input's form is returned unchanged.
 */
export function isoForInput(type: DateInputType, raw: string, opts: ReadOptions): string | null {
  const s = raw.trim();
  const already: Record<DateInputType, RegExp> = {
    date: /^\d{4}-\d{2}-\d{2}$/,
    time: /^\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/,
    'datetime-local': /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?$/,
    month: /^\d{4}-\d{2}$/,
    week: /^\d{4}-W\d{2}$/,
  };
  if (already[type].test(s) && type !== 'date') return s;
  const w = readWhen(s, opts);
  if (!w) return null;
  switch (type) {
    case 'date':
      return w.date ? `${pad(w.date.y, 4)}-${pad(w.date.m)}-${pad(w.date.d)}` : null;
    case 'time':
      return w.time && !w.date ? isoTime(w.time) : null;
    case 'datetime-local':
      return w.date && w.time ? `${pad(w.date.y, 4)}-${pad(w.date.m)}-${pad(w.date.d)}T${isoTime(w.time)}` : null;
    case 'month':
      return w.month ? `${pad(w.month.y, 4)}-${pad(w.month.m)}` : w.date ? `${pad(w.date.y, 4)}-${pad(w.date.m)}` : null;
    case 'week': {
      const wk = w.week ?? (w.date ? isoWeek(w.date) : null);
      return wk ? `${pad(wk.y, 4)}-W${pad(wk.w)}` : null;
    }
  }
}
