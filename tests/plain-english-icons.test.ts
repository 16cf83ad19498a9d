import { describe, expect, it } from 'vitest';
import { ICON_CONCEPTS, parseRating, sameIcon } from '@ariadne/page';
import { failedSteps, failureMessages, usePlainEnglish } from './helpers/plain-english.js';

// Issue 25: icons named the way a person describes what they SEE ("the circular arrow", "the
// paper plane", "the cog", "the three dots"), counts in a run of like icons ("Give Chris's post
// 4 stars"), and a row's own ⋯ menu — through the rules planner and the REST ladder, on two
// pages in styles the corpus does not use: Material Icons ligatures with hidden per-row menus
// (tests/fixtures/plain-english/icons-material.html) and Font Awesome classes drawn by ::before
// plus a CSS background sprite, with menus rendered only on open (icons-fa.html). Each page
// appends what was done to #log: a right pass is told from a wrong one by the page.

const pe = usePlainEnglish('pi');
const { plan, rest } = pe;
const failed = failedSteps;
const messages = failureMessages;

describe('the iconography vocabulary (pure)', () => {
  it('is broad, and relates picture words, purposes and icon-set names both ways', () => {
    expect(ICON_CONCEPTS.length).toBeGreaterThan(100);
    const pairs: [string, string, string | undefined][] = [
      ['rotate right', 'circular arrow', 'class'], ['autorenew', 'circular-arrow', 'ligature'], ['arrow clockwise', 'refresh', 'class'],
      ['link 45deg', 'chain link', 'class'], ['more vert', 'three dots', 'ligature'], ['ellipsis h', 'meatball menu', 'class'],
      ['⋯', 'kebab menu', undefined], ['bars', 'hamburger menu', 'class'], ['delete outline', 'bin', 'ligature'],
      ['trash', 'trash can', 'class'], ['cog', 'settings', 'class'], ['settings', 'gear', 'ligature'], ['search', 'magnifier', 'ligature'],
      ['paper plane', 'send', 'class'], ['floppy o', 'floppy disk', 'class'], ['notifications none', 'bell', 'ligature'],
      ['favorite', 'heart', 'ligature'], ['Move to trash', 'the bin', 'data'], ['triangle 1 n', 'up arrow', 'class'],
    ];
    for (const [name, words, from] of pairs) expect(`${name} ~ ${words}: ${sameIcon(name, words, from)}`).toBe(`${name} ~ ${words}: true`);
    // Never across pictures: Material's favorite is a heart, not a star; its clear is an ×.
    for (const [name, words, from] of [['favorite', 'star', 'ligature'], ['clear', 'circular arrow', 'ligature'], ['edit', 'bin', 'class'], ['heart', 'bell', 'class']] as const) expect(sameIcon(name, words, from)).toBe(false);
  });

  it('reads ratings as the Nth icon of one run', () => {
    expect(parseRating("Give Chris's post 4 stars")).toMatchObject({ phrase: 'star', ordinal: 4, scope: 'Chris', icon: true });
    expect(parseRating('Rate the Espresso machine 3 out of 5')).toMatchObject({ ordinal: 3, run: 5, scope: 'Espresso machine' });
    expect(parseRating('Give Dana a 5')).toBeNull();
    // The app, the site, the page: the page itself is rated (its one run), not a row named so.
    const app = parseRating('Give the app a 4 out of 5 rating');
    expect(app).toMatchObject({ phrase: 'star', ordinal: 4, run: 5 });
    expect(app?.scope).toBeUndefined();
    expect(parseRating('Give the Espresso machine a 3 out of 5 rating')).toMatchObject({ ordinal: 3, scope: 'Espresso machine' });
  });
});

describe('icons by their picture (Material ligatures, Font Awesome classes, a CSS sprite)', () => {
  it('plans: the circular arrow, the paper plane, the magnifier, the cog; the floppy disk, the chain-link button, the bell', async () => {
    const a = await plan('icons-material.html', ['Click the circular arrow', 'Click the paper plane icon', 'Click the magnifier', 'Click the cog']);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('refresh;send;search;settings;');
    const b = await plan('icons-fa.html', ['Click the floppy disk', 'Press the chain-link button in the toolbar', 'Click the bell', 'Click the paper plane']);
    expect(messages(b)).toBe('');
    expect(b.log).toBe('save;link;bell;sendit;');
    const c = await plan('icons-fa.html', ['Press the link icon', 'Click the toolbar button with the paper plane']);
    expect(messages(c)).toBe('');
    expect(c.log).toBe('link;sendit;');
  });

  it('REST: "the circular-arrow icon", "the gear", "the second pencil", "the last bin icon"', async () => {
    const r = await rest('icons-material.html', [
      { action: 'click', description: 'the circular-arrow icon' },
      { action: 'click', description: 'the gear' },
      { action: 'click', description: 'the second pencil' },
      { action: 'click', description: 'the last bin icon' },
    ]);
    expect(r.answers.map((x) => x.status)).toEqual([200, 200, 200, 200]);
    expect(r.log).toBe('refresh;settings;edit budget.xlsx;delete notes.txt;');
    expect(r.answers[0].body.target?.why ?? JSON.stringify(r.answers[0].body)).toMatch(/autorenew/);
  });

  it('must fail: an icon that is not on the page, and two icons that both fit', async () => {
    const a = await plan('icons-fa.html', ['Click the printer icon']);
    expect(failed(a).length).toBe(1);
    expect(a.log).toBe('');
    const b = await plan('icons-fa.html', ['Click the favourite icon']);
    expect(failed(b).length).toBe(1);
    expect(messages(b)).toMatch(/matches 2|ambiguous|say which/i);
    expect(b.log).toBe('');
    const r = await rest('icons-fa.html', [{ action: 'click', description: 'the favourite button' }]);
    expect(r.answers[0].status).not.toBe(200);
    expect(r.answers[0].body.error.code).toBe('ambiguous_target');
    const r2 = await rest('icons-material.html', [{ action: 'click', description: 'the printer icon' }]);
    expect(r2.answers[0].body.error.code).toBe('target_not_found');
    expect(r2.log).toBe('');
  });
});

describe('counts in a run of like icons (ratings)', () => {
  it('plans: "Give Chris\'s post 4 stars", "Click the second star in Dana\'s post"', async () => {
    const a = await plan('icons-fa.html', ["Give Chris's post 4 stars", "Click the second star in Dana's post"]);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('rate Chris 4;rate Dana 2;');
  });

  it('REST: "Rate Dana 3 out of 5"; refused: 6 stars, "out of 10", and the 4th star with no post named', async () => {
    const r = await rest('icons-fa.html', [{ action: 'click', description: 'Rate Dana 3 out of 5' }]);
    expect(r.answers[0].status).toBe(200);
    expect(r.log).toBe('rate Dana 3;');
    for (const description of ["Give Chris's post 6 stars", 'Rate Chris 4 out of 10', 'the fourth star']) {
      const x = await rest('icons-fa.html', [{ action: 'click', description }]);
      expect(`${description}: ${x.answers[0].status}`).not.toBe(`${description}: 200`);
      expect(x.log).toBe('');
    }
  });
});

describe("a row's own ⋯ menu", () => {
  it('plans: "Rename report.pdf from its ⋯ menu", "Archive budget.xlsx" (only in that row\'s menu)', async () => {
    const a = await plan('icons-material.html', ['Rename report.pdf from its ⋯ menu']);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('rename report.pdf;');
    const b = await plan('icons-material.html', ['Archive budget.xlsx']);
    expect(messages(b)).toBe('');
    expect(b.log).toBe('archive budget.xlsx;');
  });

  it('plans: "Open the three-dot menu on Chris\'s post and choose Report" (items rendered on open)', async () => {
    const a = await plan('icons-fa.html', ["Open the three-dot menu on Chris's post and choose Report"]);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('report Chris;');
  });

  it('REST: "Archive notes.txt" says what it opened; "Delete the file readme.md" (no such row) opens nothing', async () => {
    const r = await rest('icons-material.html', [{ action: 'click', description: 'Archive notes.txt' }]);
    expect(r.answers[0].status).toBe(200);
    expect(r.log).toBe('archive notes.txt;');
    expect(JSON.stringify(r.answers[0].body)).toMatch(/notes\.txt/);
    const m = await rest('icons-material.html', [{ action: 'click', description: 'Archive readme.md' }]);
    expect(m.answers[0].status).not.toBe(200);
    expect(m.log).toBe('');
  });
});

// A feed whose bylines are one run of text ("Ann Berg @ann_b · 2h", the name in <b>), a heart
// drawn by hand in an <svg class="like">, and ligature icons inside clickable spans
// (feed-bylines.html); a board whose card buttons are drawn by hand, with no label, title, class
// word or icon set (hand-drawn-cards.html): there the place a person points at is the name.
describe('bylines, an svg named by its class, pictures by their place', () => {
  it('REST: a post by the name in its byline or by its handle; a name with the handle in brackets', async () => {
    const r = await rest('feed-bylines.html', [
      { action: 'click', description: 'the heart icon under the post by Ann Berg' },
      { action: 'click', description: 'the bookmark icon under the post by @annbergman' },
      { action: 'click', description: 'the Follow button next to Ann Berg (@ann_b)' },
      { action: 'click', description: 'the bin icon in the post by Omar Haddad' },
    ]);
    expect(r.answers.map((x) => x.body.error?.message ?? x.status)).toEqual([200, 200, 200, 200]);
    expect(r.log).toBe('like ann_b;bookmark annbergman;follow ann_b;delete omar.h;');
  });

  it('REST: a picture placed by the picture beside it; not when another stands between', async () => {
    const r = await rest('feed-bylines.html', [{ action: 'click', description: 'the bookmark icon next to the bin in the post by Omar Haddad' }]);
    expect(r.answers[0].body.error?.message ?? r.answers[0].status).toBe(200);
    expect(r.log).toBe('bookmark omar.h;');
    const miss = await rest('feed-bylines.html', [{ action: 'click', description: 'the heart next to the bin in the post by Omar Haddad' }]);
    expect(miss.answers[0].body.error?.code).toBe('target_not_found');
    expect(miss.log).toBe('');
  });

  it('must fail: another post\'s picture, a longer name, a handle cut short', async () => {
    // Only Omar's post has a delete: never it for Ann's.
    for (const description of ['the bin icon in the post by Ann Berg', 'the bin icon in the post by @ann_b', 'the heart icon under the post by @ann', 'the heart icon under the post by Ann']) {
      const r = await rest('feed-bylines.html', [{ action: 'click', description }]);
      expect(`${description}: ${r.answers[0].body.error?.code ?? r.answers[0].status}`).toBe(`${description}: target_not_found`);
      expect(r.log).toBe('');
    }
  });

  it('REST and plans: the unread picture at the place the words say, in the card they name', async () => {
    const r = await rest('hand-drawn-cards.html', [
      { action: 'click', description: "the archive (box) icon at the bottom right of the 'Update privacy policy' card" },
      { action: 'click', description: 'the dashed person-plus icon at the bottom left of the Write release notes card' },
      { action: 'click', description: 'the move left arrow on the Cookie banner copy card in Review' },
    ]);
    expect(r.answers.map((x) => x.body.error?.message ?? x.status)).toEqual([200, 200, 200]);
    expect(r.log).toBe('archive Update privacy policy;assign Write release notes;back Cookie banner copy;');
    expect(r.answers[0].body.target.why).toMatch(/bottom right/);
    const a = await plan('hand-drawn-cards.html', ["Click the little box icon at the bottom right of the 'Migrate image CDN' card"]);
    expect(messages(a)).toBe('');
    expect(a.log).toBe('archive Migrate image CDN;');
  });

  it('must fail: no place said, a picture that says something else there, two at the place', async () => {
    for (const description of [
      // No place: an unread picture is never guessed.
      'the archive icon on the Cookie banner copy card',
      // At the bottom right sits an unread box, but the words name a word, not a picture.
      'the Estimate button at the bottom right of the Cookie banner copy card',
      // The foot of the Migrate image CDN card holds the person, ← → and the box: "the bottom" alone picks none.
      'the archive icon at the bottom of the Migrate image CDN card',
      // An arrow is read (→): at the bottom left sits the unread person, not an arrow.
      'the ← arrow at the bottom left of the Write release notes card',
    ]) {
      const r = await rest('hand-drawn-cards.html', [{ action: 'click', description }]);
      expect(`${description}: ${r.answers[0].body.error?.code ?? r.answers[0].status}`).toBe(`${description}: target_not_found`);
      expect(r.log).toBe('');
    }
  });
});

// image-buttons.html: image buttons named only by their files (`<input type="image"
// src="img/btn_delete.gif">`, `<img src="img/calendar.png">`), a CSS background icon of its own
// file, and a sprite cut from one sheet, which names nothing.
describe('pictures named by their files', () => {
  it('REST: the calendar beside a box, a row\'s delete image button, the add image, a CSS background icon', async () => {
    const r = await rest('image-buttons.html', [
      { action: 'click', description: 'the calendar icon next to the Claim Date box' },
      { action: 'click', description: "the delete button in the Hotel - 2 nights row" },
      { action: 'click', description: 'the green + at the end of the new row' },
      { action: 'click', description: 'the printer icon' },
    ]);
    expect(r.answers.map((x) => x.body.error?.message ?? x.status)).toEqual([200, 200, 200, 200]);
    expect(r.log).toBe('calendar;delete Hotel - 2 nights;add;print;');
    expect(r.answers[0].body.target.why).toMatch(/from its file/);
  });

  it('must fail: a sprite names nothing; a picture no file names', async () => {
    for (const description of ['the star icon', 'the heart icon', 'the bin icon in the Parking row']) {
      const r = await rest('image-buttons.html', [{ action: 'click', description }]);
      expect(`${description}: ${r.answers[0].body.error?.code ?? r.answers[0].status}`).toBe(`${description}: target_not_found`);
      expect(r.log).toBe('');
    }
  });
});
