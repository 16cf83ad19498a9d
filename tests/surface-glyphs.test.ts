import { describe, expect, it } from 'vitest';
import { conceptsOfName, sameIcon } from '@ariadne/page';
import { parsePath } from '../packages/page/src/bridge/injected/surface-glyphs.js';
import { ACTION_WORDS, vocabularyName } from '../packages/page/src/bridge/injected/surface-ids.js';
import { iconWord } from '../packages/page/src/bridge/injected/surface-names.js';
import { failedSteps, usePlainEnglish } from './helpers/plain-english.js';

// Icon-only controls whose only picture is an inline SVG with no <title>, text, aria or class
// word get the glyph it draws as their inferred name ([inferred=shape]), read from the drawing's
// geometry; controls named only by their own id or a data-* value get that word ([inferred=id],
// [inferred=data]). Four pages in four styles (tests/fixtures/plain-english/glyphs-*.html):
// Tailwind with outline paths pasted Heroicons-style, Feather/Lucide <line>/<polyline>/<circle>,
// Bootstrap with filled paths of round-capped bars, and a hand-drawn jQuery toolbar of <rect>s.
// Each has pictures that are not read (a pencil, a bin, a bell, a cog, an info badge, a rotated
// +, a »): those stay nameless. Each page appends what was clicked to #log.

const pe = usePlainEnglish('glyphs');

type J = { role?: string; name?: string; inferredName?: string; inferredFrom?: string; cursor?: string; children?: J[] };
const walk = (ns: J[], out: J[] = []): J[] => { for (const n of ns) { if (n && typeof n === 'object') { out.push(n); walk(n.children ?? [], out); } } return out; };

/** The page's inferred names in reading order (`name/from`), and its controls left with no name at all. */
async function names(page: string): Promise<{ named: string[]; nameless: number; yaml: string }> {
  const { svc, fx } = pe;
  const id = await svc.api.createSession();
  try {
    expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/plain-english/${page}` })).status).toBe(200);
    const json = await svc.api.snapshot(id, 'format=json&maxTokens=40000');
    const yaml = await svc.api.snapshot(id, 'format=yaml&maxTokens=40000');
    const nodes = walk(json.body.snapshot as J[]);
    const named = nodes.filter((n) => n.inferredName && !['label', 'text'].includes(n.inferredFrom ?? '')).map((n) => `${n.inferredName}/${n.inferredFrom}`);
    const nameless = nodes.filter((n) => ['button', 'link', 'generic'].includes(n.role ?? '') && !n.name && !n.inferredName && (n.cursor === 'pointer' || n.role !== 'generic') && !(n.children ?? []).length).length;
    return { named, nameless, yaml: yaml.body.snapshot as string };
  } finally {
    await svc.api.delete(`/v1/sessions/${id}`);
  }
}

describe('pure parts', () => {
  it('reads path data: relative commands, compact arc flags, a lone moveto; refuses what loops or runs long', () => {
    const subs = parsePath('M10 10m-7 0a7 7 0 1 0 14 0a7 7 0 1 0-14 0M21 21l-6-6')!;
    expect(subs.length).toBe(2);
    expect(subs[1].pts.map((p) => `${p.x},${p.y}`)).toEqual(['21,21', '15,15']);
    expect(parsePath('M4 4a1 1 0 011 1')!.at(-1)!.pts.at(-1)).toEqual({ x: 5, y: 5 });
    expect(parsePath('M0 0L5 5Z 3 3')).toBeNull();
    expect(parsePath(`M0 0${' L1 1'.repeat(400)}`)).toBeNull();
  });

  it('names glyphs so that picture words, characters and purposes reach them', () => {
    const pairs: [string, string][] = [
      ['×', 'x'], ['×', 'close'], ['×', 'the ×'], ['→', '→ arrow'], ['→', 'right arrow'], ['→', 'next'], ['›', 'next'], ['›', '›'],
      ['‹', '‹ previous page arrow'], ['‹', 'previous page'], ['⋮', '⋮ menu'], ['⋮', 'three dots'], ['⋯', 'three dots'], ['+', '+'],
      ['+', 'add'], ['✓', '✓'], ['✓', 'tick'], ['☰', 'hamburger menu'], ['★', 'star'], ['🔍', 'magnifier'], ['🔍', 'search'], ['⌄', 'down arrow'],
    ];
    for (const [n, w] of pairs) expect(`${n} ~ ${w}: ${sameIcon(n, w)}`).toBe(`${n} ~ ${w}: true`);
    for (const [n, w] of [['×', 'plus'], ['☰', 'three dots'], ['⋮', 'hamburger'], ['›', 'previous'], ['‹', '› next arrow']]) expect(`${n} ~ ${w}: ${sameIcon(n, w)}`).toBe(`${n} ~ ${w}: false`);
  });

  it('ids and data values: vocabulary words only, never generated ids', () => {
    expect(vocabularyName('copy')).toBe('copy');
    expect(vocabularyName('edit-profile')).toBe('edit profile');
    expect(vocabularyName('del')).toBe('delete');
    expect(vocabularyName('cfg')).toBe('settings');
    expect(vocabularyName('btnDelete')).toBe('delete');
    for (const v of ['ember1234', 'main', 'user-42', 'row-3-edit', 'edit-user-profile-now', 'open', 'x7f3a9c']) expect(vocabularyName(v)).toBeNull();
    // Every word the bridge takes reaches a concept of the targeting vocabulary.
    for (const w of ACTION_WORDS) expect(`${w}: ${conceptsOfName(w).length > 0}`).toBe(`${w}: true`);
  });

  it('utility classes say nothing (Tailwind, Bootstrap 5); icon words stay', () => {
    for (const t of ['rounded-md', 'inline-flex', 'items-center', 'justify-center', '-m-2.5', 'shrink-0', 'ring-1', 'rotate-45', 'me-2']) expect(iconWord(t)).toBeNull();
    for (const [t, w] of [['rotate-left', 'rotate left'], ['arrow-left', 'arrow left'], ['fa-star', 'star']]) expect(iconWord(t)).toBe(w);
  });
});

describe('snapshot: the glyph an inline SVG draws, in four styles; unread pictures stay nameless', () => {
  it('Tailwind with outline paths (Heroicons style)', async () => {
    const r = await names('glyphs-tailwind.html');
    expect(r.named).toEqual(['☰/shape', '🔍/shape', '×/shape', '→/shape', '★/shape', '→/shape', '⋮/shape', '⋮/shape', '‹/shape', '›/shape', '+/shape', '✓/shape', '×/shape', '×/shape']);
    // The pencil and both bins: no name at all (no shape guessed, no utility class read as one).
    expect(r.nameless).toBe(3);
    expect(r.yaml).toMatch(/- button "×" \[inferred=shape\] \[ref=e\d+\]/);
  });

  it('Feather/Lucide lines, polylines, circles and polygons', async () => {
    const r = await names('glyphs-feather.html');
    expect(r.named).toEqual(['☰/shape', '🔍/shape', '‹/shape', '›/shape', '★/shape', '+/shape', '−/shape', '⋯/shape', '✓/shape', '⋯/shape', '×/shape', '↑/shape']);
    expect(r.nameless).toBe(2); // the bell and the cog
  });

  it('Bootstrap filled paths (outlines of round-capped bars)', async () => {
    const r = await names('glyphs-bootstrap.html');
    expect(r.named).toEqual(['☰/shape', '×/shape', '⋮/shape', '✓/shape', '⋮/shape', '›/shape', '→/shape', '+/shape', '★/shape']);
    expect(r.nameless).toBe(2); // the info badge and the bin
  });

  it('a hand-drawn toolbar of rects and lines; ids and data-* values', async () => {
    const r = await names('glyphs-toolbar.html');
    expect(r.named).toEqual(['☰/shape', '+/shape', '⋯/shape', '★/shape', '→/shape', 'copy/id', 'edit profile/id', 'delete/data', 'settings/data']);
    // The rotated +, the », the right angle; a generated id, id="main", data-bs-dismiss, and the
    // button inside div#archive.
    expect(r.nameless).toBe(7);
  });
});

describe('REST ladder by the picture', () => {
  it('Tailwind: the × in the banner, the → arrow on a card, the ⋮ menu in a row, pagination, +, magnifier, hamburger, ✓', async () => {
    const r = await pe.rest('glyphs-tailwind.html', [
      { action: 'click', description: 'the × in the banner' },
      { action: 'click', description: 'the → arrow on the Wind Turbine card' },
      { action: 'click', description: "the ⋮ menu in Omar Diaz's row" },
      { action: 'click', description: 'the ‹ previous page arrow' },
      { action: 'click', description: 'the + button' },
      { action: 'click', description: 'the magnifier' },
      { action: 'click', description: 'the hamburger menu' },
      { action: 'click', description: 'the ✓ next to Buy inverter' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.at(-1)?.body)).toEqual([200, 200, 200, 200, 200, 200, 200, 200]);
    expect(r.log).toBe('dismiss:banner;open:wind;menu:omar;page:prev;project:add;search:open;nav:open;done:inverter;');
  });

  it('Feather: the × in a dialog, the ⋯ of a comment, next, star, minus, up arrow', async () => {
    const r = await pe.rest('glyphs-feather.html', [
      { action: 'click', description: 'the × in the Share photo dialog' },
      { action: 'click', description: "the ⋯ in Ben Ode's comment" },
      { action: 'click', description: 'the next arrow' },
      { action: 'click', description: 'the star' },
      { action: 'click', description: 'the minus' },
      { action: 'click', description: 'the up arrow' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.at(-1)?.body)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(r.log).toBe('share:close;more:ben;photo:next;photo:star;zoom:out;top;');
  });

  it('Bootstrap and the hand-drawn toolbar: filled glyphs, ids and data values', async () => {
    const a = await pe.rest('glyphs-bootstrap.html', [
      { action: 'click', description: 'the ×' },
      { action: 'click', description: "the three dots in Tom Berg's item" },
      { action: 'click', description: 'the check mark' },
      { action: 'click', description: 'the › in the Returns policy card' },
      { action: 'click', description: 'the plus' },
      { action: 'click', description: 'the hamburger' },
    ]);
    expect(a.answers.map((x) => x.status), JSON.stringify(a.answers.at(-1)?.body)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(a.log).toBe('alert:close;opts:4412;ok:4411;policy:next;policy:add;toggler;');
    const b = await pe.rest('glyphs-toolbar.html', [
      { action: 'click', description: 'the copy button' },
      { action: 'click', description: 'the edit button' },
      { action: 'click', description: 'the delete button' },
      { action: 'click', description: 'the settings icon' },
      { action: 'click', description: 'the three dots' },
      { action: 'click', description: 'the → arrow' },
    ]);
    expect(b.answers.map((x) => x.status), JSON.stringify(b.answers.at(-1)?.body)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(b.log).toBe('ctrl:copy;ctrl:edit-profile;ctrl:del;ctrl:cfg;tool:c;tool:h;');
  });

  it('must fail: two alike pictures in one scope, and pictures that are not read', async () => {
    const refuse = async (page: string, description: string, code: string | RegExp) => {
      const r = await pe.rest(page, [{ action: 'click', description }]);
      const got = `${description}: ${r.answers[0].status === 200 ? 'clicked' : r.answers[0].body.error.code}`;
      if (typeof code === 'string') expect(got).toBe(`${description}: ${code}`);
      else expect(got).toMatch(code);
      expect(r.log).toBe('');
    };
    // Two × in the one box that says "Filters": no scope picks one (the resolver answers none or ambiguous).
    await refuse('glyphs-tailwind.html', 'the × in the Filters', /: (?:ambiguous_target|target_not_found)$/);
    await refuse('glyphs-tailwind.html', 'the → arrow', 'ambiguous_target');
    await refuse('glyphs-bootstrap.html', 'the three dots', 'ambiguous_target');
    await refuse('glyphs-tailwind.html', 'the pencil', 'target_not_found');
    await refuse('glyphs-feather.html', 'the bell', 'target_not_found');
    await refuse('glyphs-bootstrap.html', 'the bin', 'target_not_found');
    await refuse('glyphs-toolbar.html', 'the ×', 'target_not_found');
    await refuse('glyphs-toolbar.html', 'the archive button', 'target_not_found');
  });
});

describe('pictures in data: URLs (image buttons of one-file pages)', () => {
  it('reads the glyph of an <input type="image"> or <img> whose src is a data: SVG; the rest stay nameless', async () => {
    const r = await names('glyphs-data-images.html');
    // Three red × (percent-encoded and base64), the green + (filled rects), a white × on a red
    // tile, the word set as text on a tile, the → arrow.
    expect(r.named.filter((n) => !n.endsWith('/column'))).toEqual(['×/shape', '×/shape', '×/shape', '+/shape', '×/shape', 'PDF/svg-title', '→/shape']);
    // The three pencils: no name guessed (the printer keeps the browser's own "Submit").
    expect(r.yaml.match(/- img \[ref=e\d+\] \[cursor=pointer\]/g)?.length).toBe(3);
  });

  it('plain English: delete a line by its ×, add by the green +, the next arrow; must fail: the pencil', async () => {
    const run = await pe.plan('glyphs-data-images.html', ["Delete 'Parking at airport'", 'Click the small red × in the Dinner with client row', 'Click the green +', 'Click the → arrow', 'Submit Claim']);
    expect(failedSteps(run), JSON.stringify(run.steps.map((s) => s.error?.message))).toEqual([]);
    expect(run.log).toBe('delete:r2;delete:r3;add:new;page:next;submit;');
    const tiles = await pe.rest('glyphs-data-images.html', [{ action: 'click', description: 'the × by the Approver' }, { action: 'click', description: 'the PDF icon by Attachments' }]);
    expect(tiles.log).toBe('approver:clear;attach:pdf;');
    const bad = await pe.rest('glyphs-data-images.html', [{ action: 'click', description: 'the pencil in the Train to Leeds row' }]);
    expect(bad.answers[0].body.error.code).toBe('target_not_found');
    expect(bad.log).toBe('');
  });
});
