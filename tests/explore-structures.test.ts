import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { allRefsOf, refOf, startTestService, type TestService } from './helpers/service.js';

// Exploration on other shapes of markup: classless cards (seed 000 §3.7), tables,
// nested lists, open shadow roots, iframes, and a 5,000-element page where every list
// must stay within its budget with omitted counts right for the whole tree.

let svc: TestService;
let fx: FixtureServer;
let id: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  id = await svc.api.createSession();
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const get = (p: string) => svc.api.get(`/v1/sessions/${id}/roles/default${p}`);

async function open(page: string): Promise<string> {
  expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/${page}` })).status).toBe(200);
  return (await svc.api.snapshot(id, 'maxTokens=200000')).body.snapshot;
}

describe('classless markup, tables, nested lists', () => {
  it('classless cards: structure and text are enough (seed 000 §3.7)', async () => {
    const snap = await open('explore-classless.html');
    const ref = allRefsOf(snap, 'button', 'Add to Cart')[1];
    const c = await get(`/explore/container?ref=${ref}`);
    expect(c.body.ancestors.slice(0, 3)).toMatchObject([
      { level: 1, tagName: 'div', attributes: {}, childElements: 3 },
      { level: 2, tagName: 'section', attributes: {}, childElements: 2 },
      { level: 3, tagName: 'body' },
    ]);
    const p = await get(`/explore/pattern?ref=${ref}&level=2`);
    expect(p.body).toMatchObject({ ancestorLevel: 2, containerAt: { tagName: 'section', attributes: {} }, targetSiblingIndex: 1, totalSiblings: 2 });
    expect(p.body.siblings.map((s: any) => s.containsText)).toEqual([
      ['iPhone 15 Pro', '$999', 'Add to Cart'],
      ['MacBook Pro', '$1,999', 'Add to Cart'],
    ]);
    expect(p.body.siblings[1].outline).toEqual([{ tag: 'h3', role: 'heading', text: 'MacBook Pro' }, { tag: 'button', text: 'Add to Cart' }]);
  });

  it('tables: the rows are the repeated pattern, cells the anchors', async () => {
    const snap = await open('explore-classless.html');
    const ref = allRefsOf(snap, 'button', 'Track')[2];
    const c = await get(`/explore/container?ref=${ref}`);
    expect(c.body.ancestors.slice(0, 4).map((a: any) => a.tagName)).toEqual(['td', 'tr', 'tbody', 'table']);
    const p = await get(`/explore/pattern?ref=${ref}&level=3`);
    expect(p.body).toMatchObject({ containerAt: { tagName: 'tbody' }, totalSiblings: 3, targetSiblingIndex: 2 });
    expect(p.body.siblings[2].containsText).toEqual(['#3', 'Pending', 'Track']);
    const a = await get(`/explore/anchors?ref=${ref}&level=2`);
    expect(a.body.descendants.map((d: any) => [d.tagName, d.depth, d.index, d.fullText ?? d.directText])).toEqual([
      ['td', 1, 0, '#3'],
      ['td', 1, 1, 'Pending'],
      ['button', 2, 0, 'Track'],
    ]);
  });

  it('nested lists: the outer item, its label text and the inner items', async () => {
    const snap = await open('explore-classless.html');
    const ref = allRefsOf(snap, 'link', 'Edit')[1]; // Pear
    const c = await get(`/explore/container?ref=${ref}`);
    expect(c.body.ancestors.slice(0, 4).map((a: any) => a.tagName)).toEqual(['li', 'ul', 'li', 'ul']);
    const p = await get(`/explore/pattern?ref=${ref}&level=2`);
    expect(p.body.siblings.map((s: any) => s.containsText[0])).toEqual(['Apple', 'Pear']);
    const outer = await get(`/explore/anchors?ref=${ref}&level=3&format=text`);
    expect(outer.body.text).toContain('anchors in L3 li: 4 found, 4 shown');
    expect(outer.body.text).toContain('d2[1] li(listitem) "Pear" {has-target}');
    const json = await get(`/explore/anchors?ref=${ref}&level=3`);
    expect(json.body.descendants.find((d: any) => d.isTarget)).toMatchObject({ tagName: 'a', fullText: 'Edit', depth: 3 });
  });
});

describe('shadow DOM and iframes', () => {
  it('container crosses open shadow roots and says where', async () => {
    const snap = await open('frames.html');
    const ref = refOf(snap, 'button', 'Nested shadow button');
    const c = await get(`/explore/container?ref=${ref}`);
    expect(c.status).toBe(200);
    const hosts = c.body.ancestors.filter((a: any) => a.shadowHost).map((a: any) => [a.tagName, a.attributes.id]);
    expect(hosts).toEqual([['div', 'inner-host'], ['div', 'host']]);
    const p = await get(`/explore/pattern?ref=${refOf(snap, 'button', 'Shadow button')}&level=2`);
    expect(p.body).toMatchObject({ containerAt: { tagName: 'div', attributes: { id: 'host' } }, inShadowRoot: true, totalSiblings: 2 });
  });

  it('a frame ref explores inside its frame, up to the frame body', async () => {
    const snap = await open('frames.html');
    const ref = refOf(snap, 'button', 'Frame button');
    const c = await get(`/explore/container?ref=${ref}`);
    expect(c.status).toBe(200);
    expect(c.body.target).toMatchObject({ tagName: 'button', text: 'Frame button' });
    expect(c.body.frame.url).toBe(`${fx.url}/frame-child.html`);
    expect(c.body.ancestors.map((a: any) => a.tagName)).toEqual(['body']);
    expect(c.body.ancestors[0].containsRefs.refs).toContain(ref);
    const a = await get(`/explore/anchors?ref=${ref}&level=1`);
    expect(a.body.descendants.map((d: any) => [d.tagName, d.fullText ?? d.directText])).toEqual([
      ['h2', 'Inside the frame'],
      ['label', 'Frame input'],
      ['input', 'Frame input'],
      ['button', 'Frame button'],
      ['p', 'nothing yet'],
    ]);
    expect(a.body.descendants[3].isTarget).toBe(true);
  });
});

describe('cross-origin iframe (out of process in Chromium)', () => {
  it('explore, locators, frames and dom reach into it through its own CDP session', async () => {
    expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/explore-oopif.html` })).status).toBe(200);
    let snap = '';
    for (let i = 0; i < 20 && !snap.includes('Frame button'); i++) {
      snap = (await svc.api.snapshot(id, 'maxTokens=100000')).body.snapshot;
      if (!snap.includes('Frame button')) await new Promise((r) => setTimeout(r, 200));
    }
    const ref = refOf(snap, 'button', 'Frame button');
    const childUrl = `${fx.url.replace('127.0.0.1', 'localhost')}/frame-child.html`;
    const c = await get(`/explore/container?ref=${ref}`);
    expect(c.body).toMatchObject({ target: { tagName: 'button', text: 'Frame button' }, frame: { url: childUrl } });
    const l = await get(`/locators?ref=${ref}`);
    expect(l.body.locators[0].code).toBe("page.frameLocator('iframe#xo').getByRole('button', { name: 'Frame button', exact: true })");
    expect(l.body.locators[0].verified).toEqual({ matches: 1, sameElement: true });
    const f = await get('/inspect/frames');
    expect(f.body.frames).toEqual([expect.objectContaining({ url: childUrl, frameSelector: 'iframe#xo', title: 'Cross-origin child', visible: true })]);
    const d = await get('/dom');
    expect(d.body.dom).toContain('↳ locator="input#fi" frameSelector="iframe#xo"');
  });
});

describe('budgets on a 5,000-element page', () => {
  it('every list stays within maxTokens, with omitted counts for the whole tree', async () => {
    const snap = await open('large.html?n=5000');
    const ref = refOf(snap, 'button', 'Add to cart');
    const c = await get(`/explore/container?ref=${ref}`);
    expect(c.body.tokens).toBeLessThanOrEqual(1500);
    const levels = c.body.ancestors.length;
    expect(c.body.ancestors.at(-1).containsRefs.count).toBeGreaterThan(3000);
    // The level whose container is <main>: a few dozen sections below it.
    const mainLevel = c.body.ancestors.find((a: any) => a.tagName === 'main').level;
    const p = await get(`/explore/pattern?ref=${ref}&level=${mainLevel}`);
    expect(p.status).toBe(200);
    expect(p.body.tokens).toBeLessThanOrEqual(2500);
    expect(p.body.totalSiblings).toBeGreaterThan(20);
    expect(p.body.siblings.length + p.body.omitted.siblings).toBe(p.body.totalSiblings);
    const small = await get(`/explore/pattern?ref=${ref}&level=${mainLevel}&maxTokens=400`);
    expect(small.body.tokens).toBeLessThanOrEqual(400);
    expect(small.body.truncated).toBe(true);
    expect(small.body.siblings.length + small.body.omitted.siblings).toBe(small.body.totalSiblings);
    expect(small.body.siblings.some((s: any) => s.containsTarget)).toBe(true);
    const a = await get(`/explore/anchors?ref=${ref}&level=${levels}`);
    expect(a.body.tokens).toBeLessThanOrEqual(2000);
    expect(a.body.totalAnchors).toBeGreaterThan(1000);
    expect(a.body.descendants.length + a.body.omitted.anchors).toBe(a.body.totalAnchors);
    const text = await get(`/explore/anchors?ref=${ref}&level=${levels}&format=text&maxTokens=300`);
    expect(text.body.tokens).toBeLessThanOrEqual(300);
    expect(text.body.truncated).toBe(true);
    const ids = await get('/inspect/test-ids?maxTokens=200');
    expect(ids.body.tokens).toBeLessThanOrEqual(200);
    const q = await get('/inspect/query?selector=button&limit=200&maxTokens=500');
    expect(q.body.tokens).toBeLessThanOrEqual(500);
    expect(q.body.elements.length + q.body.omitted.elements).toBe(q.body.matches);
  });
});
