import { describe, expect, it } from 'vitest';
import { failedSteps, failureMessages, usePlainEnglish } from './helpers/plain-english.js';

// Plans in a person's own words and order, on a page that shows the things otherwise: "the
// login redirect fix" for the card "Fix login redirect", a statement and then what to do
// about it ("Lena Voss should be an active member again — switch her on"), "the taxi expense"
// for a row of the Expense Lines table, a declaration by what it declares. Each reading acts
// only when one container holds every word; a name the page does not show is never another
// that begins with it.

const pe = usePlainEnglish('purpose');
const PAGE = 'purpose-words.html';

describe('purposes in a person\'s own words', () => {
  it('cards and rows named in another order, a statement then a pronoun, a sentence by its words', async () => {
    const r = await pe.plan(PAGE, [
      'Put the privacy policy card away in the archive',
      'The login redirect fix is no longer urgent — take that label off it',
      'Lena Voss should be an active member again — switch her on',
      'I want to get the Monday summary of my projects by email — enable it',
      'Take the taxi expense off the claim',
      'Confirm the expenses are for company business',
      'Open the page for attaching scanned receipts',
    ]);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('archive Update privacy policy;untag Fix login redirect;Lena Voss on;digest on;delete Taxi to client office;declared true;open #receipts;');
  });

  it('the box by what kind of sentence it is, a plan by the price it shows', async () => {
    const r = await pe.plan(PAGE, ['Tick the confirmation', 'Upgrade us to the $12 per user per month plan']);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('declared true;plan Team;');
    // No plan shows $15: nothing is chosen.
    const none = await pe.plan(PAGE, ['Upgrade us to the $15 per user per month plan']);
    expect(failedSteps(none).length).toBe(1);
    expect(none.log).toBe('');
  });

  it('must-fail: a card the board does not have, a name extended, words two cards share, an assertion stays one', async () => {
    // "Walk the dog" is not "Walk the dog later".
    // (Before the fix, "Archive the Walk the dog card" archived "Walk the dog later": the verb's
    // control nearest the words.)
    const extended = await pe.plan(PAGE, ['Archive the Walk the dog card']);
    const extendedAway = await pe.plan(PAGE, ['Put the Walk the dog card away in the archive']);
    expect(failedSteps(extendedAway).length).toBe(1);
    expect(failedSteps(extended).length, JSON.stringify(extended.steps.map((s) => [s.status, s.did ?? s.locator ?? s.error?.message]))).toBe(1);
    // "login" and "urgent" are on two cards: "the login card" is not one of them.
    const shared = await pe.plan(PAGE, ['The login card is no longer urgent — take that label off it']);
    expect(failedSteps(shared).length).toBe(1);
    const absent = await pe.plan(PAGE, ['Take the hotel expense off the claim']);
    expect(failedSteps(absent).length).toBe(1);
    // Nothing on the page declares an order: a check, and it fails, never a tick.
    const check = await pe.plan(PAGE, ['Confirm the order is placed']);
    expect(failedSteps(check).length).toBe(1);
    for (const run of [extended, extendedAway, shared, absent, check]) expect(run.log).toBe('');
    expect(failureMessages(absent)).not.toMatch(/playwright|locator\(/i);
  });
});

describe('which one it is not, and asides in the middle', () => {
  // tests/fixtures/plain-english/chips-fonticon.html: Material chips whose remove icon is a
  // fontIcon="cancel" mat-icon with no text, on two near-duplicate names.
  it('", not the one in X\'s row" and "(the first row, ...)" say nothing of the target; a row menu\'s item by its verb', async () => {
    const r = await pe.plan('chips-fonticon.html', [
      "Click the small ⓧ on the grey 'contractor' chip in Ines Moreau's row (the first row, next to the 'reviewer' chip), not the one in Ines Morel's row",
      'Ines Morel is no longer a contractor — take that tag off her (only hers, leave Ines Moreau alone)',
    ]);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('untag Ines Moreau contractor;untag Ines Morel contractor;');
    // The row has no contractor chip: nothing is removed, whatever the aside says.
    // The row's ⋮ is a fontIcon="more_vert" mat-icon; its menu is built on open. "Remove Ines
    // Morel": the one item of her menu that starts with the verb ("Remove contributor").
    // Kofi Mensah's row: its actions are bare aria-hidden <mat-icon>s with listeners, in a cell
    // of a row that selects on click (the cell is not the pencil: before, it was clicked).
    const menu = await pe.plan('chips-fonticon.html', ['Send Kofi Mensah a password reset', 'Remove Ines Morel', 'Edit Kofi Mensah']);
    expect(failureMessages(menu)).toBe('');
    expect(menu.log).toBe('reset Kofi Mensah;remove Ines Morel;edit Kofi Mensah;');
    const archive = await pe.plan('chips-fonticon.html', ['Archive Kofi Mensah']);
    expect(failedSteps(archive).length).toBe(1);
    expect(archive.log).toBe('');
    const none = await pe.plan('chips-fonticon.html', ["Click the × on the contractor chip in Kofi Mensah's row, not the one in Ines Morel's row"]);
    expect(failedSteps(none).length).toBe(1);
    expect(none.log).toBe('');
  });
});

describe('a field behind its editor', () => {
  // tests/fixtures/plain-english/edit-routes.html: a Workspace name field (not "my name": it
  // was filled before), a profile card whose pencil (class words only) opens a hidden editor panel; a grid whose Edit link turns the row into inputs, above
  // a new-line row of inputs that is always there.
  it('"Change my name to X", "Correct the hotel amount to N": the editor, the field it brought, its save', async () => {
    const r = await pe.plan('edit-routes.html', ['Change my name to Sam Okoro-Bell', 'Correct the hotel amount to 135.50']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('name=Sam Okoro-Bell;update hotel 135.50;');
    // Each part is in the report.
    expect(r.steps.map((s) => s.part ?? s.asked).join(' | ')).toMatch(/open the editor of "profile".*set "Full name" to "Sam Okoro-Bell".*save with "Save".*open the editor of "hotel".*set "Amount" to "135.50".*save with "Update"/);
  });

  it('"Edit the Hotel line", then "Amount: N": of two Amount fields, the one by the row the step before named', async () => {
    const r = await pe.plan('edit-routes.html', ['Edit the Hotel - 1 night line', 'Amount: 135.50', 'Update']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('update hotel 135.50;');
    // Without a row named before, the two are still two: refused.
    const bare = await pe.plan('edit-routes.html', ['Click the Edit link in the second row', 'Amount: 135.50']);
    expect(failureMessages(bare)).toMatch(/Amount/);
    expect(bare.log).toBe('');
  });

  it('"Make Lina Park an admin": the list in her row, else the one in her editor that offers it, then Save', async () => {
    const r = await pe.plan('edit-routes.html', ['Make Lina Park an admin', 'Make Tom Reyes a viewer']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('role Lina Park=Admin;role Tom Reyes=Viewer;');
    const none = await pe.plan('edit-routes.html', ['Make Lina Park a superuser']);
    expect(failureMessages(none)).toMatch(/opened the editor of "Lina Park", but nothing it brought offers "superuser"/);
    const nobody = await pe.plan('edit-routes.html', ['Make Nobody Here an admin']);
    expect(failedSteps(nobody).length).toBe(1);
    for (const run of [none, nobody]) expect(run.log).toBe('');
  });

  it('must fail: no such field in the editor, no such row; nothing saved', async () => {
    const nick = await pe.plan('edit-routes.html', ['Change my nickname to Sammy']);
    expect(failureMessages(nick)).toMatch(/opened the editor of "profile", but no field it brought is named "nickname"; nothing was typed/);
    const parking = await pe.plan('edit-routes.html', ['Correct the parking amount to 10']);
    expect(failedSteps(parking).length).toBe(1);
    for (const run of [nick, parking]) expect(run.log).toBe('');
  });
});

describe('a card moved in a person\'s words on a board', () => {
  // tests/fixtures/plain-english/board-moves.html: columns Backlog / Doing / In review / Shipped
  // (<h2> with a count), cards dragged between them.
  it('"Start work on X" goes to the column where work is under way; "back a step" to the one before', async () => {
    const r = await pe.plan('board-moves.html', ['Start work on the pricing page', 'Send the help centre card back a step']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('move Draft pricing page → Doing;move Translate help centre → Doing;');
  });

  it('a menu item that says a whole sentence is a step by its name: "Archive all cards in this list"', async () => {
    const r = await pe.plan('board-moves.html', ['Click the ⋯ next to Shipped', 'Archive all cards in this list']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('archive all Shipped;');
    // No menu open: no control has that name, and nothing is clicked.
    const closed = await pe.plan('board-moves.html', ['Archive all cards in this list']);
    expect(failedSteps(closed).length).toBe(1);
    expect(closed.log).toBe('');
  });

  it('must fail: the last column, a card already there, a card the board does not have', async () => {
    const runs = await Promise.all([
      pe.plan('board-moves.html', ['Move the invoice PDF on a step']),
      pe.plan('board-moves.html', ['Start work on the signup redirect fix']),
      pe.plan('board-moves.html', ['Start work on the mobile app']),
    ]);
    expect(runs.map((r) => failureMessages(r))).toEqual([
      expect.stringMatching(/"New invoice PDF" is in "Shipped", the last column; nothing was moved/),
      expect.stringMatching(/"Fix signup redirect" is in "Doing" already/),
      expect.stringMatching(/no card shows "the mobile app"/),
    ]);
    for (const r of runs) expect(r.log).toBe('');
  });
});

describe('a picture described by its look before its name', () => {
  // tests/fixtures/plain-english/copy-boxes.html: two read-only boxes with a copy button each.
  it('"the two-sheets copy icon right of the <URL> box under Invite link" is the copy button by that box', async () => {
    const r = await pe.rest('copy-boxes.html', [{ action: 'click', description: 'the two-sheets copy icon to the right of the https://example.test/join/ab12-cd34 box under Invite link' }]);
    expect(r.answers[0].status, JSON.stringify(r.answers[0].body)).toBe(200);
    expect(r.log).toBe('copy;');
    // A box the page does not show: nothing copied (the other box's button is not it).
    const none = await pe.rest('copy-boxes.html', [{ action: 'click', description: 'the two-sheets copy icon to the right of the https://example.test/join/zz99-zz99 box under Invite link' }]);
    expect(none.answers[0].body.error?.code).toBe('target_not_found');
    expect(none.log).toBe('');
  });
});

describe('a setting turned off by what it is about', () => {
  // tests/fixtures/plain-english/settings-words.html: three switches, each with a line saying what it is about.
  it('"Stop notifications coming to my phone": the one switch whose row says both page words', async () => {
    const r = await pe.plan('settings-words.html', ['Stop notifications coming to my phone', 'Stop the weekly email']);
    expect(failureMessages(r)).toBe('');
    expect(r.log).toBe('push=off;digest=off;');
  });

  it('must fail: one word left of what the page shows, or words two rows hold', async () => {
    // ("Stop the emails about notifications" is a reading, not a must-fail: Email notifications.)
    const runs = await Promise.all([pe.plan('settings-words.html', ['Stop notifications coming to my watch']), pe.plan('settings-words.html', ['Stop your notifications'])]);
    for (const r of runs) {
      expect(failedSteps(r).length).toBe(1);
      expect(r.log).toBe('');
    }
  });
});
