import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type IconPrim, canonicalIcon, iconPrint } from '../packages/page/src/bridge/injected/icon-print.js';
import { ICON_PRINTS } from '../packages/page/src/bridge/injected/icon-prints.generated.js';
import { usePlainEnglish } from './helpers/plain-english.js';

// Icon-only controls drawn with an <svg> pasted from a common icon set (no title, aria or class
// word) are named by the exact fingerprint of their geometry ([inferred=icon]): "the trash icon
// in the row of Hiring plan", "the pencil icon", "the copy button" reach them through
// iconography's concepts. tests/fixtures/plain-english/icons-pasted.html pastes Lucide, Tabler,
// Bootstrap Icons, Material (re-formatted), Heroicons, MDI, Font Awesome and Feather icons, and
// three hand-drawn pictures (one is Lucide's pencil with one point moved) that must stay nameless.
// Before the fingerprint table, every one of these pictures was nameless.

const pe = usePlainEnglish('iconprints');

type J = { role?: string; name?: string; inferredName?: string; inferredFrom?: string; children?: J[] };
const walk = (ns: J[], out: J[] = []): J[] => { for (const n of ns) { if (n && typeof n === 'object') { out.push(n); walk(n.children ?? [], out); } } return out; };

/** The primitives of an SVG's text, as the page reads them (a test-side reader: tags and attributes). */
function prims(svg: string): { prims: IconPrim[]; viewBox: string | null } {
  const out: IconPrim[] = [];
  for (const m of svg.matchAll(/<(path|line|polyline|polygon|circle|ellipse|rect)\b([^>]*?)\/?>/g)) {
    const attrs = new Map([...m[2].matchAll(/([\w:-]+)="([^"]*)"/g)].map((a) => [a[1], a[2]] as [string, string]));
    out.push({ tag: m[1], attr: (n) => attrs.get(n) ?? null });
  }
  return { prims: out, viewBox: /viewBox="([^"]*)"/.exec(svg)?.[1] ?? null };
}
const print = (svg: string) => { const p = prims(svg); return iconPrint(p.prims, p.viewBox); };
const TABLE = new Map(ICON_PRINTS.split(';').flatMap((g) => { const [n, hs] = g.split(':'); return hs.split(',').map((h) => [h, n] as [string, string]); }));

describe('the fingerprint (pure)', () => {
  const lucide = '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor"><path d="M10 11v6" /><path d="M14 11v6" /><path d="M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6" /><path d="M3 6h18" /><path d="M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2" /></svg>';

  it('survives re-formatting: spacing, number spelling, absolute/relative, H/V, attribute order, <g>, styling, merged paths', () => {
    const same = [
      '<svg class="x" viewBox="0 0 24 24"><g stroke-width="1.5"><path d="M 10,11 V 17"/><path style="stroke:red" d="M14 11l0 6"/><path d="M19 6V20A2 2 0 0 1 17 22H7a2 2 0 01-2-2V6"/><path d="M3 6H21"/><path d="M8.0 6.00V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2"/></g></svg>',
      '<svg viewBox="0 0 24 24"><path d="M10 11v6M14 11v6M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6M3 6h18M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2"/></svg>',
      '<svg viewBox="0 0 24 24"><line x1="10" y1="11" x2="10" y2="17"/><polyline points="14,11 14,17"/><path d="m19 6 0 14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6"/><path d="M3 6h9 9" /><path d="M8 6V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2"/></svg>',
    ];
    const want = print(lucide);
    expect(want).toBeTruthy();
    for (const s of same.slice(0, 2)) expect(print(s)).toBe(want);
    // "h9 9" draws through the midpoint: another path (a point more), so another print.
    expect(print(same[2])).not.toBe(want);
    expect(print(same[2].replace('M3 6h9 9', 'M3 6h18'))).toBe(want);
    // S and T are their C and Q; a line back to the start before Z is Z; Tabler's invisible guide is nothing.
    expect(canonicalIcon(prims('<svg viewBox="0 0 24 24"><path d="M2 2C4 0 6 0 8 2S12 4 14 2"/></svg>').prims, '0 0 24 24'))
      .toBe(canonicalIcon(prims('<svg><path d="M2 2C4 0 6 0 8 2C10 4 12 4 14 2"/></svg>').prims, '0 0 24 24'));
    expect(print('<svg viewBox="0 0 24 24"><path d="M4 4L20 4L20 20L4 4Z"/></svg>')).toBe(print('<svg viewBox="0 0 24 24"><polygon points="4 4 20 4 20 20"/></svg>'));
    expect(print('<svg viewBox="0 0 24 24"><path stroke="none" d="M0 0h24v24H0z" fill="none"/><path d="M4 7l16 0"/></svg>')).toBe(print('<svg viewBox="0 0 24 24"><path d="M4 7h16"/></svg>'));
  });

  it('tells apart what differs: a point moved, a different picture; refuses what is too big or unreadable', () => {
    expect(print(lucide.replace('M3 6h18', 'M3 7h18'))).not.toBe(print(lucide));
    expect(print('<svg viewBox="0 0 24 24"><path d="M0 0L5 5Z 3 3"/></svg>')).toBeNull();
    expect(print(`<svg viewBox="0 0 24 24">${'<path d="M1 1h2"/>'.repeat(20)}</svg>`)).toBeNull();
  });

  it('the generated table: a few thousand prints of known names, small; Lucide\'s trash is "trash"', () => {
    expect(TABLE.size).toBeGreaterThan(1000);
    expect(TABLE.size).toBeLessThan(6000);
    expect(ICON_PRINTS.length).toBeLessThan(60_000);
    expect(TABLE.get(print(lucide)!)).toBe('trash');
    const head = readFileSync(new URL('../packages/page/src/bridge/injected/icon-prints.generated.ts', import.meta.url), 'utf8').slice(0, 1500);
    for (const pkg of ['lucide-static@', '@tabler/icons@', 'bootstrap-icons@', '@mdi/svg@', '(MIT)', '(ISC)', '(Apache-2.0)']) expect(head).toContain(pkg);
  });
});

describe('snapshot: pasted icon-set SVGs get their set\'s name; hand-drawn ones stay nameless', () => {
  it('names every pasted icon [inferred=icon], none of the sketches', async () => {
    const { svc, fx } = pe;
    const id = await svc.api.createSession();
    try {
      expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/plain-english/icons-pasted.html` })).status).toBe(200);
      const json = await svc.api.snapshot(id, 'format=json&maxTokens=40000');
      const buttons = walk(json.body.snapshot as J[]).filter((n) => n.role === 'button');
      expect(buttons.map((n) => `${n.inferredName ?? '-'}/${n.inferredFrom ?? '-'}`)).toEqual([
        'cog 6 tooth/icon', 'bell/icon', 'download/icon', 'archive/icon',
        'pencil/icon', 'copy/icon', 'trash/icon',
        'pencil/icon', 'copy/icon', 'trash/icon',
        'pencil/icon', 'copy/icon', 'trash/icon',
        'edit/icon', 'content copy/icon', 'delete/icon',
        '-/-', '-/-', '-/-',
      ]);
      const yaml = (await svc.api.snapshot(id, 'format=yaml&maxTokens=40000')).body.snapshot as string;
      expect(yaml).toMatch(/- button "trash" \[inferred=icon\] \[ref=e\d+\]/);
    } finally {
      await svc.api.delete(`/v1/sessions/${id}`);
    }
  });
});

describe('REST ladder and plans by the icon', () => {
  it('REST: the trash icon in the row of Hiring plan, the pencil in the Vendor list row, the copy button in Offsite agenda\'s row, the gear, the bell', async () => {
    const r = await pe.rest('icons-pasted.html', [
      { action: 'click', description: 'the trash icon in the row of Hiring plan' },
      { action: 'click', description: 'the pencil icon in the Vendor list row' },
      { action: 'click', description: "the copy button in Offsite agenda's row" },
      { action: 'click', description: 'the bin in the Q3 budget row' },
      { action: 'click', description: 'the gear' },
      { action: 'click', description: 'the bell' },
      { action: 'click', description: 'the download button' },
    ]);
    expect(r.answers.map((a) => a.status), JSON.stringify(r.answers.at(-1)?.body)).toEqual([200, 200, 200, 200, 200, 200, 200]);
    expect(r.log).toBe('delete:hiring;edit:vendor;copy:offsite;delete:q3;settings;notifications;download;');
  });

  it('plans: "Delete Offsite agenda" by its bin, "Duplicate the Q3 budget"', async () => {
    const a = await pe.plan('icons-pasted.html', ['Click the trash icon in the row of Offsite agenda', 'Click the copy button in the Q3 budget row', 'Click the archive icon']);
    expect(a.steps.filter((s) => s.status === 'failed').map((s) => s.error?.message)).toEqual([]);
    expect(a.log).toBe('delete:offsite;copy:q3;archive;');
  });

  it('must fail: an unknown picture is not guessed; an icon not in the row is refused; several pencils are not picked from', async () => {
    const { svc, fx } = pe;
    const id = await svc.api.createSession();
    try {
      expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/plain-english/icons-pasted.html` })).status).toBe(200);
      const why: Record<string, RegExp> = {
        'the lightning bolt': /target_not_found/,
        'the heart icon': /target_not_found/,
        'the bell in the row of Q3 budget': /target_not_found/,
        'the pencil icon': /ambiguous_target/,
      };
      for (const [description, reason] of Object.entries(why)) {
        const x = await svc.api.action(id, { action: 'click', description });
        expect(`${description}: ${x.status}`).not.toBe(`${description}: 200`);
        expect(JSON.stringify(x.body)).toMatch(reason);
      }
      const state = (await svc.service.sessions.use('local', id)).role('default').page();
      expect(await state.page.evaluate(() => document.getElementById('log')?.textContent)).toBe('');
    } finally {
      await svc.api.delete(`/v1/sessions/${id}`);
    }
  });
});
