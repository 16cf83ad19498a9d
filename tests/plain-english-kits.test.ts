import { describe, expect, it } from 'vitest';
import { parseDescription, derivedReadings } from '@ariadne/page';
import { interpret } from '@ariadne/flows';
import { failedSteps, usePlainEnglish } from './helpers/plain-english.js';

// Pages pasted from UI kits, as they ship without the ARIA their docs show: Tailwind UI blocks
// (a purple announcement banner with a bare SVG ×, Headless UI switches all named "Use setting",
// radio cards whose name is their content, a row of bare heroicon stars under a heading) and an
// Angular Material admin page (chips removed by a "cancel" ligature, a paginator of bare SVG
// chevrons beside the table, an invite dialog in the cdk overlay with floating labels after
// their fields). People name these by what they see: the card's title, the bar by what it is,
// the dialog by a word of its title, the field by the label floating over it.

const pe = usePlainEnglish('kits');
const TAILWIND = 'tailwind-ui.html';
const MATERIAL = 'mat-members.html';

describe('UI kits: the parse', () => {
  it('reads a quoted heading after "under" as the scope, a place beside a table as colour, a glyph and its gloss both ways', () => {
    expect(parseDescription('the fourth star under "How are we doing?"')).toMatchObject({ phrase: 'star', ordinal: 4, scope: 'How are we doing?' });
    expect(parseDescription('the next page arrow (›) at the bottom right of the table')).toMatchObject({ phrase: 'next page arrow' });
    expect(parseDescription('the next page arrow (›) at the bottom right of the table').scope).toBeUndefined();
    // The glyph alone when the words gloss it; the words alone either way; never the + of "+ Add a card" alone.
    const gloss = (d: string) => derivedReadings(parseDescription(d)).map((r) => r.phrase);
    expect(gloss('the × close button')).toEqual(expect.arrayContaining(['×', 'close']));
    expect(gloss('+ Add a card')).toContain('Add a card');
    expect(gloss('+ Add a card')).not.toContain('+');
    // The middle of a container is in it; a quoted menu item keeps its "in"; "both" is no value.
    expect(parseDescription('the Team card ($12 / user / month) in the middle of the Plan section')).toMatchObject({ scope: 'Plan' });
    expect(interpret("Choose 'Archive all cards in this list' from the menu")).toMatchObject({ kind: 'click', target: { phrase: 'Archive all cards in this list', landmark: 'menu' } });
    expect(interpret('Tick both Grace Okafor and Omar Farouk')).toMatchObject({ kind: 'choose', values: ['Grace Okafor', 'Omar Farouk'], tick: true });
    // "in the row of X" is X's row in a nested scope.
    expect(derivedReadings(parseDescription('the ⓧ on the contractor tag in the row of Omar Farouk'))).toEqual(expect.arrayContaining([expect.objectContaining({ phrase: 'ⓧ', scope: 'contractor', within: 'Omar Farouk' })]));
  });
});

describe('UI kits: Tailwind UI blocks', () => {
  it('REST: a radio card by its title, a star under its heading, the × of the announcement bar', async () => {
    const r = await pe.rest(TAILWIND, [
      { action: 'click', description: 'the Team plan card under Plan' },
      { action: 'click', description: 'the Business card' },
      { action: 'click', description: 'the fourth star under "How are we doing?"' },
      { action: 'check', description: 'the Weekly digest switch in Notifications' },
      { action: 'click', description: 'the × close button at the right end of the purple announcement bar' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200, 200, 200, 200]);
    expect(r.log).toBe('plan Team;plan Business;rated 4;digest on;banner dismissed;');
    expect(r.answers[4].body.target.why).toContain('notice bar');
  });

  it('REST must-fail: a card the group does not have, a sixth star, a bar that is gone, a cookie banner on a page without one', async () => {
    const absent = await pe.rest(TAILWIND, [{ action: 'click', description: 'the Enterprise plan card under Plan' }]);
    expect(absent.answers[0].status).not.toBe(200);
    const sixth = await pe.rest(TAILWIND, [{ action: 'click', description: 'the sixth star under "How are we doing?"' }]);
    expect(sixth.answers[0].status).not.toBe(200);
    const gone = await pe.rest(TAILWIND, [
      { action: 'click', description: 'the × close button at the right end of the purple announcement bar' },
      { action: 'click', description: 'the close button in the cookie banner' },
    ]);
    expect(gone.answers.map((a) => a.status)).toEqual([200, 409]);
    expect(gone.answers[1].body.error.message).toContain('notice bar');
    expect([absent.log, sixth.log, gone.log]).toEqual(['', '', 'banner dismissed;']);
  });

  it('REST: a row by its two lines as read off a screenshot, joined by a dash; a second line it does not show is refused', async () => {
    const r = await pe.rest('switches-tailwind.html', [{ action: 'click', description: "the grey switch at the right of the 'Weekly digest — A summary of your projects every Monday' row in Notifications" }]);
    expect(r.answers[0].status, JSON.stringify(r.answers[0].body.error)).toBe(200);
    expect(r.log).toBe('digest on;');
    const wrong = await pe.rest('switches-tailwind.html', [{ action: 'click', description: "the switch in the 'Email alerts — Get a text whenever someone mentions you' row" }]);
    expect(wrong.answers[0].status).not.toBe(200);
    expect(wrong.log).toBe('');
  });

  it('plans: the same through the rules planner', async () => {
    const r = await pe.plan(TAILWIND, [
      'Dismiss the purple announcement bar',
      'Turn on the Weekly digest switch',
      'Choose the Team plan card',
      'Click the fourth star under "How are we doing?"',
    ]);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('banner dismissed;digest on;plan Team;rated 4;');
  });
});

describe('read off a screenshot', () => {
  it('the parse: a star beside a quoted text, "the 4-star rating star", "left of" is no container', () => {
    expect(parseDescription("the 4-star rating star next to 'Not rated yet'")).toMatchObject({ phrase: 'star', ordinal: 4, scope: 'Not rated yet', beside: true });
    expect(parseDescription('the checkbox left of the confirmation sentence')).toMatchObject({ phrase: '', role: 'checkbox', scope: 'confirmation sentence', beside: true });
    // A corner of a container keeps the container (a held-out bench episode lost it for a commit).
    expect(parseDescription('the ⋯ menu button at the top right of the Done list')).toMatchObject({ phrase: '⋯ menu', scope: 'Done' });
  });

  it('REST: the Nth star beside a quoted text; a star the run does not have is refused', async () => {
    const r = await pe.rest(TAILWIND, [{ action: 'click', description: "the 4-star rating star next to 'Not rated yet'" }]);
    expect(r.answers[0].status, JSON.stringify(r.answers[0].body.error)).toBe(200);
    expect(r.log).toBe('rated 4;');
    const seventh = await pe.rest(TAILWIND, [{ action: 'click', description: "the 7th star next to 'Not rated yet'" }]);
    expect(seventh.answers[0].status).not.toBe(200);
    expect(seventh.log).toBe('');
  });

  it('REST: a row in edit mode by the text its fields now hold; another row\'s text is refused', async () => {
    const r = await pe.rest('grid-edit-values.html', [
      { action: 'click', description: 'the Edit link in the Hotel - 2 nights row' },
      { action: 'fill', description: 'the amount box in the Hotel - 2 nights row', value: '289.00' },
      { action: 'click', description: 'Update' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error))).toEqual([200, 200, 200]);
    expect(r.log).toBe('update Hotel - 2 nights 289.00;');
    const taxi = await pe.rest('grid-edit-values.html', [
      { action: 'click', description: 'the Edit link in the Hotel - 2 nights row' },
      { action: 'fill', description: 'the amount box in the Taxi to client office row', value: '1.00' },
    ]);
    expect(taxi.answers[1].status).not.toBe(200);
  });
});

describe('UI kits: an Angular Material admin page', () => {
  it('REST: a chip\'s remove icon in a row, the pager arrow beside the table, the invite dialog\'s floating-label fields', async () => {
    const r = await pe.rest(MATERIAL, [
      { action: 'click', description: "the remove (x) icon on the 'contractor' chip in Lena Vogel's row" },
      { action: 'click', description: 'the ⓧ on the contractor tag in the row of Omar Farouk' },
      { action: 'click', description: 'the next page arrow (›) at the bottom right of the table' },
      { action: 'click', description: 'Invite member' },
      { action: 'fill', description: 'the Email address field in the invite dialog', value: 'sam@acme.io' },
      { action: 'select', description: 'the Role field in the invite dialog', value: 'Viewer' },
      { action: 'click', description: 'Send invite' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.map((a) => a.body.error ?? a.body.target?.why))).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(r.log).toBe('untag Lena Vogel contractor;untag Omar Farouk contractor;page 2;role=Viewer;invite sam@acme.io Viewer;');
  });

  it('REST must-fail: a chip the row does not have, a dialog by another title', async () => {
    const chip = await pe.rest(MATERIAL, [{ action: 'click', description: 'the x on the lead chip in the row of Tom Reyes' }]);
    expect(chip.answers[0].status).not.toBe(200);
    const other = await pe.rest(MATERIAL, [{ action: 'click', description: 'Invite member' }, { action: 'fill', description: 'the Email address field in the billing dialog', value: 'x' }]);
    expect(other.answers[1].status).not.toBe(200);
    expect([chip.log, other.log]).toEqual(['', '']);
  });

  it('plans: the invite through the rules planner', async () => {
    const r = await pe.plan(MATERIAL, [
      'Click Invite member',
      'Enter sam@acme.io in the Email address field of the invite dialog',
      'Choose Viewer as the Role',
      'Click Send invite',
    ]);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('role=Viewer;invite sam@acme.io Viewer;');
  });
});

describe('a choice named by its value in a sentence of purpose', () => {
  const FORM = 'purpose-values.html';
  const one = async (step: string) => {
    const r = await pe.plan(FORM, [step]);
    return { failed: failedSteps(r).map((s) => s.error?.message ?? ''), log: r.log };
  };

  it('plans: the one radio, the one list offering the value, the field whose label the value follows', async () => {
    const got = [
      await one('I want to be paid by cheque'),
      await one('Charge this claim to the Finance department'),
      await one('Book the claim against cost centre 4410'),
      // Two lists offer Germany: the label the words also say decides.
      await one('Set my home office to Germany'),
    ];
    expect(got.map((g) => g.failed.join(' '))).toEqual(['', '', '', '']);
    expect(got.map((g) => g.log)).toEqual(['pay=cheque;', 'dept=Finance;', 'cc=4410;', 'office=Germany;']);
  });

  it('plans must-fail: a value nothing offers, a value two lists offer with neither label said, a list\'s prompt', async () => {
    const got = [await one('I want to be paid in bitcoin'), await one('It all happened in Germany'), await one('Leave it at select')];
    for (const g of got) expect(g.failed.join(' ')).toMatch(/not interpret|no list|choices fit/);
    expect(got.map((g) => g.log)).toEqual(['', '', '']);
    expect(got[1].failed[0]).toMatch(/2 choices fit/);
  });
});

describe('what the last step opened', () => {
  it('plans: text typed into the box that opens (the one with the caret), an item picked in the list that opens', async () => {
    const r = await pe.plan('board-lists.html', ["Click '+ Add a card' at the bottom of the Review list", "Type 'Check Spanish translations' in the box that opens", 'Click Add card']);
    expect(failedSteps(r), JSON.stringify(r.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(r.log).toBe('add Review;card Review: Check Spanish translations;');
    const menu = await pe.plan('overlays-columns.html', ["Click the three vertical dots at the far right of Lena Vogel's row", 'Pick Reset password in the menu that opens']);
    expect(failedSteps(menu), JSON.stringify(menu.steps.map((s) => [s.status, s.error?.message]))).toEqual([]);
    expect(menu.log).toBe('reset password Lena Vogel;');
  });

  it('plans must-fail: a box that opens when nothing has the caret, an item no open list shows', async () => {
    const box = await pe.plan('board-lists.html', ["Type 'Nothing' in the box that opens"]);
    expect(failedSteps(box)).toHaveLength(1);
    const menu = await pe.plan('overlays-columns.html', ["Click the three vertical dots at the far right of Lena Vogel's row", 'Pick Archive member in the menu that opens']);
    expect(failedSteps(menu)).toHaveLength(1);
    expect([box.log, menu.log]).toEqual(['', '']);
  });
});
