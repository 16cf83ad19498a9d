import { describe, expect, it } from 'vitest';
import { formatDate, formatFromHint, formatFromPicker, formatName, isoForInput, isoWeek, orderOfLang, planFill, readDate, readNumber, readRelative, readTime, readTimes, readWhen, ValueError, type FieldFacts } from '@ariadne/page';

// Pure logic of packages/page/src/values/: dates and times as people write them, into the
// form a field takes; numbers into number fields; and the refusals (a day/month order
// nothing decides, a value out of range, a non-date for a date field).

const today = { y: 2026, m: 11, d: 25 }; // a Wednesday
const opts = { today };

function field(over: Partial<FieldFacts>): FieldFacts {
  return { tag: 'input', type: 'text', role: '', editable: true, value: '', placeholder: '', hints: [], lang: '', today, ...over };
}

function refused(fn: () => unknown): ValueError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ValueError) return err;
    throw err;
  }
  throw new Error('expected a ValueError');
}

describe('reading dates', () => {
  it('reads the ways people write one day', () => {
    const want = { y: 1990, m: 3, d: 14 };
    for (const s of ['14 March 1990', 'March 14, 1990', '14th of March 1990', 'Mar 14th 1990', '1990-03-14', '1990/3/14', '14/03/1990', '03/14/1990', '14.3.1990', 'Wednesday, 14 March 1990', '14-Mar-1990']) {
      expect(readDate(s, opts), s).toEqual(want);
    }
  });

  it('reads relative days from the page\'s today', () => {
    expect(readDate('tomorrow', opts)).toEqual({ y: 2026, m: 11, d: 26 });
    expect(readDate('yesterday', opts)).toEqual({ y: 2026, m: 11, d: 24 });
    expect(readDate('next Friday', opts)).toEqual({ y: 2026, m: 11, d: 27 });
    expect(readDate('next Wednesday', opts)).toEqual({ y: 2026, m: 12, d: 2 });
    expect(readDate('this Wednesday', opts)).toEqual(today);
    expect(readDate('in 3 days', opts)).toEqual({ y: 2026, m: 11, d: 28 });
    expect(readDate('in two weeks', opts)).toEqual({ y: 2026, m: 12, d: 9 });
  });

  it('must-fail: a day/month order nothing decides is refused, never guessed', () => {
    const e = refused(() => readDate('03/04/2025', opts));
    expect(e.code).toBe('ambiguous_value');
    expect(e.message).toMatch(/3 April or March 4/);
    // The order, when known, decides it.
    expect(readDate('03/04/2025', { today, order: 'dmy' })).toEqual({ y: 2025, m: 4, d: 3 });
    expect(readDate('03/04/2025', { today, order: 'mdy' })).toEqual({ y: 2025, m: 3, d: 4 });
    // Same number twice: no ambiguity.
    expect(readDate('04/04/2025', opts)).toEqual({ y: 2025, m: 4, d: 4 });
  });

  it('must-fail: impossible dates', () => {
    expect(refused(() => readDate('31/02/2024', opts)).code).toBe('invalid_value');
    expect(refused(() => readDate('30 February 2024', opts)).code).toBe('invalid_value');
    expect(readDate('29 February 2024', opts)).toEqual({ y: 2024, m: 2, d: 29 });
  });

  it('is not fooled by text that is not a date', () => {
    for (const s of ['hello', 'Chris', 'Invoice 12', '3', '12 items', 'May', 'Buy milk']) expect(readDate(s, opts), s).toBeNull();
  });
});

describe('reading times and mixed values', () => {
  it('times', () => {
    expect(readTime('3:30 pm')).toEqual({ h: 15, min: 30 });
    expect(readTime('3:30PM')).toEqual({ h: 15, min: 30 });
    expect(readTime('3 pm')).toEqual({ h: 15, min: 0 });
    expect(readTime('12 am')).toEqual({ h: 0, min: 0 });
    expect(readTime('12:15 p.m.')).toEqual({ h: 12, min: 15 });
    expect(readTime('15:30')).toEqual({ h: 15, min: 30 });
    expect(readTime('noon')).toEqual({ h: 12, min: 0 });
    expect(readTime('3')).toBeNull();
    expect(refused(() => readTime('25:00')).code).toBe('invalid_value');
  });

  it('a day with a time, a month, a week', () => {
    expect(readWhen('14 March 1990 at 3:30 pm', opts)).toEqual({ date: { y: 1990, m: 3, d: 14 }, time: { h: 15, min: 30 } });
    expect(readWhen('tomorrow 15:30', opts)).toEqual({ date: { y: 2026, m: 11, d: 26 }, time: { h: 15, min: 30 } });
    expect(readWhen('3pm tomorrow', opts)).toEqual({ date: { y: 2026, m: 11, d: 26 }, time: { h: 15, min: 0 } });
    expect(readWhen('March 1990', opts)).toEqual({ month: { y: 1990, m: 3 } });
    expect(readWhen('2025-W10', opts)).toEqual({ week: { y: 2025, w: 10 } });
    expect(isoWeek({ y: 2021, m: 1, d: 3 })).toEqual({ y: 2020, w: 53 });
    expect(isoWeek({ y: 2026, m: 11, d: 25 })).toEqual({ y: 2026, w: 48 });
  });

  it('ISO for each native input type', () => {
    expect(isoForInput('date', '14 March 1990', opts)).toBe('1990-03-14');
    expect(isoForInput('time', '3:30 pm', opts)).toBe('15:30');
    expect(isoForInput('datetime-local', 'March 14, 1990 3:30 pm', opts)).toBe('1990-03-14T15:30');
    expect(isoForInput('month', 'March 1990', opts)).toBe('1990-03');
    expect(isoForInput('month', '14 March 1990', opts)).toBe('1990-03');
    expect(isoForInput('week', '14 March 1990', opts)).toBe('1990-W11');
    expect(isoForInput('date', '3:30 pm', opts)).toBeNull();
  });
});

describe('formats', () => {
  it('reads a format a person reads, and writes dates in it', () => {
    const d = { y: 1990, m: 3, d: 4 };
    const f = (hint: string) => formatDate(d, formatFromHint(hint)!);
    expect(f('DD/MM/YYYY')).toBe('04/03/1990');
    expect(f('Date (mm/dd/yyyy)')).toBe('03/04/1990');
    expect(f('mm/dd/yy')).toBe('03/04/90');
    expect(f('yyyy-mm-dd')).toBe('1990-03-04');
    expect(f('dd.mm.yyyy')).toBe('04.03.1990');
    expect(f('jj/mm/aaaa')).toBe('04/03/1990');
    expect(formatName(formatFromHint('e.g. dd/mm/yyyy')!)).toBe('DD/MM/YYYY');
    expect(formatFromHint('Your name')).toBeNull();
    expect(formatFromHint('mm/mm/yyyy')).toBeNull();
  });

  it('datepicker format strings: jQuery UI (yy = four digits) and bootstrap-datepicker', () => {
    const d = { y: 1990, m: 3, d: 4 };
    expect(formatDate(d, formatFromPicker('mm/dd/yy', 'jquery-ui')!)).toBe('03/04/1990');
    expect(formatDate(d, formatFromPicker('d M, y', 'jquery-ui')!)).toBe('4 Mar, 90');
    expect(formatDate(d, formatFromPicker('dd/mm/yyyy', 'bootstrap')!)).toBe('04/03/1990');
  });

  it('the order a page\'s lang decides', () => {
    expect(orderOfLang('en-US')).toBe('mdy');
    expect(orderOfLang('en-GB')).toBe('dmy');
    expect(orderOfLang('fr')).toBe('dmy');
    expect(orderOfLang('en')).toBeNull();
    expect(orderOfLang('')).toBeNull();
  });
});

describe('numbers', () => {
  it('reads numbers and counts', () => {
    expect(readNumber('3')).toBe(3);
    expect(readNumber('three')).toBe(3);
    expect(readNumber('1,200')).toBe(1200);
    expect(readNumber('Chris')).toBeNull();
    expect(readTimes('twice')).toBe(2);
    expect(readTimes('3 times')).toBe(3);
    expect(readRelative('+=2')).toBe(2);
    expect(readRelative('-=1')).toBe(-1);
    expect(readRelative('2')).toBeNull();
  });
});

describe('planFill: what goes into the field', () => {
  it('native date inputs get ISO; the page lang decides a numeric order', () => {
    expect(planFill('14 March 1990', field({ type: 'date' }))).toMatchObject({ kind: 'fill', value: '1990-03-14' });
    expect(planFill('03/04/2025', field({ type: 'date', lang: 'en-GB' }))).toMatchObject({ value: '2025-04-03' });
    expect(planFill('03/04/2025', field({ type: 'date', lang: 'en-US' }))).toMatchObject({ value: '2025-03-04' });
    expect(planFill('3:30 pm', field({ type: 'time' }))).toMatchObject({ value: '15:30' });
    expect(planFill('1990-03-14', field({ type: 'date' }))).toEqual({ kind: 'fill', value: '1990-03-14', native: true });
  });

  it('must-fail: ambiguous date with no hint and an undecided lang; not a date; out of range', () => {
    expect(refused(() => planFill('03/04/2025', field({ type: 'date', lang: 'en' }))).code).toBe('ambiguous_value');
    expect(refused(() => planFill('soon', field({ type: 'date' }))).code).toBe('invalid_value');
    expect(refused(() => planFill('1 January 2030', field({ type: 'date', max: '2026-12-31' }))).code).toBe('value_out_of_range');
    expect(refused(() => planFill('12', field({ type: 'number', min: '1', max: '10' }))).code).toBe('value_out_of_range');
    expect(refused(() => planFill('0', field({ type: 'number', min: '1', max: '10' }))).message).toMatch(/min 1, max 10/);
  });

  it('text fields with a format hint get the date in that format, and the hint decides the order', () => {
    expect(planFill('14 March 1990', field({ placeholder: 'DD/MM/YYYY' }))).toMatchObject({ value: '14/03/1990' });
    expect(planFill('March 14, 1990', field({ placeholder: 'mm/dd/yyyy' }))).toMatchObject({ value: '03/14/1990' });
    expect(planFill('03/04/2025', field({ hints: ['Format: DD/MM/YYYY'] }))).toEqual({ kind: 'fill', value: '03/04/2025' });
    expect(planFill('tomorrow', field({ picker: { format: 'dd/mm/yy', dialect: 'jquery-ui' } }))).toMatchObject({ value: '26/11/2026' });
    expect(planFill('14 March 1990', field({ datepicker: true }))).toMatchObject({ value: '03/14/1990' });
    expect(planFill('3:30 pm', field({ placeholder: 'HH:MM' }))).toMatchObject({ value: '15:30' });
  });

  it('text fields without a hint get the value as given (nothing guessed)', () => {
    expect(planFill('14 March 1990', field({}))).toEqual({ kind: 'fill', value: '14 March 1990' });
    expect(planFill('03/04/2025', field({}))).toEqual({ kind: 'fill', value: '03/04/2025' });
  });

  it('number fields: words, relative steps, steppers when it cannot be typed into', () => {
    expect(planFill('three', field({ type: 'number' }))).toMatchObject({ kind: 'fill', value: '3', numeric: true });
    expect(planFill('+=2', field({ type: 'number', value: '1' }))).toMatchObject({ kind: 'fill', value: '3' });
    expect(planFill('-=1', field({ tag: 'div', type: '', role: 'spinbutton', editable: false, value: '2', min: '0' }))).toMatchObject({ kind: 'step', from: 2, to: 1 });
    expect(planFill('7', field({ value: '5', steppers: true }))).toMatchObject({ kind: 'fill', value: '7', numeric: true });
    expect(refused(() => planFill('-=3', field({ tag: 'div', type: '', role: 'spinbutton', editable: false, value: '2', min: '0' }))).code).toBe('value_out_of_range');
    expect(refused(() => planFill('+=1', field({ type: 'number', value: '' }))).code).toBe('invalid_value');
    // A step is never typed as text: a text field holding a number is stepped, one holding text refuses.
    expect(planFill('+=2', field({ value: '5' }))).toMatchObject({ kind: 'fill', value: '7' });
    expect(refused(() => planFill('+=2', field({ value: 'Large' }))).code).toBe('invalid_value');
    expect(refused(() => planFill('-=1', field({ tag: 'select', type: '', editable: false, value: '' }))).code).toBe('invalid_value');
    // A plain text value with digits is typed as given.
    expect(planFill('Flat 3', field({ value: '5' }))).toEqual({ kind: 'fill', value: 'Flat 3' });
  });
});

describe('rules planner wording: values and back-references (parse only)', async () => {
  const { interpret, bindPart } = await import('@ariadne/flows');
  const { ScopeMemory, namedItem } = await import('../packages/flows/src/planners/scope-memory.js');

  it('value steps', () => {
    expect(interpret('Increase the quantity by 2')).toMatchObject({ kind: 'fill', value: '+=2', target: { phrase: 'quantity' } });
    expect(interpret('Decrease adults by one')).toMatchObject({ kind: 'fill', value: '-=1', target: { phrase: 'adults' } });
    expect(interpret('Raise Seats in use from 5 to 7 with the up arrow, clicking it twice')).toMatchObject({ kind: 'fill', value: '7', target: { phrase: 'Seats in use' } });
    expect(interpret('Set the date of birth to 14 March 1990')).toMatchObject({ kind: 'fill', value: '14 March 1990' });
    expect(interpret('Fill the date field (mm/dd/yyyy) with 14 March 1990')).toMatchObject({ kind: 'fill', value: '14 March 1990', target: { phrase: 'date' } });
    const twice = interpret('Click the + button twice');
    expect(twice.kind).toBe('sequence');
    expect((twice as { parts: unknown[] }).parts).toHaveLength(2);
    expect(interpret('Click the up arrow again')).toMatchObject({ kind: 'click', target: { phrase: 'up arrow' } });
  });

  it('names a step gives a row or card', () => {
    expect(namedItem('the e-mail from Rochelle Park')).toBe('Rochelle Park');
    expect(namedItem("Chris's post")).toBe('Chris');
    expect(namedItem('the row for "Invoice 12"')).toBe('Invoice 12');
    expect(namedItem('the up arrow')).toBeNull();
    expect(namedItem('Save')).toBeNull();
  });

  function bind(steps: string[]) {
    const memory = new ScopeMemory();
    const last = { intent: null };
    return steps.map((text, i) => {
      const it = interpret(text);
      return it.kind === 'sequence' ? { ...it, parts: it.parts.map((p) => ({ ...p, intent: bindPart(p.text, p.intent, i + 1, memory, last) })) } : bindPart(text, it, i + 1, memory, last);
    });
  }

  it('binds "her row", "it", "his post", "the same card", "in it" to the last name; "click it again" to the last control', () => {
    const [a, b, c, d] = bind(['Open the e-mail from Rochelle Park, then star her row', "Find Chris's post. Like it. Then share his post", 'Click Edit in the same card', 'Click Reply in it']);
    expect(JSON.stringify(a)).toContain('"item":"Rochelle Park","verb":"star"');
    expect(JSON.stringify(b)).toContain('"item":"Chris","verb":"like"');
    expect(JSON.stringify(b)).toContain('"item":"Chris","verb":"share"');
    expect(c).toMatchObject({ kind: 'click', target: { phrase: 'Edit', scope: 'Chris' } });
    expect(d).toMatchObject({ kind: 'click', target: { phrase: 'Reply', scope: 'Chris' } });
    const [, again] = bind(['Click the small up arrow', 'Click it again']);
    expect(again).toMatchObject({ kind: 'click', target: { phrase: 'small up arrow' } });
  });

  it('must-fail: no antecedent, or two different names in the step before', () => {
    expect(bind(['Star her row'])[0]).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/no earlier step named one/) });
    expect(bind(['Like it'])[0]).toMatchObject({ kind: 'unknown' });
    const [, amb] = bind(["Like Chris's post, then like Dana's post", 'Share his post']);
    expect(amb).toMatchObject({ kind: 'unknown', reason: expect.stringMatching(/could mean "Chris" or "Dana"/) });
  });
});
