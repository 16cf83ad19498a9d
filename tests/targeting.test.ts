import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { allRefsOf, refOf, startTestService, type TestService } from './helpers/service.js';

// Targeting through HTTP: refs first (unknown, stale, in iframes and shadow roots), then
// the description ladder of seed 004 on tests/fixtures/targeting.html, where whatever
// gets clicked writes into #out so the test can tell which element the ladder picked.

let svc: TestService;
let fx: FixtureServer;
const opened: string[] = [];

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ ACTION_TIMEOUT_MS: '5000', DESCRIBE_WAIT_MS: '1000' }), startFixtureServer()]);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((id) => svc.api.delete(`/v1/sessions/${id}`)));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function open(page: string): Promise<string> {
  const id = await svc.api.createSession();
  opened.push(id);
  const res = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/${page}` });
  expect(res.status).toBe(200);
  return id;
}

async function yaml(id: string): Promise<string> {
  const res = await svc.api.snapshot(id, 'maxTokens=100000');
  expect(res.status).toBe(200);
  return res.body.snapshot;
}

/** What the targeting fixture reports was last clicked or typed into. */
async function out(id: string): Promise<string> {
  const m = /paragraph \[ref=[a-z0-9]+\]: (.*)/.exec(await yaml(id));
  return m ? m[1].replace(/^"|"$/g, '') : '';
}

async function byDescription(id: string, description: string, extra: Record<string, unknown> = {}) {
  return svc.api.action(id, { action: 'click', description, ...extra });
}

describe('refs', () => {
  it('an unknown ref is 409 ref_not_found at once, not after the action timeout', async () => {
    const id = await open('login.html');
    await yaml(id);
    for (const ref of ['e9999', 'f7e3']) {
      const started = Date.now();
      const res = await svc.api.action(id, { action: 'click', ref });
      // ACTION_TIMEOUT_MS is 5000: an answer well under it shows the ref was checked first.
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('ref_not_found');
      expect(res.body.error.details).toMatchObject({ ref, issued: false });
    }
    const bad = await svc.api.action(id, { action: 'click', ref: 'button.primary' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('ref');
  });

  it('a ref from before a cross-document navigation is 409 ref_stale', async () => {
    const id = await open('login.html');
    const oldYaml = await yaml(id);
    const signIn = refOf(oldYaml, 'button', 'Sign in');
    const user = refOf(oldYaml, 'textbox', 'Username');
    await svc.api.action(id, { action: 'navigate', url: `${fx.url}/products.html` });
    await yaml(id);
    for (const ref of [signIn, user]) {
      const started = Date.now();
      const res = await svc.api.action(id, { action: 'click', ref });
      expect(Date.now() - started).toBeLessThan(2000);
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('ref_stale');
      expect(res.body.error.details.url).toBe(`${fx.url}/products.html`);
    }
    // Even without a fresh snapshot after the navigation.
    const id2 = await open('login.html');
    const ref2 = refOf(await yaml(id2), 'button', 'Sign in');
    await svc.api.action(id2, { action: 'navigate', url: `${fx.url}/login.html?again=1` });
    const res2 = await svc.api.action(id2, { action: 'fill', ref: ref2, value: 'x' });
    expect(res2.body.error.code).toBe('ref_stale');
    const view = await svc.api.snapshot(id2, `ref=${ref2}`);
    expect(view.status).toBe(409);
    expect(view.body.error.code).toBe('ref_stale');
  });

  it('a ref whose element was removed is 409 ref_not_found, marked as issued', async () => {
    const id = await open('big-grid.html?sections=1');
    const y = await yaml(id);
    const buy = refOf(y, 'button', 'Buy item 0-0');
    expect((await svc.api.action(id, { action: 'click', ref: refOf(y, 'button', 'Remove first item') })).status).toBe(200);
    const started = Date.now();
    const res = await svc.api.action(id, { action: 'click', ref: buy });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ref_not_found');
    expect(res.body.error.details).toMatchObject({ ref: buy, issued: true });
    // Its neighbour is untouched.
    expect((await svc.api.action(id, { action: 'click', ref: refOf(y, 'button', 'Buy item 0-1') })).status).toBe(200);
    expect(await yaml(id)).toContain('Bought item 0-1');
  });

  it('a click on a ref that does not resolve is not left waiting: the same element back later is not clicked', async () => {
    // A click left to wait for its element would land once the element is back: the ref
    // is checked before the click (targeting/resolve.ts), which never starts.
    const id = await open('ref-comeback.html');
    const y = await yaml(id);
    const press = refOf(y, 'button', 'Press me');
    expect((await svc.api.action(id, { action: 'click', ref: refOf(y, 'button', 'Step away'), settle: 'none' })).status).toBe(200);
    const started = Date.now();
    const res = await svc.api.action(id, { action: 'click', ref: press });
    expect(res.body.error?.code).toBe('ref_not_found');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.body.error.details).toMatchObject({ ref: press, issued: true });
    // The element is back 3 s after "Step away"; nothing clicked it.
    let after = await yaml(id);
    for (let i = 0; i < 50 && !after.includes('Press me'); i++) {
      await new Promise((r) => setTimeout(r, 200));
      after = await yaml(id);
    }
    expect(after).toContain('Press me');
    await new Promise((r) => setTimeout(r, 300)); // a click left waiting would have landed by now
    expect(await yaml(id)).toContain('Pressed 0 times');
    // The same ref works again now that it resolves.
    expect((await svc.api.action(id, { action: 'click', ref: press })).status).toBe(200);
    expect(await yaml(id)).toContain('Pressed 1 times');
  });

  it('refs held by the agent keep working across snapshots and ?ref= / ?depth= views', async () => {
    const id = await open('targeting.html');
    const first = await yaml(id);
    const signUp = refOf(first, 'button', 'Sign up');
    const email = refOf(first, 'textbox', 'Email address');
    const main = refOf(first, 'main');
    for (const q of ['', `ref=${main}`, 'depth=1', 'depth=0', `ref=${main}&depth=1`, 'format=json', 'format=text&maxTokens=60', 'diff=true']) {
      expect((await svc.api.snapshot(id, q)).status, q).toBe(200);
    }
    expect((await svc.api.action(id, { action: 'fill', ref: email, value: 'kept@example.com' })).status).toBe(200);
    expect(await out(id)).toBe('email: kept@example.com');
    expect((await svc.api.action(id, { action: 'click', ref: signUp })).status).toBe(200);
    expect(await out(id)).toBe('sign up button');
    expect(refOf(await yaml(id), 'button', 'Sign up')).toBe(signUp);
  });
});

describe('frames and shadow roots', () => {
  it('iframe refs (fNeM) work for fill and click', async () => {
    const id = await open('frames.html');
    const y = await yaml(id);
    const input = refOf(y, 'textbox', 'Frame input');
    const button = refOf(y, 'button', 'Frame button');
    const outer = refOf(y, 'button', 'Outer button');
    // Frame refs carry the frame's own prefix, different from the main frame's.
    expect(input).toMatch(/^f\d+e\d+$/);
    expect(input.split('e')[0]).not.toBe(outer.split('e')[0]);
    expect((await svc.api.action(id, { action: 'fill', ref: input, value: 'hello frame' })).status).toBe(200);
    expect((await svc.api.action(id, { action: 'click', ref: button })).status).toBe(200);
    expect(await yaml(id)).toContain('Frame says hello frame');
  });

  it('open shadow roots (nested too) work for fill and click; closed ones are not traversed', async () => {
    const id = await open('frames.html');
    const y = await yaml(id);
    expect((await svc.api.action(id, { action: 'fill', ref: refOf(y, 'textbox', 'Shadow input'), value: 'deep' })).status).toBe(200);
    expect((await svc.api.action(id, { action: 'click', ref: refOf(y, 'button', 'Shadow button') })).status).toBe(200);
    expect((await svc.api.action(id, { action: 'click', ref: refOf(y, 'button', 'Nested shadow button') })).status).toBe(200);
    const after = await yaml(id);
    expect(after).toContain('shadow clicked: deep');
    expect(after).toContain('button "Nested clicked"');

    // The closed root's button is not in the snapshot, and the ladder cannot reach it either.
    expect(y).not.toContain('Closed shadow button');
    const res = await byDescription(id, 'Closed shadow button');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('target_not_found');
  });
});

describe('description ladder', () => {
  it('"the Sign in button" picks the button, not the nav link with the same text', async () => {
    const login = await open('login.html');
    const res = await byDescription(login, 'the Sign in button');
    expect(res.status).toBe(200);
    expect(res.body.target).toMatchObject({ resolvedBy: 'description:role:button' });
    expect(res.body.target.locator).toMatch(/^getByRole\('button'/);
    // The form posted (empty fields): the button was clicked, not the nav link.
    expect(res.body.url).toBe(`${fx.url}/login.html?error=1`);

    const id = await open('targeting.html');
    const cases: [string, string][] = [
      ['the Sign in button', 'sign in button'],
      ['Sign up button', 'sign up button'],
      ['the Sign in link', 'sign in link'],
      ['click the Add to cart button', 'add to cart button'],
      ['press the Log in button', 'log in button'],
      ['the sign up LINK', 'sign up link'],
    ];
    for (const [description, clicked] of cases) {
      const r = await byDescription(id, description);
      expect(r.status, `${description}: ${JSON.stringify(r.body)}`).toBe(200);
      expect(await out(id), description).toBe(clicked);
    }
  });

  it('the ladder waits (DESCRIBE_WAIT_MS) for an element that is still loading', async () => {
    const id = await open('slow-list.html?ms=200');
    const res = await byDescription(id, 'the Open Beta button');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.target.resolvedBy).toBe('description:role:button');
  });

  it('a quoted phrase wins over verbose text', async () => {
    const id = await open('targeting.html');
    const res = await byDescription(id, 'click the button labeled "Place order" at the bottom right of the blue checkout panel, next to Sign in');
    expect(res.status).toBe(200);
    expect(res.body.target.resolvedBy).toBe('description:role:button');
    expect(await out(id)).toBe('place order button');
  });

  it('label, placeholder and text rungs', async () => {
    const id = await open('targeting.html');
    const label = await svc.api.action(id, { action: 'fill', description: 'Email address', value: 'ann@example.com' });
    expect(label.status).toBe(200);
    expect(label.body.target).toMatchObject({ resolvedBy: 'description:label', locator: "getByLabel('Email address')" });
    expect(await out(id)).toBe('email: ann@example.com');

    const hinted = await svc.api.action(id, { action: 'fill', description: 'the Email address field', value: 'bo@example.com' });
    expect(hinted.body.target.resolvedBy).toBe('description:role:textbox');
    expect(await out(id)).toBe('email: bo@example.com');

    const placeholder = await svc.api.action(id, { action: 'fill', description: 'Coupon code', value: 'SAVE10' });
    expect(placeholder.status).toBe(200);
    expect(placeholder.body.target.resolvedBy).toBe('description:placeholder');
    expect(await out(id)).toBe('coupon: SAVE10');

    const text = await byDescription(id, 'Free shipping on orders over $50');
    expect(text.status).toBe(200);
    expect(text.body.target.resolvedBy).toBe('description:text');
    expect(await out(id)).toBe('shipping text');
  });

  it('hidden elements never win', async () => {
    const id = await open('targeting.html');
    // A hidden and a visible element with the same text: the visible one is clicked.
    const offer = await byDescription(id, 'Secret offer');
    expect(offer.status).toBe(200);
    expect(await out(id)).toBe('visible offer');
    // Only hidden matches: a miss once DESCRIBE_WAIT_MS (1000) is over, well before the action timeout (5000); nothing clicked.
    for (const description of ['Delete everything', 'the Delete everything button', 'Hidden banner text']) {
      const started = Date.now();
      const res = await byDescription(id, description);
      expect(res.status, description).toBe(409);
      expect(res.body.error.code).toBe('target_not_found');
      expect(Date.now() - started).toBeLessThan(4000);
    }
    expect(await out(id)).toBe('visible offer');
  });

  it('ambiguous → 409 ambiguous_target listing candidates with their refs', async () => {
    const id = await open('targeting.html');
    const y = await yaml(id);
    const removeRefs = allRefsOf(y, 'button', 'Remove');
    expect(removeRefs).toHaveLength(3);
    const res = await byDescription(id, 'the Remove button');
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ambiguous_target');
    const { candidates, matchCount } = res.body.error.details;
    expect(matchCount).toBe(3);
    expect(candidates.map((c: any) => c.ref)).toEqual(removeRefs);
    expect(candidates.every((c: any) => c.role === 'button' && c.name === 'Remove' && c.text === 'Remove')).toBe(true);
    expect(await out(id)).toBe('nothing yet');
    // A candidate ref works as given.
    expect((await svc.api.action(id, { action: 'click', ref: candidates[1].ref })).status).toBe(200);
    expect(await out(id)).toBe('remove ink');

    // Two "Sign in" links on the products page (nav and footer).
    const products = await open('products.html');
    const links = allRefsOf(await yaml(products), 'link', 'Sign in');
    expect(links).toHaveLength(2);
    const amb = await byDescription(products, 'the Sign in link');
    expect(amb.status).toBe(409);
    expect(amb.body.error.code).toBe('ambiguous_target');
    expect(amb.body.error.details.candidates.map((c: any) => c.ref)).toEqual(links);
  });

  it('a miss → 409 target_not_found with diagnostics', async () => {
    const id = await open('targeting.html');
    const y = await yaml(id);
    const started = Date.now();
    const res = await byDescription(id, 'the Checkout now button');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('target_not_found');
    const d = res.body.error.details;
    expect(d).toMatchObject({ description: 'the Checkout now button', roleHint: 'button', roleCount: 0, labelCount: 0, currentUrl: `${fx.url}/targeting.html` });
    expect(d.phrases[0]).toBe('Checkout now');
    expect(d.textCount).toBe(0);
    expect(d.sampleButtons).toContainEqual({ ref: refOf(y, 'button', 'Sign in'), name: 'Sign in' });
    expect(d.sampleButtons.every((b: any) => /^[a-z0-9]+$/.test(b.ref))).toBe(true);
    expect(d.sampleLinks).toContainEqual(expect.objectContaining({ ref: refOf(y, 'link', 'Help'), name: 'Help' }));
    expect(d.closestMatches.length).toBeGreaterThan(0);

  });
});
