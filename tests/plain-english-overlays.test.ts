import { describe, expect, it } from 'vitest';
import { parseDescription } from '@ariadne/page';
import { isAssertionStep } from '@ariadne/flows';
import { failedSteps, usePlainEnglish } from './helpers/plain-english.js';

// An admin console written without ARIA: a row's selection box beside its Active switch, names
// as avatar initials + name + e-mail in <div>s, a ⋮ row menu that is a floating <div>, a
// confirmation box that is a fixed <div>, an invitation dialog titled "Invite a member", plan
// cards that are clickable <div>s named only by their heading. People point at these by the
// overlay ("in the box that asks you to confirm", "from the menu", "in the invite dialog"), by
// the column ("in the Active column of Tom's row") and by the card's heading ("the Team plan").

const pe = usePlainEnglish('overlay');
const PAGE = 'overlays-columns.html';

describe('overlays, columns and cards: the parse', () => {
  it('reads an overlay at the end as a landmark, a column by its header, a row detail in brackets as colour', () => {
    expect(parseDescription('Remove in the box that asks you to confirm')).toMatchObject({ phrase: 'Remove', landmark: 'dialog' });
    expect(parseDescription('the Disconnect button in the confirmation box')).toMatchObject({ phrase: 'Disconnect', landmark: 'dialog' });
    expect(parseDescription('Reset password from the menu')).toMatchObject({ phrase: 'Reset password', landmark: 'menu' });
    expect(parseDescription('Remove member in the row menu')).toMatchObject({ phrase: 'Remove member', landmark: 'menu' });
    expect(parseDescription('the Email address field in the invite dialog')).toMatchObject({ phrase: 'Email address', landmark: 'dialog', scope: 'invite' });
    // A named menu is a route to open, not an overlay already open; a box is a dialog only when the words say so.
    expect(parseDescription('Export in the File menu')).toMatchObject({ phrase: 'Export', scope: 'File' });
    expect(parseDescription('Save in the Settings panel').landmark).toBeUndefined();
    expect(parseDescription("the grey, switched-off toggle in the Active column of Lena Voss's row (lena.voss@acme.io)")).toMatchObject({ phrase: '', role: 'switch', column: 'Active', scope: 'Lena Voss' });
    expect(parseDescription('the Cost Centre text field')).toMatchObject({ phrase: 'Cost Centre', kind: 'text' });
  });
});

describe('confirming a dialog: the parse', () => {
  it('"Confirm Remove" answers the dialog; "Confirm <text> is visible" stays a claim to check', () => {
    for (const t of ['Confirm', 'Confirm Remove', 'confirm it', 'Confirm the deletion', 'Confirm the removal in the dialog']) expect(isAssertionStep(t), t).toBe(false);
    for (const t of ['Confirm that the cart shows 2', 'Confirm "Welcome" is visible', 'Confirm welcome', 'Verify Remove']) expect(isAssertionStep(t), t).toBe(true);
  });
});

describe('overlays, columns and cards: on a page', () => {
  it('REST: the selection box and the switch of one row are told apart by kind and by column', async () => {
    const r = await pe.rest(PAGE, [
      { action: 'check', description: "the checkbox at the start of Lena Voss's row" },
      { action: 'click', description: 'the pink switch in the Active column of the Omar Farouk row' },
      { action: 'check', description: "the grey, switched-off toggle in the Active column of Lena Voss's row (lena.voss@acme.io)" },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200, 200]);
    expect(r.log).toBe('select Lena Voss;deactivate Omar Farouk;activate Lena Voss;');
    // A state said before the kind is the state it is in: "the off switch" of a row whose switch is on is a miss.
    const off = await pe.rest(PAGE, [{ action: 'check', description: 'the grey off switch in the Active column of the Lena Voss row' }]);
    expect(off.answers[0].status, JSON.stringify(off.answers[0].body.error)).toBe(200);
    expect(off.log).toBe('activate Lena Voss;');
    const notOn = await pe.rest(PAGE, [{ action: 'uncheck', description: 'the on switch in the Active column of the Lena Voss row' }]);
    expect(notOn.answers[0].status).toBe(409);
    expect(notOn.log).toBe('');
    // No switch in the Role column: refused, nothing clicked.
    const none = await pe.rest(PAGE, [{ action: 'click', description: "the switch in the Role column of Omar Farouk's row" }]);
    expect(none.answers[0].status).not.toBe(200);
    expect(none.answers[0].body.error.message).toContain('"Role" column');
    expect(none.log).toBe('');
  });

  it('REST: a ⋮ row menu without ARIA, its item "from the menu", and the fixed box that asks to confirm', async () => {
    const r = await pe.rest(PAGE, [
      { action: 'click', description: "the ⋮ at the right end of Priya Natarajan's row" },
      { action: 'click', description: 'Remove member in the row menu' },
      { action: 'click', description: 'Remove in the box that asks you to confirm' },
      { action: 'click', description: 'the three vertical dots in Lena Vogel\'s row' },
      { action: 'click', description: 'Reset password from the menu' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200, 200, 200, 200]);
    expect(r.log).toBe('remove Priya Natarajan;reset password Lena Vogel;');
    // With no menu or box open, the words that name one are refused: no row's menu is opened
    // to find a "Reset password" for someone, no "Remove" is guessed.
    const closed = await pe.rest(PAGE, [{ action: 'click', description: 'Reset password from the menu' }]);
    expect(closed.answers[0].status).not.toBe(200);
    expect(closed.log).toBe('');
    const nobox = await pe.rest(PAGE, [{ action: 'click', description: 'Remove in the box that asks you to confirm' }]);
    expect(nobox.answers[0].status).not.toBe(200);
    expect(nobox.log).toBe('');
  });

  it('REST: a dialog by words of its title; another title is refused', async () => {
    const r = await pe.rest(PAGE, [
      { action: 'click', description: 'Invite' },
      { action: 'fill', description: 'the Email address field in the invite dialog', value: 'nadia@acme.io' },
      { action: 'click', description: 'Send invite' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error))).toEqual([200, 200, 200]);
    expect(r.log).toBe('invite nadia@acme.io;');
    const other = await pe.rest(PAGE, [{ action: 'click', description: 'Invite' }, { action: 'fill', description: 'the Email address field in the Settings dialog', value: 'x' }]);
    expect(other.answers[1].status).not.toBe(200);
  });

  it('REST: a clickable card by its heading; a card that is not there is refused', async () => {
    const r = await pe.rest(PAGE, [{ action: 'click', description: 'the Team plan card under Plan' }, { action: 'click', description: 'the Bug filter chip' }]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error))).toEqual([200, 200]);
    expect(r.log).toBe('plan Team;filter Bug;');
    // A two-letter utility class on the button ("ib") does not hide its icon's name.
    const copy = await pe.rest(PAGE, [{ action: 'click', description: 'the copy icon next to the invite link' }]);
    expect(copy.answers[0].status, JSON.stringify(copy.answers[0].body.error)).toBe(200);
    expect(copy.log).toBe('copy link;');
    const absent = await pe.rest(PAGE, [{ action: 'click', description: 'the Enterprise plan card under Plan' }]);
    expect(absent.answers[0].status).not.toBe(200);
    expect(absent.log).toBe('');
  });

  it('REST: a control right after a quoted text, the × at the end of a quoted bar; a place before a comma is colour', async () => {
    const r = await pe.rest(PAGE, [
      { action: 'click', description: "the › arrow at the bottom right of the members table, right after '1 – 4 of 9'" },
      { action: 'click', description: "the × at the right end of the purple 'New: two-factor sign-in is here' bar at the very top of the page" },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200]);
    expect(r.log).toBe('page next;dismiss notice;');
    // An anchor text that is not there is a miss, never the other arrow.
    const miss = await pe.rest(PAGE, [{ action: 'click', description: "the › arrow right after '1 – 6 of 9'" }]);
    expect(miss.answers[0].status).not.toBe(200);
    expect(miss.log).toBe('');
  });

  it('plans: the same through the rules planner', async () => {
    const r = await pe.plan(PAGE, [
      "Click the three vertical dots at the far right of Lena Vogel's row",
      'In the menu that opens, choose Remove member',
      'Press the Remove button in the confirmation box',
      "Tick the checkbox at the start of Omar Farouk's row",
      "Click the pink toggle in the Active column of Priya Natarajan's row to switch it off",
    ]);
    expect(failedSteps(r)).toEqual([]);
    expect(r.log).toBe('remove Lena Vogel;select Omar Farouk;deactivate Priya Natarajan;');
  });

  it('plans: "Confirm Remove" after the action clicks the box\'s Remove; with no box open it fails', async () => {
    const r = await pe.plan(PAGE, ["Click the three vertical dots at the far right of Lena Vogel's row", 'Choose Remove member from the menu', 'Confirm Remove']);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('remove Lena Vogel;');
    const none = await pe.plan(PAGE, ['Confirm Remove']);
    expect(failedSteps(none).length).toBe(1);
    expect(none.log).toBe('');
  });

  it('REST: the same "+ Add a card" at the bottom of each list, told apart by the list\'s title (a count badge run into it)', async () => {
    const r = await pe.rest('board-lists.html', [
      { action: 'click', description: "'+ Add a card' at the bottom of the Review list" },
      { action: 'click', description: "the '+ Add a card' button in the Done 1 list" },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200]);
    expect(r.log).toBe('add Review;add Done;');
    // A list that is not there is a miss; so is a count that is not the list's.
    const none = await pe.rest('board-lists.html', [{ action: 'click', description: "'+ Add a card' at the bottom of the Backlog list" }]);
    expect(none.answers[0].status).toBe(409);
    const wrongCount = await pe.rest('board-lists.html', [{ action: 'click', description: "'+ Add a card' in the Done 12 list" }]);
    expect(wrongCount.answers[0].status).toBe(409);
    expect(none.log + wrongCount.log).toBe('');
    // Where a floating button sits and that it floats say where it is, not which.
    const fab = await pe.rest('board-lists.html', [{ action: 'click', description: 'the floating add (+) button in the bottom-right corner' }]);
    expect(fab.answers[0].status, JSON.stringify(fab.answers[0].body.error)).toBe(200);
    expect(fab.log).toBe('new card;');
    const noFab = await pe.rest('board-lists.html', [{ action: 'click', description: 'the floating share button in the bottom-right corner' }]);
    expect(noFab.answers[0].status).toBe(409);
    const plan = await pe.plan('board-lists.html', ["Click '+ Add a card' at the bottom of the To do list"]);
    expect(failedSteps(plan)).toEqual([]);
    expect(plan.log).toBe('add To do;');
  });

  it('plans: a row verb whose icon is not recognised never takes a list menu\'s "Archive all …" (a silent wrong seen)', async () => {
    const r = await pe.plan('board-menu.html', ["Archive 'Update privacy policy'"]);
    expect(failedSteps(r).length, JSON.stringify(r.steps.map((s) => [s.status, s.part, s.locator?.code]))).toBe(1);
    expect(r.log).toBe('');
  });
});
