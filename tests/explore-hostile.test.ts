import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { allRefsOf, refOf, startTestService, type TestService } from './helpers/service.js';

// The isolation proof: a page that overwrites Array.prototype.map, JSON.stringify,
// Element.prototype.getAttribute, document.querySelectorAll, the Node.prototype
// parentNode getter (and more) still gets correct answers from every bridge tool,
// because the bridge runs in a CDP isolated world the page's scripts cannot touch.

let svc: TestService;
let fx: FixtureServer;
let id: string;
let snap: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  id = await svc.api.createSession();
  expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/hostile.html` })).status).toBe(200);
  snap = (await svc.api.snapshot(id, 'maxTokens=100000')).body.snapshot;
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const get = (p: string) => svc.api.get(`/v1/sessions/${id}/roles/default${p}`);

describe('hostile page', () => {
  it('the page really is hostile in its own world', async () => {
    // Code in the page's own world sees the patched built-ins (the bridge's answers
    // below come from its isolated world).
    const live = await svc.service.sessions.use('local', id);
    const page = live.role('default').page().page;
    const seen = await page.evaluate(() => [
      [1, 2].map((x) => x * 2),
      JSON.stringify({ a: 1 }),
      document.querySelector('h1')?.getAttribute('id') ?? 'no element',
      document.querySelectorAll('button').length,
    ]);
    expect(seen).toEqual([['hijacked'], '"hijacked"', 'no element', 0]);
    expect(snap).toContain('heading "MacBook Pro"');
  });

  it('explore: container, pattern and anchors are correct', async () => {
    const ref = allRefsOf(snap, 'button', 'Add to Cart')[1];
    const c = await get(`/explore/container?ref=${ref}`);
    expect(c.status).toBe(200);
    expect(c.body.ancestors[0]).toMatchObject({ tagName: 'div', attributes: { 'data-testid': 'product-card', class: 'card' }, childElements: 3 });
    expect(c.body.ancestors[1].attributes['data-testid']).toBe('product-grid');
    expect(c.body.ancestors.map((a: any) => a.tagName)).toEqual(['div', 'div', 'main', 'body']);
    const p = await get(`/explore/pattern?ref=${ref}&level=2`);
    expect(p.status).toBe(200);
    expect(p.body.targetSiblingIndex).toBe(1);
    expect(p.body.siblings.map((s: any) => s.containsText[0])).toEqual(['iPhone 15 Pro', 'MacBook Pro', 'AirPods']);
    const a = await get(`/explore/anchors?ref=${ref}&level=1`);
    expect(a.body.descendants.map((d: any) => d.fullText ?? d.directText)).toEqual(['MacBook Pro', '$1,999', 'Add to Cart']);
  });

  it('inspect: query, attributes, test ids, visibility, dom', async () => {
    const q = await get(`/inspect/query?selector=${encodeURIComponent("testid:product-card")}`);
    expect(q.body.matches).toBe(3);
    expect(q.body.elements.map((e: any) => e.text)).toEqual(['iPhone 15 Pro$999Add to Cart', 'MacBook Pro$1,999Add to Cart', 'AirPods$199Add to Cart']);
    expect(q.body.elements.every((e: any) => e.visible && e.box.width > 0)).toBe(true);
    const attrs = await get(`/inspect/attributes?selector=${encodeURIComponent('data-cy:user')}`);
    expect(attrs.body).toMatchObject({ all: { name: 'user' }, data: { 'data-cy': 'user' } });
    const ids = await get('/inspect/test-ids');
    expect(ids.body.duplicates).toEqual([{ attribute: 'data-testid', value: 'product-card', count: 3 }]);
    const vis = await get(`/inspect/visibility?ref=${refOf(snap, 'button', 'Go')}`);
    expect(vis.body).toMatchObject({ visible: true, display: 'inline-block', visibility: 'visible', opacity: 1 });
    const dom = await get('/dom');
    expect(dom.body.dom).toContain('[SHADOW-ROOT host="div#host"]');
    expect(dom.body.dom).toContain('↳ locator="input[data-cy=\\"user\\"]"');
    expect(dom.body.dom).toContain('h3 "MacBook Pro"');
  });

  it('locators: verified container-scoped code and a working ref afterwards', async () => {
    const ref = allRefsOf(snap, 'button', 'Add to Cart')[1];
    const l = await get(`/locators?ref=${ref}`);
    expect(l.status).toBe(200);
    expect(l.body.locators[0].code).toBe("page.getByTestId('product-card').filter({ has: page.getByRole('heading', { name: 'MacBook Pro', exact: true }) }).getByRole('button', { name: 'Add to Cart', exact: true })");
    expect(l.body.locators.every((c: any) => c.verified.matches === 1 && c.verified.sameElement)).toBe(true);
    const claim = await get(`/locators?ref=${refOf(snap, 'button', 'Claim')}`);
    expect(claim.body.locators[0].code).toBe("page.getByRole('button', { name: 'Claim', exact: true })");
    const click = await svc.api.action(id, { action: 'click', ref });
    expect(click.status).toBe(200);
  });
});
