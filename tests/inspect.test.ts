import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type TestService } from './helpers/service.js';

// Seed 002's inspection tools end to end: every tool by ref and by selector, on real
// Chromium, with a bad selector as a 400 and nothing matching as a 409.

let svc: TestService;
let fx: FixtureServer;
let id: string;
let snap: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  id = await svc.api.createSession();
  const nav = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/inspect-lab.html` });
  expect(nav.status).toBe(200);
  snap = (await svc.api.snapshot(id, 'maxTokens=100000')).body.snapshot;
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const get = (p: string) => svc.api.get(`/v1/sessions/${id}/roles/default/inspect/${p}`);
const sel = (s: string) => `selector=${encodeURIComponent(s)}`;

describe('inspect', () => {
  it('dom: overview skips wrappers; zooming in by selector shows the panels side by side', async () => {
    const top = await get('dom');
    expect(top.status).toBe(200);
    expect(top.body.element.tag).toBe('body');
    expect(top.body.children.map((c: any) => c.tag)).toEqual(['header', 'main']);
    const main = await get(`dom?${sel('testid:content')}`);
    expect(main.status).toBe(200);
    const first = main.body.children[0];
    // .outer and .inner are wrappers: the panels row is reached through them.
    expect(first).toMatchObject({ tag: 'div', attributes: { 'data-testid': 'panels' }, depth: 3 });
    expect(main.body.skippedWrappers).toBeGreaterThanOrEqual(2);
    const panels = await get(`dom?${sel('testid:panels')}`);
    expect(panels.body.children.map((c: any) => c.attributes['aria-label'])).toEqual(['Left panel', 'Right panel']);
    expect(panels.body.layout).toBe('horizontal');
    const text = await get(`dom?${sel('testid:panels')}&format=text`);
    expect(text.body.text).toContain('[1] <section[data-testid="panel"][aria-label="Right panel"]> | region');
    expect(text.body.text).toContain('Layout: horizontal');
    expect(text.body.text).toMatch(/gap from \[0\]: →1\dpx/);
  });

  it('test-ids: grouped by attribute, across frames, duplicates flagged', async () => {
    const r = await get('test-ids');
    expect(r.status).toBe(200);
    const values = r.body.byAttribute['data-testid'].map((g: any) => g.value);
    expect(values).toEqual(expect.arrayContaining(['top-bar', 'content', 'panels', 'panel', 'profile-form', 'far-button', 'dup']));
    expect(r.body.byAttribute['data-cy']).toEqual([expect.objectContaining({ value: 'name-input', count: 1 })]);
    expect(r.body.byAttribute['data-test']).toEqual([expect.objectContaining({ value: 'save', tag: 'button' })]);
    expect(r.body.duplicates).toEqual(expect.arrayContaining([{ attribute: 'data-testid', value: 'panel', count: 2 }, { attribute: 'data-testid', value: 'dup', count: 2 }]));
    const text = await get('test-ids?format=text');
    expect(text.body.text).toContain('Duplicates:');
  });

  it('query: matches with visibility reasons, bounded by limit', async () => {
    const r = await get(`query?${sel('p')}&limit=3`);
    expect(r.status).toBe(200);
    expect(r.body.matches).toBe(4);
    expect(r.body.elements).toHaveLength(3);
    expect(r.body.omitted.elements).toBe(1);
    expect(r.body.elements[0]).toMatchObject({ tag: 'p', visible: false, hiddenReasons: ['display:none'] });
    expect(r.body.elements[1]).toMatchObject({ visible: false, hiddenReasons: ['visibility:hidden'] });
    expect(r.body.elements[2].hiddenReasons ?? []).not.toContain('display:none');
    const text = await get(`query?${sel('text=Covered button')}&format=text`);
    expect(text.body.text).toContain('Found 1 element matching "text=Covered button"');
    const none = await get(`query?${sel('#does-not-exist')}`);
    expect(none.status).toBe(200);
    expect(none.body.matches).toBe(0);
  });

  it('bad selectors are 400 invalid_selector; ref and selector together are 400; no match is 409', async () => {
    for (const bad of ['div[[', 'nosuchengine=foo', '>>', 'xpath=//[', 'role=button[name=', 'a:has(']) {
      const r = await get(`query?${sel(bad)}`);
      expect(r.status, bad).toBe(400);
      expect(r.body.error.code, bad).toBe('invalid_selector');
    }
    const v = await get(`visibility?${sel('div[[')}`);
    expect(v.body.error.code).toBe('invalid_selector');
    const both = await get(`state?ref=e1&${sel('#name')}`);
    expect(both.status).toBe(400);
    const none = await get(`state?${sel('#nope')}`);
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('target_not_found');
    const unknownRef = await get('state?ref=e424242');
    expect(unknownRef.body.error.code).toBe('ref_not_found');
  });

  it('visibility: clipped, covered, needs scroll, hidden', async () => {
    const clipped = await get(`visibility?${sel('#clipped')}`);
    expect(clipped.body).toMatchObject({ visible: true, clipped: true });
    expect(clipped.body.clippedBy).toContain('div#clip');
    expect(clipped.body.visibleRatioInClip).toBeLessThan(0.5);
    const covered = await get(`visibility?${sel('#under')}`);
    expect(covered.body).toMatchObject({ visible: true, covered: true, coveredBy: 'div#overlay' });
    const far = await get(`visibility?${sel('testid:far-button')}`);
    expect(far.body).toMatchObject({ visible: true, inViewport: false, viewportRatio: 0, needsScroll: true });
    const gone = await get(`visibility?${sel('#gone')}&format=text`);
    expect(gone.body.text).toContain('✗ hidden: display:none');
    const byRef = await get(`visibility?ref=${refOf(snap, 'link', 'Products')}`);
    expect(byRef.body).toMatchObject({ visible: true, inViewport: true, viewportRatio: 1, covered: false, clipped: false, needsScroll: false });
  });

  it('position: box and page coordinates', async () => {
    const r = await get(`position?${sel('testid:far-button')}`);
    expect(r.body.y).toBeGreaterThan(2000);
    expect(r.body.page.y).toBe(r.body.y + r.body.scroll.y);
    expect(r.body.width).toBeGreaterThan(0);
    const text = await get(`position?${sel('testid:far-button')}&format=text`);
    expect(text.body.text).toMatch(/@ \(\d+,\d+\) \d+x\d+px, ✗ not in viewport/);
  });

  it('state: enabled, editable, checked, required, aria, value (passwords masked)', async () => {
    expect((await get(`state?${sel('#name')}`)).body).toMatchObject({ enabled: true, editable: true, required: true, value: 'Ada', type: 'text' });
    expect((await get(`state?${sel('#email')}`)).body).toMatchObject({ editable: false, readOnly: true });
    expect((await get(`state?${sel('#news')}`)).body).toMatchObject({ checked: true });
    expect((await get(`state?${sel('data-test:save')}`)).body).toMatchObject({ enabled: false, disabled: true });
    const toggle = await get(`state?ref=${refOf(snap, 'button', 'Toggle')}`);
    expect(toggle.body).toMatchObject({ enabled: false, ariaDisabled: true, ariaPressed: 'false' });
    expect((await get(`state?${sel('#pw')}`)).body.value).toBe('••••');
    await svc.api.action(id, { action: 'click', ref: refOf(snap, 'textbox', 'Name') });
    const focused = await get(`state?${sel('#name')}&format=text`);
    expect(focused.body.text).toContain('✓ enabled, ✓ editable, ✓ focused');
  });

  it('attributes: grouped all / data / aria, with a filter', async () => {
    const r = await get(`attributes?${sel('#email')}`);
    expect(r.body.all).toMatchObject({ id: 'email', type: 'email', readonly: '', value: 'ada@example.com' });
    expect(r.body.aria).toEqual({ 'aria-describedby': 'email-help' });
    const d = await get(`attributes?${sel('data-cy:name-input')}&filter=data-cy,name`);
    expect(d.body).toMatchObject({ all: { name: 'name' }, data: { 'data-cy': 'name-input' }, count: 2 });
  });

  it('frames: the iframe with its selector, name, src, size; text of an element', async () => {
    const f = await get('frames');
    expect(f.status).toBe(200);
    expect(f.body.count).toBe(1);
    expect(f.body.frames[0]).toMatchObject({ name: 'kid-frame', src: '/frame-child.html', frameSelector: 'iframe#kid', visible: true, depth: 1 });
    expect(f.body.frames[0].box).toMatchObject({ width: 404, height: 154 });
    const t = await get(`text?${sel('testid:profile-form')}`);
    expect(t.body.text).toContain('Newsletter');
    expect(t.body.source).toBe('innerText');
    const short = await get(`text?${sel('testid:profile-form')}&maxChars=10`);
    expect(short.body).toMatchObject({ truncated: true });
    expect(short.body.text).toHaveLength(10);
  });

  it('inspects elements inside an iframe by frame ref', async () => {
    const s = (await svc.api.snapshot(id, 'maxTokens=100000')).body.snapshot;
    const frameButton = refOf(s, 'button', 'Frame button');
    expect(frameButton).toMatch(/^f\d+e\d+$/);
    const st = await get(`state?ref=${frameButton}`);
    expect(st.status).toBe(200);
    expect(st.body).toMatchObject({ tag: 'button', enabled: true, frame: { frameSelector: 'iframe#kid' } });
  });
});
