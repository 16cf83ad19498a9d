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
