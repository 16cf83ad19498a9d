// What to put into a field for the value a caller gave, from facts read off the field
// (values/facts.ts reads them in the page). Pure, so every rule here is unit-tested:
// - a native date/time/datetime-local/month/week input gets the ISO form of the value;
// - a text field that shows a date format (placeholder, hint beside it, a datepicker's
//   own dateFormat) gets the date written in that format;
// - a number field or spinbutton gets a number inside its min/max, or is stepped with its
//   own up/down controls when it cannot be typed into; "+=2" / "-=1" step it from where it is;
// - anything else is typed as given.
// A value that cannot be put in faithfully (ambiguous day/month order, not a date for a
// date field, out of range) throws ValueError: the caller answers with an error, never a guess.

import { formatDate, formatFromHint, formatFromPicker, formatName, isoForInput, orderOfFormat, orderOfLang, readTime, readWhen, ValueError, pad, type DateInputType, type DateParts, type FormatToken } from './dates.js';
import { readNumber, readRelative, showNumber } from './numbers.js';

export interface FieldFacts {
  tag: string;
  /** The input's type ("text", "date", "number" ...); "" for other elements. */
  type: string;
  role: string;
  /** Takes typing: an enabled input/textarea that is not read-only, or contenteditable. */
  editable: boolean;
  /** Current value: the input's value, else aria-valuenow, else its text. */
  value: string;
  placeholder: string;
  /** Text that describes the field: label, aria-describedby, title, help text beside it. */
  hints: string[];
  /** A datepicker's own format string, and whose syntax it is. */
  picker?: { format: string; dialect: 'jquery-ui' | 'bootstrap' } | null;
  /** A datepicker widget sits on the field (class hasDatepicker / datepicker). */
  datepicker?: boolean;
  /** The nearest lang attribute (the element's, else the document's). */
  lang: string;
  /** Today in the page's time zone. */
  today: DateParts;
  min?: string;
  max?: string;
  inputMode?: string;
  /** Up/down (+/−) controls found next to the field. */
  steppers?: boolean;
}

export type FillPlan =
  /** Type this (value differs from the caller's when converted; note says how it was read). */
  | { kind: 'fill'; value: string; note?: string; numeric?: boolean; native?: boolean }
  /** Step the field with its up/down controls (or arrow keys) from `from` to `to`. */
  | { kind: 'step'; from: number; to: number; note?: string };

const DATE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week']);
const KIND_WORD: Record<DateInputType, string> = { date: 'a day', time: 'a time of day', 'datetime-local': 'a day and a time', month: 'a month', week: 'a week' };

/** Whether the field holds a number (so "+=2", number words and min/max apply). */
export function isNumeric(f: FieldFacts): boolean {
  if (f.type === 'number' || f.type === 'range' || f.role === 'spinbutton') return true;
  if (f.inputMode === 'numeric' || f.inputMode === 'decimal') return true;
  return Boolean(f.steppers) && readNumber(f.value) !== null;
}

/** The date format the field shows, and where it was read; null when it shows none. */
export function fieldFormat(f: FieldFacts): { tokens: FormatToken[]; source: string } | null {
  if (f.picker) {
    const t = formatFromPicker(f.picker.format, f.picker.dialect);
    if (t) return { tokens: t, source: `the datepicker's format ${f.picker.format}` };
  }
  for (const [text, where] of [[f.placeholder, 'placeholder'], ...f.hints.map((h) => [h, 'hint'] as const)] as const) {
    const t = text ? formatFromHint(text) : null;
    if (t) return { tokens: t, source: `the field's ${where} ${formatName(t)}` };
  }
  // jQuery UI's datepicker writes mm/dd/yy (four-digit year) unless told otherwise.
  if (f.datepicker && f.picker === undefined) return null;
  return null;
}

function clampCheck(n: number, f: FieldFacts, raw: string): void {
  const min = f.min !== undefined && f.min !== '' ? Number(f.min) : null;
  const max = f.max !== undefined && f.max !== '' ? Number(f.max) : null;
  if ((min !== null && Number.isFinite(min) && n < min) || (max !== null && Number.isFinite(max) && n > max)) {
    throw new ValueError('value_out_of_range', `${showNumber(n)}${raw.trim() !== showNumber(n) ? ` (from "${raw}")` : ''} is outside what the field takes (${min !== null ? `min ${showNumber(min)}` : ''}${min !== null && max !== null ? ', ' : ''}${max !== null ? `max ${showNumber(max)}` : ''}).`, { value: raw, min: f.min, max: f.max });
  }
}

/** What to do to put `raw` into the field described by `f`; throws ValueError when it cannot be done faithfully. */
export function planFill(raw: string, f: FieldFacts): FillPlan {
  const langOrder = orderOfLang(f.lang);
  const langSource = langOrder ? `the page's lang ${f.lang}` : undefined;
  // Native date and time inputs: ISO only.
  if (f.tag === 'input' && DATE_TYPES.has(f.type)) {
    if (raw.trim() === '') return { kind: 'fill', value: '', native: true };
    const type = f.type as DateInputType;
    const iso = isoForInput(type, raw, { today: f.today, order: langOrder, orderSource: langSource });
    if (iso === null) throw new ValueError('invalid_value', `The field is a ${type} field and takes ${KIND_WORD[type]}; "${raw}" does not read as ${KIND_WORD[type]}.`, { value: raw, type });
    if ((f.min && iso < f.min) || (f.max && iso > f.max)) {
      throw new ValueError('value_out_of_range', `${iso}${iso !== raw.trim() ? ` (from "${raw}")` : ''} is outside what the field takes (${f.min ? `earliest ${f.min}` : ''}${f.min && f.max ? ', ' : ''}${f.max ? `latest ${f.max}` : ''}).`, { value: raw, min: f.min, max: f.max });
    }
    return iso === raw ? { kind: 'fill', value: iso, native: true } : { kind: 'fill', value: iso, native: true, note: `"${raw}" written as ${iso}, the form a ${type} field takes${langSource && /\d[/.-]\d/.test(raw) ? ` (day/month order from ${langSource})` : ''}` };
  }
  // Numbers and spinbuttons; a step ("+=2") only ever on a field that holds a number, never typed as text.
  if (readRelative(raw) !== null && !isNumeric(f)) {
    if (readNumber(f.value) === null) throw new ValueError('invalid_value', `Cannot step the field by ${raw.trim().slice(2)}: it holds ${JSON.stringify(f.value)}, not a number.`, { value: raw, holds: f.value });
    f = { ...f, inputMode: 'numeric' };
  }
  if (isNumeric(f)) {
    const delta = readRelative(raw);
    const current = readNumber(f.value);
    let n: number | null;
    let note: string | undefined;
    if (delta !== null) {
      if (current === null) throw new ValueError('invalid_value', `Cannot step the field by ${showNumber(delta)}: it holds ${JSON.stringify(f.value)}, not a number.`, { value: raw, holds: f.value });
      n = current + delta;
      note = `${showNumber(current)} ${delta >= 0 ? '+' : '−'} ${showNumber(Math.abs(delta))} = ${showNumber(n)}`;
    } else {
      n = readNumber(raw);
      if (n === null) {
        if (raw.trim() === '' && f.editable) return { kind: 'fill', value: '' };
        if (f.type === 'number' || f.role === 'spinbutton') throw new ValueError('invalid_value', `The field takes a number; "${raw}" is not one.`, { value: raw });
        return { kind: 'fill', value: raw };
      }
      if (showNumber(n) !== raw.trim()) note = `"${raw}" written as ${showNumber(n)}`;
    }
    clampCheck(n, f, raw);
    if (f.editable) return { kind: 'fill', value: showNumber(n), numeric: true, ...(note ? { note } : {}) };
    if (current === null) throw new ValueError('invalid_value', `The field cannot be typed into and holds ${JSON.stringify(f.value)}, not a number to step from.`, { value: raw, holds: f.value });
    return { kind: 'step', from: current, to: n, ...(note ? { note } : {}) };
  }
  // Text fields that show a date format.
  if (f.editable && (f.tag === 'input' || f.tag === 'textarea')) {
    const format = fieldFormat(f) ?? (f.datepicker ? { tokens: formatFromPicker('mm/dd/yy', 'jquery-ui')!, source: 'the datepicker\'s default format mm/dd/yy' } : null);
    if (format) {
      const order = orderOfFormat(format.tokens);
      const when = readWhen(raw, { today: f.today, order, orderSource: format.source });
      if (when?.date && !when.time) {
        const value = formatDate(when.date, format.tokens);
        return value === raw.trim() ? { kind: 'fill', value } : { kind: 'fill', value, note: `"${raw}" written as ${value} (${format.source})` };
      }
      return { kind: 'fill', value: raw };
    }
    // A text field that shows a time format: "HH:MM" (24 h) or "hh:mm am/pm".
    const timeHint = [f.placeholder, ...f.hints].find((h) => /\bhh\s*:\s*mm\b/i.test(h ?? ''));
    if (timeHint) {
      const t = readTime(raw);
      if (t) {
        const twelve = /\b(?:am|pm|a\.m\.|p\.m\.)\b|\bhh:mm\s*a\b/i.test(timeHint);
        const value = twelve ? `${((t.h + 11) % 12) + 1}:${pad(t.min)} ${t.h < 12 ? 'AM' : 'PM'}` : `${pad(t.h)}:${pad(t.min)}`;
        return value === raw.trim() ? { kind: 'fill', value } : { kind: 'fill', value, note: `"${raw}" written as ${value} (the field's hint ${timeHint.trim().slice(0, 40)})` };
      }
    }
  }
  return { kind: 'fill', value: raw };
}

/** Whether a value could need converting at all (a cheap test before reading the field). */
export function mayConvert(raw: string): boolean {
  const s = raw.trim();
  if (s === '' || s.length > 60) return false;
  return /\d/.test(s) || readNumber(s) !== null || /^(?:today|tomorrow|yesterday|now|noon|midnight|(?:next |this |coming )?(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*|in .+ (?:days?|weeks?).*|(?:the )?day after tomorrow)$/i.test(s);
}

export { ValueError };
