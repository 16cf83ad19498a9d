import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { allRefsOf, refOf, startTestService, type TestService } from './helpers/service.js';

// Verified locators through HTTP: container-scoped code for repeated cards (with and
// without test ids), table rows and nested lists, frames and shadow DOM; every
// returned locator is proven on the live page, with Playwright's normalize() beside it.

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

const locators = (ref: string, q = '') => svc.api.get(`/v1/sessions/${id}/roles/default/locators?ref=${ref}${q}`);

async function open(page: string): Promise<string> {
  expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/${page}` })).status).toBe(200);
  return (await svc.api.snapshot(id, 'maxTokens=100000')).body.snapshot;
}

function expectAllVerified(body: any) {
  expect(body.locators.length).toBeGreaterThan(0);
  for (const l of body.locators) expect(l.verified, l.code).toEqual({ matches: 1, sameElement: true });
}

describe('locators', () => {
  it('product card with test ids: getByTestId + exact heading anchor + getByRole, proven; normalize() alongside', async () => {
    const snap = await open('products.html');
    const ref = allRefsOf(snap, 'button', 'Add to Cart')[8];
    const r = await locators(ref);
    expect(r.status).toBe(200);
    expect(r.body.target).toEqual({ tag: 'button', role: 'button', name: 'Add to Cart' });
    expect(r.body.locators[0]).toMatchObject({
      code: "page.getByTestId('product-card').filter({ has: page.getByRole('heading', { name: 'Switch OLED', exact: true }) }).getByRole('button', { name: 'Add to Cart', exact: true })",
      strategy: 'container',
    });
    expect(r.body.locators[0].why.join(' | ')).toContain('getByTestId(\'product-card\') (12 on the page)');
    expect(r.body.locators[0].why.join(' | ')).toContain('its heading is exactly "Switch OLED"');
    expect(r.body.locators[0]).toMatchObject({ nearDuplicate: 'distinct', fragile: false, weaknesses: [] });
    expectAllVerified(r.body);
    expect(r.body.locators.some((l: any) => l.code.includes('.nth('))).toBe(false);
    // The page-wide role locator was tried and refused with the reason.
    expect(r.body.rejected).toContainEqual({ code: "page.getByRole('button', { name: 'Add to Cart', exact: true })", reason: 'matches 12 elements' });
    expect(r.body.baseline).toMatchObject({ source: 'Playwright locator.normalize()', matches: 1, sameElement: true });
    expect(r.body.baseline.code).toMatch(/^page\./);
    expect(r.body.verification).toContain('exactly 1');
  });

  it('unique role + name comes first; max bounds the list', async () => {
    const snap = await open('robust.html');
    const r = await locators(refOf(snap, 'textbox', 'Email'), '&max=2');
    expect(r.body.locators[0]).toMatchObject({ code: "page.getByRole('textbox', { name: 'Email', exact: true })", strategy: 'role', score: 100, fragile: false });
    expect(r.body.locators).toHaveLength(2);
    expectAllVerified(r.body);
  });

  it('one locator for a unique, strong role + name: proven alone, nothing else asked of the page', async () => {
    const snap = await open('robust.html');
    const r = await locators(refOf(snap, 'textbox', 'Email'), '&max=1');
    expect(r.status).toBe(200);
    // Role + exact name, proven unique with no weakness, scores 100: no other draft can rank above it.
    expect(r.body.locators).toEqual([
      expect.objectContaining({ code: "page.getByRole('textbox', { name: 'Email', exact: true })", strategy: 'role', score: 100, fragile: false, weaknesses: [], nearDuplicate: 'distinct', verified: { matches: 1, sameElement: true } }),
    ]);
    expect(r.body.considered).toBe(1);
    expect(r.body.target).toEqual({ tag: 'input', role: 'textbox', name: 'Email' });
    // The same element with max=5 still gets the page's full ranking, role first.
    const five = await locators(refOf(snap, 'textbox', 'Email'), '&max=5');
    expect(five.body.considered).toBeGreaterThan(1);
    expect(five.body.locators[0].code).toBe(r.body.locators[0].code);
    expect(five.body.target.tag).toBe('input');
  });

  it('a page that swallows dispatchEvent() in its own world still gets verified, container-scoped locators', async () => {
    const snap = await open('loc-patched-events.html');
    const ref = allRefsOf(snap, 'button', 'Choose')[1];
    const r = await locators(ref);
    expect(r.status).toBe(200);
    expect(r.body.target).toEqual({ tag: 'button', role: 'button', name: 'Choose' });
    expect(r.body.locators[0].code).toBe("page.getByRole('article').filter({ has: page.getByText('For small teams.', { exact: true }) }).getByRole('button', { name: 'Choose', exact: true })");
    expectAllVerified(r.body);
    const one = await locators(refOf(snap, 'link', 'Contact sales'), '&max=1');
    expect(one.body.locators[0].code).toBe("page.getByRole('link', { name: 'Contact sales', exact: true })");
    expect(one.body.target.tag).toBe('a');
  });

  it("the fact the cheap hand-off rests on: Playwright's textContent() marks the element it resolved", async () => {
    // If a Playwright upgrade stops dispatching the mark, locators still work (the
    // dispatchEvent hand-off takes over) but lose their speed: this says so at once.
    const snap = await open('products.html');
    const ref = allRefsOf(snap, 'button', 'Add to Cart')[3];
    const page = (await svc.service.sessions.use('local', id)).role('default').page().page;
    await page.evaluate(() => {
      const w = window as any;
      w.__marks = [];
      window.addEventListener('__playwright_mark_target__', (e) => w.__marks.push((e.composedPath()[0] as Element).closest('[data-testid="product-card"]')?.querySelector('h3')?.textContent), true);
    });
    await page.locator(`aria-ref=${ref}`).textContent();
    expect(await page.evaluate(() => (window as any).__marks)).toEqual([await page.getByTestId('product-card').nth(3).locator('h3').textContent()]);
  });

  it('classless cards (seed 000 §3.7), table rows and nested lists', async () => {
    const snap = await open('robust.html');
    const plain = await locators(allRefsOf(snap, 'button', 'Add to Cart')[7]);
    expect(plain.body.locators[0].code).toBe("page.locator('section > div').filter({ has: page.getByRole('heading', { name: 'Switch OLED', exact: true }) }).getByRole('button', { name: 'Add to Cart', exact: true })");
    // Plain structure is a weakness, and the score says so.
    expect(plain.body.locators[0].weaknesses.map((w: any) => w.kind)).toContain('css-structure');
    expectAllVerified(plain.body);
    const cancel = await locators(allRefsOf(snap, 'button', 'Cancel')[2]);
    expect(cancel.body.locators[0].code).toBe("page.getByRole('row').filter({ has: page.getByText('#1003', { exact: true }) }).getByRole('button', { name: 'Cancel', exact: true })");
    expect(cancel.body.baseline.code).toContain('.nth(2)');
    const remove = await locators(allRefsOf(snap, 'button', 'Remove')[3]);
    // Nested list: "Carrot" is the inner item's own text beside its button, and the outer
    // item contains it too. A substring filter would need the outer item to scope it and
    // would still match a near-duplicate ("Carrot cake"); the item's whole text is exact.
    expect(remove.body.locators[0].code).toBe("page.getByRole('listitem').filter({ hasText: /^\\s*Carrot\\s+Remove\\s*$/ }).getByRole('button', { name: 'Remove', exact: true })");
    expectAllVerified(remove.body);
    expect(remove.body.locators[0].nearDuplicate).toBe('distinct');
    expect(remove.body.locators[0].weaknesses.map((w: any) => w.kind)).toEqual(['whole-text']);
    const all = await locators(allRefsOf(snap, 'button', 'Remove')[3], '&max=20');
    const substring = all.body.locators.find((l: any) => l.code.includes("hasText: 'Carrot'"));
    if (substring) {
      expect(substring.nearDuplicate).toBe('also-matches');
      expect(substring.fragile).toBe(true);
      expect(substring.score).toBeLessThan(all.body.locators[0].score);
    }
    const checkbox = await locators(refOf(snap, 'checkbox', 'Weekly digest'), '&max=20');
    expect(checkbox.body.locators[0].code).toBe("page.getByRole('checkbox', { name: 'Weekly digest', exact: true })");
    expect(checkbox.body.locators.map((l: any) => l.code)).toContain("page.getByLabel('Weekly digest', { exact: true })");
    // Best score first across the whole list.
    const scores = checkbox.body.locators.map((l: any) => l.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('inside an iframe: frameLocator prefix; inside shadow DOM: plain role locators', async () => {
    const snap = await open('frames.html');
    const inFrame = await locators(refOf(snap, 'button', 'Frame button'));
    expect(inFrame.status).toBe(200);
    expect(inFrame.body.frameSelector).toBe('iframe#child');
    expect(inFrame.body.locators[0].code).toBe("page.frameLocator('iframe#child').getByRole('button', { name: 'Frame button', exact: true })");
    expectAllVerified(inFrame.body);
    const shadow = await locators(refOf(snap, 'button', 'Nested shadow button'));
    expect(shadow.body.locators[0].code).toBe("page.getByRole('button', { name: 'Nested shadow button', exact: true })");
    expectAllVerified(shadow.body);
  });

  it('identical siblings with nothing to tell them apart: structural first, nth() never ahead of proven ones', async () => {
    const snap = await open('dom-outer.html');
    const second = allRefsOf(snap, 'button', 'Refresh')[1];
    const r = await locators(second);
    expectAllVerified(r.body);
    expect(r.body.locators[0].strategy).toBe('structural');
    expect(r.body.locators[0].code).toContain('nth-of-type(2)');
  });

  it('unknown refs answer 409 at once; a missing ref param is 400', async () => {
    await open('products.html');
    const r = await locators('e987654');
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('ref_not_found');
    expect((await svc.api.get(`/v1/sessions/${id}/roles/default/locators`)).status).toBe(400);
  });
});
