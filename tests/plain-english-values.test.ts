import { describe, expect, it } from 'vitest';
import { failedSteps, failureMessages, usePlainEnglish } from './helpers/plain-english.js';

// Issue 25, values and back-references: dates, times and numbers written the way people write
// them, into typed fields and into text fields that show their format (a jQuery-era booking
// form with a DD/MM/YYYY text date, a datepicker, a spinner and a read-only +/− stepper; a
// Bootstrap form of native date/time/number inputs on an en-GB page), through the rules
// planner AND the REST ladder (the conversion is in the page layer, packages/page/src/values/);
// and pronouns across a plan's steps ("her row", "it", "the same card"). Each page logs what
// it received to #log, so a right pass is told from a wrong one by the page.

const pe = usePlainEnglish('pv');
const { plan, rest } = pe;

const failed = failedSteps;
const messages = failureMessages;

describe('dates and times into typed fields (Bootstrap form, native inputs, en-GB page)', () => {
  it('plans: written dates, times, months and weeks go in as ISO', async () => {
    const r = await plan('values-bootstrap.html', [
      'Set the date of birth to 14 March 1990',
      'Enter 3:30 pm as the start time',
      'Set Slot to March 14, 1990 at 15:30',
      'Set the card expiry to March 2027',
      'Set Week to 14 March 1990',
      'Click Register',
    ]);
    expect(messages(r)).toBe('');
    expect(r.log).toContain('register 1990-03-14||15:30|1990-03-14T15:30|2027-03|1990-W11|1;');
  });

  it('REST: the answer says what was typed; the page lang decides 03/04/2025 (en-GB: 3 April)', async () => {
    const r = await rest('values-bootstrap.html', [
      { action: 'fill', description: 'Workshop day', value: '03/04/2025' },
      { action: 'fill', description: 'Start time', value: '9am' },
      { action: 'type', description: 'Card expiry', text: 'March 2027' },
    ]);
    expect(r.answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(r.answers[2].body.result).toMatchObject({ typed: '2027-03', from: 'March 2027' });
    expect(r.values.card).toBe('2027-03');
    expect(r.answers[0].body.result).toMatchObject({ filled: '2025-04-03', from: '03/04/2025' });
    expect(r.answers[0].body.result.read).toMatch(/en-GB/);
    expect(r.answers[1].body.result).toMatchObject({ filled: '09:00' });
    expect(r.values.day).toBe('2025-04-03');
    expect(r.values.start).toBe('09:00');
  });

  it('must-fail: a date out of the field\'s range, a number out of range, a non-date, each refused and the field left alone', async () => {
    const r = await rest('values-bootstrap.html', [{ action: 'fill', description: 'Date of birth', value: '1 January 2030' }]);
    expect(r.answers[0].status).toBe(400);
    expect(r.answers[0].body.error.message).toMatch(/outside what the field takes.*latest 2020-12-31/);
    expect(r.values.dob).toBe('');
    const n = await plan('values-bootstrap.html', ['Set Guests to 12']);
    expect(failed(n)).toHaveLength(1);
    expect(messages(n)).toMatch(/12 is outside what the field takes \(min 1, max 8\)/);
    const x = await rest('values-bootstrap.html', [{ action: 'fill', description: 'Start time', value: 'soon' }]);
    expect(x.answers[0].status).toBe(400);
    expect(x.answers[0].body.error.message).toMatch(/time field and takes a time of day; .* does not read as a time of day/);
  });

  it('numbers: "Set Guests to three", "Increase the guests by 2", "Decrease guests by one"', async () => {
    const r = await plan('values-bootstrap.html', ['Set Guests to three', 'Increase the guests by 2', 'Decrease guests by one', 'Click Register']);
    expect(messages(r)).toBe('');
    expect(r.log).toMatch(/guests 3;guests 5;guests 4;register .*\|4;$/);
  });
});

describe('text fields that show their format, spinners and steppers (jQuery-era booking form, lang="en")', () => {
  it('plans: DD/MM/YYYY placeholder, the datepicker\'s own dateFormat, an HH:MM hint, the spinner and the read-only stepper', async () => {
    const r = await plan('values-jquery.html', [
      'Enter March 14, 2027 as the check-in',
      'Set Check-out to 16 March 2027',
      'Type 6:45 pm into Arrival time',
      'Raise Adults from 2 to 4 with the up arrow',
      'Increase Children by 2',
      'Click Book now',
    ]);
    expect(messages(r)).toBe('');
    expect(r.log).toContain('book 14/03/2027|16/03/2027|18:45|4|2;');
    expect(r.log).toContain('children 1;children 2;');
  });

  it('REST: the stepper is pressed and read back; the answer says how many presses', async () => {
    const r = await rest('values-jquery.html', [{ action: 'fill', description: 'Children', value: '3' }]);
    expect(r.answers[0].status).toBe(200);
    expect(r.answers[0].body.result).toMatchObject({ stepped: 3, from: '0', value: '3' });
    expect(r.log).toBe('children 1;children 2;children 3;');
  });

  it('must-fail: 03/04/2025 into a field with no format on an "en" page is refused, never guessed', async () => {
    const id = await pe.svc.api.createSession();
    try {
      await pe.svc.api.action(id, { action: 'navigate', url: `${pe.fx.url}/plain-english/values-jquery.html` });
      // Make the check-in a native date input, as many pages do: "en" decides no day/month order.
      const state = (await pe.svc.service.sessions.use('local', id)).role('default').page();
      await state.page.evaluate(() => { const el = document.getElementById('checkin') as HTMLInputElement; el.type = 'date'; el.placeholder = ''; });
      const r = await pe.svc.api.action(id, { action: 'fill', selector: '#checkin', value: '03/04/2025' });
      expect(r.status).toBe(400);
      expect(r.body.error.message).toMatch(/could be 3 April or March 4.*nothing on the page says which order/);
      expect(await state.page.evaluate(() => (document.getElementById('checkin') as HTMLInputElement).value)).toBe('');
    } finally {
      await pe.svc.api.delete(`/v1/sessions/${id}`);
    }
  });

  it('must-fail: a stepper that stops short of the value is a failure naming where it stopped', async () => {
    // Children steps to 4 at most, and the field cannot be typed into.
    const r = await rest('values-jquery.html', [{ action: 'fill', description: 'Children', value: '+=6' }]);
    expect(r.answers[0].status).not.toBe(200);
    expect(r.answers[0].body.error.message).toMatch(/did not change the field: it stays at 4 \(wanted 6/);
  });
});

describe('back-references across steps (rules planner)', () => {
  it('"Open the e-mail from Rochelle Park, then star her row"; "Find Chris\'s post. Like it. Then share his post"; "the same card"', async () => {
    const r = await plan('values-people.html', [
      'Open the e-mail from Rochelle Park, then star her row',
      'Find Chris\'s post. Like it. Then share his post',
      'Click Reply in the same card',
    ]);
    expect(messages(r)).toBe('');
    expect(r.log).toBe('open Rochelle Park;star Rochelle Park;like Chris;share Chris;reply Chris;');
  });

  it('must-fail: a pronoun with no antecedent, and one after a step that named two people, is refused before anything is clicked', async () => {
    const a = await plan('values-people.html', ['Star her row']);
    expect(messages(a)).toMatch(/refers back to a row, card or item, but no earlier step named one/);
    expect(a.log).toBe('');
    const b = await plan('values-people.html', ['Like Chris\'s post, then like Dana\'s post', 'Share his post']);
    expect(messages(b)).toMatch(/could mean "Chris" or "Dana"/);
    expect(b.log).toBe('like Chris;like Dana;');
  });
});
