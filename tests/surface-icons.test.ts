import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTab, startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { type Expected, refsIn, snapshots } from './helpers/surface.js';

// Issue 24 §1: every element a person can click has a ref and a name, in every snapshot format.
// Pages in tests/fixtures/weak/ in several styles (a jQuery-era webmail table with CSS-picture
// icons and one delegated listener, icon-font / Bootstrap / Glyphicon / SVG-sprite toolbars, a
// feed whose icons are CSS backgrounds and `content:` glyphs, clickable words in prose, web
// components with open shadow roots). Each page records the clicks its own handlers see in
// window.__clicks. Today's snapshot shows these as bare `generic [cursor=pointer]` lines or
// not at all (no ref), so every case here fails without the surface pass.

let svc: TestService;
let fixtures: FixtureServer;

beforeAll(async () => {
  [svc, fixtures] = await Promise.all([startTestService(), startFixtureServer()]);
});

afterAll(async () => {
  await svc?.stop();
  await fixtures?.close();
});

interface Case {
  page: string;
  /** Each element expected, and what the page records when it is clicked (first match). */
  expect: (Expected & { click?: string })[];
}

const CASES: Case[] = [
  {
    page: 'weak/webmail.html',
    expect: [
      { role: 'generic', name: 'star', from: 'class', click: 'star:1' },
      { role: 'generic', name: 'trash', from: 'class', click: 'trash:1' },
      { role: 'img', name: 'flag', from: 'class', click: 'flag:1' },
    ],
  },
  {
    page: 'weak/toolbar.html',
    expect: [
      { role: 'generic', name: 'star', from: 'class', click: 'fa-star' },
      { role: 'generic', name: 'trash', from: 'class', click: 'fa-trash' },
      { role: 'button', name: 'close', from: 'class', click: 'bi-x-lg' },
      { role: 'generic', name: 'remove', from: 'class', click: 'glyphicon-remove' },
      { role: 'generic', name: 'heart', from: 'class', click: 'icon-heart' },
      { role: 'img', name: 'trash', from: 'svg-title', click: 'sprite-trash' },
    ],
  },
  {
    page: 'weak/css-icons.html',
    expect: [
      { role: 'generic', name: 'like', from: 'class', click: 'like:a' },
      { role: 'generic', name: 'share', from: 'class', click: 'share:a' },
      { role: 'generic', name: 'bookmark', from: 'class', click: 'bookmark:a' },
    ],
  },
  {
    // No pointer, no onclick: one listener on the list (found by Chromium's listener check).
    page: 'weak/delegated.html',
    expect: [{ role: 'generic', name: 'remove', from: 'class', marks: ['[clickable]'], click: 'remove:1' }],
  },
  {
    // Icon components that name the glyph only in an attribute (Angular Material, Ionic, Polymer).
    page: 'weak/icon-components.html',
    expect: [
      { role: 'button', name: 'more vert', from: 'ligature', click: 'menu:priya' },
      { role: 'generic', name: 'trash', from: 'ligature', click: 'delete:report' },
      { role: 'generic', name: 'settings', from: 'ligature', click: 'settings' },
    ],
  },
  {
    page: 'weak/component.html',
    expect: [
      // Five alike stars side by side are told apart by position.
      { role: 'generic', name: 'star 1', from: 'class', click: 'star:1' },
      { role: 'generic', name: 'star 4', from: 'class', click: 'star:4' },
      { role: 'button', name: 'trash', from: 'svg-title', click: 'button:trash' },
    ],
  },
];

describe('clickable icons get a ref and a name in yaml, text and json', () => {
  it.each(CASES)('$page', async ({ page, expect: wanted }) => {
    const { id, state } = await openTab(svc, `${fixtures.url}/${page}`);
    const first = await snapshots(svc, id);
    const found = wanted.map((w) => ({ w, refs: refsIn(first, w) }));
    // Refs are stable: a second snapshot of the unchanged page shows the same ones.
    const second = await snapshots(svc, id);
    expect(second.yaml).toBe(first.yaml);
    // Every such ref resolves, and clicking it runs the page's own handler for that icon.
    for (const { w, refs } of found) {
      for (const ref of refs) expect(await state.page.locator(`aria-ref=${ref}`).count(), ref).toBe(1);
      if (!w.click) continue;
      await state.page.evaluate(() => { (window as unknown as { __clicks: string[] }).__clicks = []; });
      const res = await svc.api.action(id, { action: 'click', ref: refs[0] });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await state.page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)).toEqual([w.click]);
    }
    await svc.api.delete(`/v1/sessions/${id}`);
  });

  it('a glyph drawn with `content:` keeps its glyph and gains the name; the pointer mark stays in text', async () => {
    const { id } = await openTab(svc, `${fixtures.url}/weak/css-icons.html`);
    const f = await snapshots(svc, id);
    expect(f.yaml).toMatch(/- generic "share" \[inferred=class\] \[ref=(?:f\d+)?e\d+\] \[cursor=pointer\]: "↗"/);
    expect(f.text).toMatch(/^ *generic "like" \[inferred=class\] \[(?:f\d+)?e\d+\] \[cursor=pointer\]$/m);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});

describe('clickable words in prose get their own ref lines', () => {
  it('splits the paragraph around each clickable word; the refs resolve and clicks reach the handlers', async () => {
    const { id, state } = await openTab(svc, `${fixtures.url}/weak/prose.html`);
    const f = await snapshots(svc, id);
    const felis = /- text: Lorem ipsum dolor sit amet\. To continue click on the link\n\s*- generic \[clickable\] \[ref=((?:f\d+)?e\d+)\]: felis\n\s*- text: and then read on\./.exec(f.yaml);
    const terms = /- text: By signing up you accept the\n\s*- generic \[clickable\] \[ref=((?:f\d+)?e\d+)\] \[cursor=pointer\]: terms\n\s*- text: of this service\./.exec(f.yaml);
    expect(felis, f.yaml).not.toBeNull();
    expect(terms, f.yaml).not.toBeNull();
    // A plain span in prose stays in its paragraph's text.
    expect(f.yaml).toContain('Plain words here are not clickable at all.');
    expect(f.text).toMatch(new RegExp(`generic \\[clickable\\] \\[${felis![1]}\\]: "felis"`));
    expect(f.text).toMatch(new RegExp(`generic \\[clickable\\] \\[${terms![1]}\\] \\[cursor=pointer\\]: "terms"`));
    const json = JSON.stringify(f.json);
    expect(json).toContain(`{"role":"generic","clickable":true,"ref":"${felis![1]}","text":"felis"}`);
    // Same refs on the next snapshot (the word keeps the ref registered for it).
    const again = await snapshots(svc, id);
    expect(again.yaml).toBe(f.yaml);
    for (const [ref, word] of [[felis![1], 'felis'], [terms![1], 'terms']]) {
      expect(await state.page.locator(`aria-ref=${ref}`).textContent()).toBe(word);
      await state.page.evaluate(() => { (window as unknown as { __clicks: string[] }).__clicks = []; });
      const res = await svc.api.action(id, { action: 'click', ref });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(await state.page.evaluate(() => (window as unknown as { __clicks: string[] }).__clicks)).toEqual([word]);
    }
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});
