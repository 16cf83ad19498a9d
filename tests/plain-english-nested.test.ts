import { describe, expect, it } from 'vitest';
import { parseDescription, derivedReadings } from '@ariadne/page';
import { failedSteps, usePlainEnglish } from './helpers/plain-english.js';

// People place a control inside a container inside another: "the × on the 'urgent' tag on
// the 'Fix login redirect' card", "the bin icon in the GitHub row in Connected apps", and
// gloss a picture in brackets: "the pencil (edit) icon". The same tag or app shows in several
// places, so the wider container must decide; a container that is not there is a miss.

const pe = usePlainEnglish('nest');
const PAGE = 'nested-scopes.html';

describe('nested scopes and bracketed glosses: the parse', () => {
  it('reads a nested scope as a scope inside a wider container, and drops a picture gloss', () => {
    const spec = parseDescription("the × on the orange 'urgent' tag on the 'Fix login redirect' card");
    expect(derivedReadings(spec)).toContainEqual(expect.objectContaining({ phrase: '×', scope: 'urgent', within: 'Fix login redirect' }));
    expect(parseDescription("the pencil (edit) icon in Omar Farouk's row")).toMatchObject({ phrase: 'pencil', scope: 'Omar Farouk', icon: true });
    expect(parseDescription('the floating add (+) button')).toMatchObject({ role: 'button' });
    // Brackets that are no picture, or inside quotes, are the page's words.
    expect(parseDescription('the Save (draft) button')).toMatchObject({ phrase: 'Save (draft)' });
    expect(parseDescription("the 'Total (x)' link")).toMatchObject({ phrase: 'Total (x)', quoted: true });
    // Where a bar sits, and a control's neighbours, say no name.
    expect(parseDescription("the bin icon in the '2 selected' bar above the table")).toMatchObject({ phrase: 'bin', scope: '2 selected' });
    expect(parseDescription('the Cheque radio button between Bank transfer and Petty cash')).toMatchObject({ phrase: 'Cheque', role: 'radio' });
    expect(parseDescription("the 'Salt and pepper' link between the two columns")).toMatchObject({ phrase: 'Salt and pepper', quoted: true });
  });
});

describe('nested scopes and bracketed glosses: on a page', () => {
  it('REST: the × of one tag on one card; the same tag elsewhere, or a card that is not there, is never clicked', async () => {
    const ok = await pe.rest(PAGE, [{ action: 'click', description: "the × on the orange 'urgent' tag on the 'Fix login redirect' card" }]);
    expect(ok.answers[0].status, JSON.stringify(ok.answers[0].body)).toBe(200);
    expect(ok.log).toBe('untag Fix login redirect/urgent;');
    // The circled ⓧ people type for a chip's remove glyph is the same picture.
    const other = await pe.rest(PAGE, [{ action: 'click', description: "the small ⓧ on the 'urgent' tag on the 'Update privacy policy' card" }]);
    expect(other.log).toBe('untag Update privacy policy/urgent;');
    const absent = await pe.rest(PAGE, [{ action: 'click', description: "the × on the 'urgent' tag on the 'Migrate image CDN' card" }]);
    expect(absent.answers[0].status).not.toBe(200);
    expect(absent.log).toBe('');
    // The card is there but has no such tag: its only ×, the docs tag's, is not it (the
    // "urgent" tags of other cards sit in the board around it, never inside this card).
    const untagged = await pe.rest(PAGE, [{ action: 'click', description: "the × on the 'urgent' tag on the 'Write release notes' card" }]);
    expect(untagged.answers[0].status).not.toBe(200);
    expect(untagged.log).toBe('');
    const unsaid = await pe.rest(PAGE, [{ action: 'click', description: "the × on the 'urgent' tag" }]);
    expect(unsaid.answers[0].status).not.toBe(200);
    expect(unsaid.log).toBe('');
  });

  it('REST: an icon in a row inside a section; the same row in another section is not it', async () => {
    const a = await pe.rest(PAGE, [{ action: 'click', description: 'the bin (trash) icon at the right end of the GitHub row in Connected apps' }]);
    expect(a.answers[0].status, JSON.stringify(a.answers[0].body)).toBe(200);
    expect(a.log).toBe('delete connected/GitHub;');
    const b = await pe.rest(PAGE, [{ action: 'click', description: 'the pencil (edit) icon in the GitHub row in Available apps' }]);
    expect(b.answers[0].status, JSON.stringify(b.answers[0].body)).toBe(200);
    expect(b.log).toBe('edit available/GitHub;');
    const c = await pe.rest(PAGE, [{ action: 'click', description: 'the bin (trash) icon in the GitHub row in Archived apps' }]);
    expect(c.answers[0].status).not.toBe(200);
    expect(c.log).toBe('');
  });

  it('plans: the same wordings through the rules planner', async () => {
    const r = await pe.plan(PAGE, ["Click the × on the 'bug' tag on the 'Fix login redirect' card", 'Click the pencil (edit) icon in the Slack row in Connected apps']);
    expect(failedSteps(r)).toEqual([]);
    expect(r.log).toBe('untag Fix login redirect/bug;edit connected/Slack;');
    const miss = await pe.plan(PAGE, ['Click the pencil (edit) icon in the Slack row in Available apps']);
    expect(failedSteps(miss).length).toBe(1);
    expect(miss.log).toBe('');
  });
  it('plans: "Remove the <tag> tag from <card>" is the × on that tag inside that card; a tag the card lacks is refused', async () => {
    const r = await pe.plan(PAGE, ["Remove the urgent tag from 'Update privacy policy'", 'Take the orange bug label off the Fix login redirect card']);
    expect(failedSteps(r)).toEqual([]);
    expect(r.log).toBe('untag Update privacy policy/urgent;untag Fix login redirect/bug;');
    // The card has only a docs tag; the urgent tags of other cards are never it.
    const miss = await pe.plan(PAGE, ["Remove the urgent tag from 'Write release notes'"]);
    expect(failedSteps(miss).length).toBe(1);
    expect(miss.log).toBe('');
  });
});

describe('a control by what a screenshot shows of it', () => {
  const SEEN = 'seen-values.html';

  it('the parse: the value a list shows, a remark in brackets, a quote cut short', () => {
    expect(parseDescription('the select showing Europe/London under Timezone')).toMatchObject({ phrase: 'Timezone', role: 'combobox', showing: 'Europe/London' });
    expect(parseDescription("the Department drop-down showing '-- Select --' (next to Employee Name)")).toMatchObject({ phrase: 'Department', showing: '-- Select --' });
    expect(parseDescription("the 'I confirm that these expenses…' checkbox")).toMatchObject({ phrase: 'I confirm that these expenses', quoted: true, role: 'checkbox' });
  });

  it('REST: an option as a person reads it off the list ("Berlin" for "Europe/Berlin", any case); a part two options share is refused', async () => {
    const a = await pe.rest(SEEN, [
      { action: 'select', description: 'Timezone', value: 'Berlin' },
      { action: 'select', description: 'Department', value: 'finance' },
    ]);
    expect(a.answers.map((x) => x.status), JSON.stringify(a.answers.map((x) => x.body.error))).toEqual([200, 200]);
    expect(a.answers[0].body.result.read).toEqual([{ from: 'Berlin', chose: 'Europe/Berlin' }]);
    expect(a.log).toBe('tz=Europe/Berlin;dept=Finance;');
    const both = await pe.rest(SEEN, [{ action: 'select', description: 'Timezone', value: 'Europe' }]);
    expect(both.answers[0].status).toBe(422);
    expect(both.answers[0].body.error.message).toContain('/Berlin');
    expect(both.log).toBe('');
  });

  it('REST: a list by the value it shows and its label; two lists showing the same value need the label', async () => {
    const a = await pe.rest(SEEN, [{ action: 'select', description: 'the select showing Europe/London under Timezone', value: 'Europe/Berlin' }]);
    expect(a.answers[0].status, JSON.stringify(a.answers[0].body)).toBe(200);
    expect(a.log).toBe('tz=Europe/Berlin;');
    const b = await pe.rest(SEEN, [{ action: 'select', description: "the Region drop-down showing '-- Select --'", value: 'South' }]);
    expect(b.answers[0].status, JSON.stringify(b.answers[0].body)).toBe(200);
    expect(b.log).toBe('region=South;');
    // Two lists show "-- Select --": the one that offers the value is the one; none offering it is a miss.
    const c = await pe.rest(SEEN, [{ action: 'select', description: "the drop-down showing '-- Select --'", value: 'Finance' }]);
    expect(c.answers[0].status, JSON.stringify(c.answers[0].body)).toBe(200);
    expect(c.log).toBe('dept=Finance;');
    const e = await pe.rest(SEEN, [{ action: 'select', description: "the drop-down showing '-- Select --'", value: 'West' }]);
    expect(e.answers[0].status).not.toBe(200);
    expect(e.log).toBe('');
    // Nothing shows Asia/Tokyo now: never the list that merely offers it.
    const d = await pe.rest(SEEN, [{ action: 'select', description: 'the drop-down showing Asia/Tokyo', value: 'Europe/Berlin' }]);
    expect(d.answers[0].status).not.toBe(200);
    expect(d.log).toBe('');
  });

  it('REST: a checkbox by the start of its sentence; a start two sentences share is not enough', async () => {
    const a = await pe.rest(SEEN, [{ action: 'check', description: "the 'I confirm that these expenses were incurred…' checkbox" }]);
    expect(a.answers[0].status, JSON.stringify(a.answers[0].body)).toBe(200);
    expect(a.log).toBe('confirm=true;');
    const b = await pe.rest(SEEN, [{ action: 'check', description: "the 'I confirm that…' checkbox" }]);
    expect(b.answers[0].status).not.toBe(200);
    expect(b.log).toBe('');
  });
});

describe('closing a notice', () => {
  it('"Dismiss the banner" closes the one notice there is; with two, it says which is not said', async () => {
    const one = await pe.plan('notices.html', ['Dismiss the banner']);
    expect(failedSteps(one)).toEqual([]);
    expect(one.log).toBe('bar closed;');
    const named = await pe.plan('notices.html?two', ["Close the 'Your trial ends in 3 days' notice"]);
    expect(failedSteps(named)).toEqual([]);
    expect(named.log).toBe('notice closed;');
    const two = await pe.plan('notices.html?two', ['Dismiss the banner']);
    expect(failedSteps(two).length).toBe(1);
    expect(two.log).toBe('');
  });

  it('REST: the × of a bar by its text, quoted whole though set in two pieces, or a quoted part of it', async () => {
    const whole = await pe.rest('notices.html?two', [{ action: 'click', description: "the × at the right end of the purple 'Northwind 2.0 — two-factor sign-in is here' bar at the very top of the page" }]);
    expect(whole.answers[0].status, JSON.stringify(whole.answers[0].body.error)).toBe(200);
    expect(whole.log).toBe('bar closed;');
    const part = await pe.rest('notices.html?two', [{ action: 'click', description: "the close icon on the 'Northwind 2.0' banner at the top" }]);
    expect(part.answers[0].status, JSON.stringify(part.answers[0].body.error)).toBe(200);
    expect(part.log).toBe('bar closed;');
    // A bar text that is not there is a miss, never the other notice's ×.
    const none = await pe.rest('notices.html?two', [{ action: 'click', description: "the close icon on the 'Northwind 3.0' banner" }]);
    expect(none.answers[0].status).toBe(409);
    expect(none.log).toBe('');
  });
});

describe('a bare step that names a control', () => {
  it('"Save" clicks the one control named exactly Save; two, or none, fail without a click', async () => {
    const one = await pe.plan('notices.html', ['Save']);
    expect(failedSteps(one)).toEqual([]);
    expect(one.log).toBe('save;');
    const two = await pe.plan('notices.html?two', ['Save']);
    expect(failedSteps(two).map((s) => s.error?.code)).toEqual(['step_not_understood']);
    expect(two.log).toBe('');
    const none = await pe.plan('notices.html', ['Publish']);
    expect(failedSteps(none).map((s) => s.error?.code)).toEqual(['step_not_understood']);
    // A name's part is not the name: "Profile" is a heading, and no control is named "Alex".
    const part = await pe.plan('notices.html', ['Alex']);
    expect(failedSteps(part).length).toBe(1);
    expect(part.log).toBe('');
  });
});

// A Material-like table whose ticked rows show a bar above it ("2 selected") with icon-only
// actions, radios in a row (bulk-bar.html); a mat-select without ARIA (selects-material.html).
describe('a selection bar, neighbours as places, an option of a closed list', () => {
  it('REST: "the trash icon in the selection bar", "the bin icon in the \'2 selected\' bar above the table"', async () => {
    const r = await pe.rest('bulk-bar.html', [
      { action: 'check', description: "the checkbox in Grace Okafor's row" },
      { action: 'check', description: "the checkbox in Lena Voss's row" },
      { action: 'click', description: 'the trash icon in the selection bar' },
      { action: 'click', description: "the download icon in the '2 selected' bar above the table" },
      { action: 'click', description: 'the Cheque radio button between Bank transfer and Petty cash' },
    ]);
    expect(r.answers.map((x) => x.body.error?.message ?? x.status)).toEqual([200, 200, 200, 200, 200]);
    expect(r.log).toBe('remove Grace Okafor+Lena Voss;export Grace Okafor+Lena Voss;pay cheque;');
  });

  it('REST: a quoted name with the glyph the page draws as an icon; a radio called an option; a row by its text before "expense line"', async () => {
    const r = await pe.rest('bulk-bar.html', [
      { action: 'click', description: "'+ Invite member'" },
      { action: 'click', description: 'Petty cash option for Payment method' },
    ]);
    expect(r.answers.map((x) => x.body.error?.message ?? x.status)).toEqual([200, 200]);
    expect(r.log).toBe('invite;pay petty;');
    const grid = await pe.rest('grid-inline-edit.html', [
      { action: 'click', description: 'Edit on the Taxi to client office expense line' },
      { action: 'click', description: 'Update on the Taxi to client office expense line' },
    ]);
    expect(grid.answers.map((x) => x.body.error?.message ?? x.status)).toEqual([200, 200]);
    expect(grid.log).toBe('update Taxi to client office=23.50;');
    const none = await pe.rest('bulk-bar.html', [{ action: 'click', description: 'Credit card option for Payment method' }]);
    expect(none.answers[0].body.error?.code).toBe('target_not_found');
    expect(none.log).toBe('');
  });

  it('must fail: no bar while nothing is ticked; a bar showing another count', async () => {
    const a = await pe.rest('bulk-bar.html', [{ action: 'click', description: 'the trash icon in the selection bar' }]);
    expect(a.answers[0].body.error?.code).toBe('target_not_found');
    const b = await pe.rest('bulk-bar.html', [{ action: 'check', description: "the checkbox in Tom Reyes's row" }, { action: 'click', description: "the bin icon in the '2 selected' bar above the table" }]);
    expect(b.answers[1].body.error?.code).toBe('target_not_found');
    expect(a.log + b.log).toBe('');
  });

  it('REST: "the Owner option under Role" opens the closed list first; an option it lacks opens it and fails', async () => {
    const r = await pe.rest('selects-material.html', [{ action: 'click', description: 'the Owner option under Role' }]);
    expect(r.answers[0].body.error?.message ?? r.answers[0].status).toBe(200);
    expect(r.answers[0].body.target.why).toMatch(/opening combobox "Role"/);
    expect(r.log).toBe('role=Owner;');
    const miss = await pe.rest('selects-material.html', [{ action: 'click', description: 'the Superuser option under Role' }]);
    expect(miss.answers[0].body.error?.code).toBe('target_not_found');
    expect(miss.log).toBe('');
  });
});
