import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { allRefsOf, refOf, startTestService, type TestService } from './helpers/service.js';

// Seed 000's exploration primitives end to end through HTTP: container → pattern →
// anchors around a ref, on real Chromium pages.

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

const base = () => `/v1/sessions/${id}/roles/default`;
const get = (p: string) => svc.api.get(`${base()}${p}`);

async function open(page: string): Promise<string> {
  const nav = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/${page}` });
  expect(nav.status).toBe(200);
  const snap = await svc.api.snapshot(id, 'maxTokens=100000');
  expect(snap.status).toBe(200);
  return snap.body.snapshot as string;
}

describe('explore on the product grid (test ids)', () => {
  it('container: ancestors with stable attributes, child counts and the refs inside', async () => {
    const snap = await open('products.html');
    const buttons = allRefsOf(snap, 'button', 'Add to Cart');
    expect(buttons).toHaveLength(12);
    const heading = refOf(snap, 'heading', 'Switch OLED');
    const c = await get(`/explore/container?ref=${buttons[8]}`);
    expect(c.status).toBe(200);
    expect(c.body.target).toMatchObject({ tagName: 'button', text: 'Add to Cart' });
    const [l1, l2] = c.body.ancestors;
    expect(l1).toMatchObject({ level: 1, tagName: 'div', attributes: { 'data-testid': 'product-card', class: 'card' }, childElements: 3 });
    // The card holds its heading and the button itself.
    expect(l1.containsRefs.refs).toEqual(expect.arrayContaining([heading, buttons[8]]));
    expect(l1.containsRefs.complete).toBe(true);
    expect(l2).toMatchObject({ level: 2, attributes: { 'data-testid': 'product-grid', id: 'grid' }, childElements: 12 });
    expect(l2.containsRefs.count).toBe(36); // 12 × (card, heading, button)
    const last = c.body.ancestors.at(-1);
    expect(last.tagName).toBe('body');
    expect(c.body.tokens).toBeGreaterThan(0);
    expect(c.body.tokens).toBeLessThanOrEqual(1500);
  });

  it('pattern: the repeated cards with text and outline, and which one holds the target', async () => {
    const snap = await open('products.html');
    const buttons = allRefsOf(snap, 'button', 'Add to Cart');
    const p = await get(`/explore/pattern?ref=${buttons[8]}&level=2`);
    expect(p.status).toBe(200);
    expect(p.body.containerAt.attributes['data-testid']).toBe('product-grid');
    expect(p.body.totalSiblings).toBe(12);
    expect(p.body.targetSiblingIndex).toBe(8);
    const target = p.body.siblings.find((s: any) => s.index === 8);
    expect(target.containsTarget).toBe(true);
    expect(target.containsText).toEqual(['Switch OLED', '$900', 'Add to Cart']);
    expect(target.outline).toEqual([
      { tag: 'h3', role: 'heading', text: 'Switch OLED' },
      { tag: 'button', text: 'Add to Cart' },
    ]);
    expect(p.body.siblings.length + p.body.omitted.siblings).toBe(12);

    const text = await get(`/explore/pattern?ref=${buttons[8]}&level=2&format=text`);
    expect(text.body.format).toBe('text');
    expect(text.body.text).toContain('[8]* div [data-testid="product-card" class="card"]');
    expect(text.body.tokens).toBeLessThan(p.body.tokens);
  });

  it('anchors: headings, text and controls of the card with depth and index', async () => {
    const snap = await open('products.html');
    const buttons = allRefsOf(snap, 'button', 'Add to Cart');
    const a = await get(`/explore/anchors?ref=${buttons[0]}&level=1`);
    expect(a.status).toBe(200);
    expect(a.body.ancestorAt).toMatchObject({ level: 1, tagName: 'div', attributes: { 'data-testid': 'product-card' } });
    expect(a.body.descendants).toEqual([
      expect.objectContaining({ depth: 1, index: 0, tagName: 'h3', fullText: 'iPhone 15 Pro', kind: ['heading'] }),
      expect.objectContaining({ depth: 1, index: 1, tagName: 'span', directText: '$100', attributes: { class: 'price' } }),
      expect.objectContaining({ depth: 1, index: 2, tagName: 'button', fullText: 'Add to Cart', isTarget: true }),
    ]);
    expect(a.body.omitted).toEqual({ anchors: 0, beyondDepth: 0 });
  });
});

describe('errors', () => {
  it('unknown ref is 409 ref_not_found at once; level past body is 400 level_out_of_range', async () => {
    const snap = await open('products.html');
    const button = allRefsOf(snap, 'button', 'Add to Cart')[0];
    const t0 = Date.now();
    const missing = await get('/explore/container?ref=e99999');
    expect(missing.status).toBe(409);
    expect(missing.body.error.code).toBe('ref_not_found');
    expect(Date.now() - t0).toBeLessThan(3000);
    const far = await get(`/explore/pattern?ref=${button}&level=5`);
    expect(far.status).toBe(400);
    expect(far.body.error).toMatchObject({ code: 'level_out_of_range', details: { level: 5, maxLevel: 4 } });
    const farAnchors = await get(`/explore/anchors?ref=${button}&level=50`);
    expect(farAnchors.body.error.code).toBe('level_out_of_range');
    const zero = await get(`/explore/pattern?ref=${button}&level=0`);
    expect(zero.status).toBe(400);
    expect(zero.body.error.code).toBe('invalid_request');
    const noRef = await get('/explore/container');
    expect(noRef.status).toBe(400);
  });
});

describe('refs survive exploration', () => {
  it('a ref held before explore calls still clicks afterwards (no ariaSnapshot in exploration)', async () => {
    const snap = await open('products.html');
    const button = allRefsOf(snap, 'button', 'Add to Cart')[3];
    for (const p of [`/explore/container?ref=${button}`, `/explore/pattern?ref=${button}&level=2`, `/explore/anchors?ref=${button}&level=2`]) {
      expect((await get(p)).status).toBe(200);
    }
    const click = await svc.api.action(id, { action: 'click', ref: button, snapshot: 'full' });
    expect(click.status).toBe(200);
    expect(JSON.stringify(click.body.snapshot)).toContain('last: MacBook Air');
  });

  it('the bridge follows navigations (a new document gets a new world)', async () => {
    let snap = await open('products.html');
    let button = allRefsOf(snap, 'button', 'Add to Cart')[0];
    expect((await get(`/explore/container?ref=${button}`)).status).toBe(200);
    snap = await open('login.html');
    snap = await open('products.html');
    button = allRefsOf(snap, 'button', 'Add to Cart')[1];
    const c = await get(`/explore/pattern?ref=${button}&level=2`);
    expect(c.status).toBe(200);
    expect(c.body.targetSiblingIndex).toBe(1);
  });
});
