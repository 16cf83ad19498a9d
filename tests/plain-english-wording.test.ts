import { describe, expect, it } from 'vitest';
import { failedSteps, failureMessages, usePlainEnglish } from './helpers/plain-english.js';

// Wordings people write that are not "verb the named target": form shorthand ("Department:
// Finance"), typing into the field the caret is in ("Replace it with 'X'"), "... and confirm",
// "In the Invite dialog, ...", the control before/after a text, a row's own menu, and a rating
// with nothing named — through the rules planner on tests/fixtures/plain-english/wording-*.html
// (a Bootstrap-3 form, a jQuery-era team table with dialogs with and without ARIA and a
// window.confirm, a Tailwind line of controls and texts) and icons-*.html. Each page logs what
// was done to #log, so a right pass is told from a wrong one by the page.

const pe = usePlainEnglish('pw2');
const { plan } = pe;
const failed = failedSteps;
const messages = failureMessages;

describe('form shorthand "<Label>: <value>"', () => {
  it('sets each kind of control the label names: text, select, date, number, radio group, unlabelled select, checkbox', async () => {
    const r = await plan('wording-form.html', [
      'Full name: Ann Lee', 'Department: Finance', 'Start date: 14/11/2026', 'Quantity: 3',
      'Payment method: Cheque', 'Country: Kenya', 'Newsletter: yes', 'Click Submit',
    ]);
    expect(messages(r)).toBe('');
    expect(r.log).toBe('submit Ann Lee|Finance|2026-11-14|3|cheque|Kenya|yes|/|;');
  });

  it('must-fail: a value the list or group does not offer, a label nothing has, two fields with the label, a non-yes/no box', async () => {
    for (const [step, why] of [
      ['Country: Atlantis', /Atlantis/],
      ['Payment method: Bitcoin', /radio group "Payment method" offers no option "Bitcoin"/],
      ['Shoe size: 9', /no field, list, radio group or checkbox on the page is labelled "Shoe size"/],
      ['Phone: 0123 456', /Phone/],
      ['Newsletter: maybe', /checkbox, which takes yes or no/],
    ] as const) {
      const r = await plan('wording-form.html', [step, 'Click Submit']);
      expect(failed(r).length, step).toBe(1);
      expect(messages(r)).toMatch(why);
      expect(r.log, step).toBe('');
    }
  });

  it('the verbs of putting a value right set the field: "Correct my name to ...", "Adjust the quantity to 4"', async () => {
    const r = await plan('wording-form.html', ['Correct my name to Alex Reid', 'Adjust the quantity to 4', 'Click Submit']);
    expect(messages(r)).toBe('');
    expect(r.log).toBe('submit Alex Reid|--||4||--|no|/|;');
  });

  it('must-fail: prose and verb-led steps with a colon are not form shorthand', async () => {
    const r = await plan('wording-form.html', ['Note: the receipt comes by e-mail']);
    expect(failed(r)[0]?.error?.code).toBe('step_not_understood');
    const v = await plan('wording-form.html', ['Verify: "Payment method" is visible']);
    expect(messages(v)).toBe('');
  });
});

describe('typing into the field the caret is in', () => {
  it('"Replace it with", "Change it to" after an inline editor opened; "Type" into a clicked box that holds text (the box then reads the value)', async () => {
    const a = await plan('wording-rows.html', ["Click Rename in Ann Lee's row", "Replace it with 'Ann Smith'", 'Press Enter']);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('rename Ann Lee->Ann Smith;');
    const b = await plan('wording-rows.html', ["Click Rename in Bo Chen's row", "Change it to 'Bo Chan'", 'Press Enter']);
    expect(messages(b)).toBe('');
    expect(b.log).toBe('rename Bo Chen->Bo Chan;');
    const c = await plan('wording-rows.html', ['Click the Memo box', "Type 'Call back Friday'", 'Click Save memo']);
    expect(messages(c)).toBe('');
    expect(c.log).toBe('memo Call back Friday;');
  });

  it('must-fail: nothing editable has the focus (page just loaded; a button was clicked last)', async () => {
    const a = await plan('wording-rows.html', ["Type 'hello'"]);
    expect(failed(a)).toHaveLength(1);
    expect(messages(a)).toMatch(/no field has the focus/);
    const b = await plan('wording-rows.html', ["Click Edit in Bo Chen's row", "Enter 'hello'", 'Click Save memo']);
    expect(failed(b)).toHaveLength(1);
    expect(messages(b)).toMatch(/no field has the focus .*button/);
    expect(b.log).toBe('');
  });
});

describe('"... and confirm", "In the X dialog, ..."', () => {
  it('confirms an ARIA dialog, a floating box without ARIA and a window.confirm with the button the verb names', async () => {
    const a = await plan('wording-rows.html', ["Open Ann Lee's row menu", 'Click Remove and confirm the removal']);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('menu Ann Lee;remove Ann Lee;');
    const b = await plan('wording-rows.html', ["Click Disconnect in Bo Chen's row and confirm"]);
    expect(messages(b)).toBe('');
    expect(b.log).toBe('disconnect Bo Chen;');
    const c = await plan('wording-rows.html', ["Click Archive in Ann Leeds's row and confirm"]);
    expect(messages(c)).toBe('');
    expect(c.log).toBe('archive Ann Leeds;');
  });

  it('must-fail: no dialog opened; a dialog with two confirming buttons', async () => {
    const a = await plan('wording-rows.html', ["Click Edit in Bo Chen's row and confirm"]);
    expect(failed(a)).toHaveLength(1);
    expect(messages(a)).toMatch(/no confirmation dialog is open/);
    const b = await plan('wording-rows.html', ['Click Reset and confirm']);
    expect(failed(b)).toHaveLength(1);
    expect(messages(b)).toMatch(/2 buttons that could confirm/);
    expect(b.log).toBe('');
  });

  it('"In the Invite dialog that opens, ..." scopes each part to that dialog (the page has another Email and Send)', async () => {
    const a = await plan('wording-rows.html', ['Click Invite', "In the Invite dialog that opens, type 'kim@x.io' into Email and click Send"]);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('invite kim@x.io;');
    // No dialog open: the scoped step fails rather than typing into the newsletter's Email.
    const b = await plan('wording-rows.html', ["In the Invite dialog, type 'kim@x.io' into Email"]);
    expect(failed(b)).toHaveLength(1);
    expect(b.log).toBe('');
  });
});

describe('the control before/after a text', () => {
  it('ticks the box on the side the words say, fills the field left of its unit', async () => {
    const r = await plan('wording-bits.html', ["Tick the checkbox after 'Apples'", "Tick the box right after 'Remember me'", "Type 72 into the field left of 'kg'", 'Click Save']);
    expect(messages(r)).toBe('');
    expect(r.log).toBe('save [bananas,remember] 72/;');
    const b = await plan('wording-bits.html', ["Tick the checkbox before 'Apples'", "Enter 180 in the field to the left of 'cm'", 'Click Save']);
    expect(messages(b)).toBe('');
    expect(b.log).toBe('save [apples] /180;');
  });

  it('must-fail: no box on that side; the words shown twice with a box each', async () => {
    const a = await plan('wording-bits.html', ["Tick the checkbox before 'Remember me'", 'Click Save']);
    expect(failed(a)).toHaveLength(1);
    expect(a.log).toBe('');
    const b = await plan('wording-bits.html', ["Tick the checkbox before 'Gift wrap'", 'Click Save']);
    expect(failed(b)).toHaveLength(1);
    expect(messages(b)).toMatch(/2 controls/);
    expect(b.log).toBe('');
  });
});

describe("a row's menu and a rating with nothing named", () => {
  it('"Open the row menu for report.pdf", "Open Ann Lee\'s row menu" open only that row\'s menu', async () => {
    const a = await plan('icons-material.html', ['Open the row menu for report.pdf', 'Click Rename']);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('rename report.pdf;');
    const b = await plan('wording-rows.html', ['Open the menu of Bo Chen']);
    expect(messages(b)).toBe('');
    expect(b.log).toBe('menu Bo Chen;');
  });

  it('"In the menu that opens, choose Rename": the step, where the last one opened the menu', async () => {
    const a = await plan('icons-material.html', ['Open the row menu for report.pdf', 'In the menu that opens, choose Rename']);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('rename report.pdf;');
    // A name the open menu does not hold is a miss, not a guess.
    const b = await plan('icons-material.html', ['Open the row menu for report.pdf', 'In the menu that opens, choose Publish']);
    expect(failed(b)).toHaveLength(1);
    expect(b.log).toBe('');
  });

  it('must-fail: a row nobody shows', async () => {
    const a = await plan('wording-rows.html', ['Open the menu of Cy Park']);
    expect(failed(a)).toHaveLength(1);
    expect(a.log).toBe('');
  });

  it('"Rate 4 stars" on a page with one rating; "Rate it 4 stars" after naming a post', async () => {
    const a = await plan('wording-bits.html', ['Rate 4 stars']);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('rate 4;');
    const b = await plan('icons-fa.html', ["Find Chris's post", 'Rate it 4 out of 5']);
    expect(messages(b)).toBe('');
    expect(b.log).toBe('rate Chris 4;');
  });

  it('must-fail: "Rate 3 stars" on a page with two ratings and nothing that says which', async () => {
    const a = await plan('icons-fa.html', ['Rate 3 stars']);
    expect(failed(a)).toHaveLength(1);
    expect(a.log).toBe('');
  });
});
