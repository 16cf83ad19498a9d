import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { locatorFromCode } from '@ariadne/flows';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// Locators that survive other people's markup (issue 11 §3). For targets on fixture pages
// in varied markup (web components with per-session random ids, near-duplicate cards,
// a plain Bootstrap-like page, framework-generated ids), the best verified locator is
// generated through HTTP in one session, then replayed (parsed back by the flows' replay
// parser) in a second, freshly loaded session in another browser — where every random id
// is new and the order is reshuffled — and must find exactly the same logical element
// (window.__lid, a WeakMap in the page that no locator can use).

let svc: TestService;
let fx: FixtureServer;
let browser: Browser;
let id: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  browser = await chromium.launch({ executablePath: svc.service.config.chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  id = await svc.api.createSession();
});
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await fx?.close();
});

async function open(page: string): Promise<string> {
  expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/${page}` })).status).toBe(200);
  return (await svc.api.snapshot(id, 'maxTokens=100000')).body.snapshot;
}

/** The ref of the first `role "name"` line after the line that mentions `anchor` (the snapshot's reading order). */
function refAfter(snap: string, anchor: RegExp, role: string, name: string): string {
  const lines = snap.split('\n');
  const start = lines.findIndex((l) => anchor.test(l));
  if (start < 0) throw new Error(`no line matches ${anchor} in:\n${snap.slice(0, 3000)}`);
  for (const l of lines.slice(start)) {
    const m = new RegExp(`- ${role} ${JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[^\\n]*\\[ref=([a-z0-9]+)\\]`).exec(l);
    if (m) return m[1];
  }
  throw new Error(`no ${role} "${name}" after ${anchor}`);
}

const locators = async (ref: string, q = '') => {
  const r = await svc.api.get(`/v1/sessions/${id}/roles/default/locators?ref=${ref}${q}`);
  expect(r.status).toBe(200);
  for (const l of r.body.locators) expect(l.verified, l.code).toEqual({ matches: 1, sameElement: true });
  return r.body;
};

/** Replay `code` on a freshly loaded copy of `page` (new random ids, new order): the logical id it finds. */
async function inFreshSession(page: string, code: string): Promise<{ n: number; lid: string | null }> {
  const p: Page = await browser.newPage();
  try {
    await p.goto(`${fx.url}/${page}`);
    const loc = locatorFromCode(p, code);
    const n = await loc.count();
    const lid = n === 1 ? await loc.evaluate((el) => (window as any).__lid(el)) : null;
    return { n, lid };
  } finally {
    await p.close();
  }
}

const GENERATED = /:r[0-9a-z]+:|«|radix-|headlessui-|mui-\d|ember\d|css-[a-z0-9]|sc-[a-z0-9]|data-v-|ngcontent|todo-item-[0-9a-f]|#(?:cb|del|lbl|new-todo|app|list|form)-/i;

describe('locators on other people\'s markup, replayed in a fresh session', () => {
  it('web components with per-session random ids: no id in the locator, the same item next session', async () => {
    const page = 'loc-webcomponents.html';
    const snap = await open(page);
    const del = await locators(refAfter(snap, /checkbox "Walk the dog"(?! later)/, 'button', 'Delete'), '&max=8');
    for (const l of del.locators) expect(l.code).not.toMatch(GENERATED);
    const best = del.locators[0];
    // "Walk the dog later" is a near-duplicate: the best candidate anchors exactly, and passed the check.
    expect(best.nearDuplicate).toBe('distinct');
    expect(best.code).toContain("'Walk the dog', { exact: true }");
    expect(await inFreshSession(page, best.code)).toEqual({ n: 1, lid: 'Walk the dog/delete' });
    const box = await locators(refAfter(snap, /checkbox "Buy milk"/, 'checkbox', 'Buy milk'));
    expect(box.locators[0].code).toBe("page.getByRole('checkbox', { name: 'Buy milk', exact: true })");
    expect(await inFreshSession(page, box.locators[0].code)).toEqual({ n: 1, lid: 'Buy milk/checkbox' });
    const input = await locators(refAfter(snap, /textbox "What needs to be done\?"/, 'textbox', 'What needs to be done?'));
    for (const l of input.locators) expect(l.code).not.toMatch(GENERATED);
    expect(await inFreshSession(page, input.locators[0].code)).toEqual({ n: 1, lid: 'new-todo' });
  });

  it('near-duplicate cards: anchored on the exact heading, checked against a near-duplicate; a bare-text row anchors on its whole text', async () => {
    const page = 'loc-near-duplicates.html';
    const snap = await open(page);
    const add = await locators(refAfter(snap, /heading "Desk Lamp" /, 'button', 'Add to Cart'), '&max=8');
    const best = add.locators[0];
    expect(best.code).toContain("has: page.getByRole('heading', { name: 'Desk Lamp', exact: true })");
    expect(best).toMatchObject({ nearDuplicate: 'distinct', fragile: false });
    expect(best.code).not.toContain("hasText: 'Desk Lamp'");
    expect(await inFreshSession(page, best.code)).toEqual({ n: 1, lid: 'Desk Lamp/add' });
    // A price is data: a candidate anchored on it says so and scores lower than the heading.
    const onPrice = add.locators.find((l: any) => l.code.includes('$29.00'));
    if (onPrice) {
      expect(onPrice.weaknesses.map((w: any) => w.kind)).toContain('data-text');
      expect(onPrice.score).toBeLessThan(best.score);
    }
    const remove = await locators(refAfter(snap, /heading "Wishlist"/, 'button', 'Remove'));
    // Whichever row that was, its best locator finds the same row next session (shuffled).
    const rowName = /^Desk Lamp Pro|^Desk Lamp|^Floor Lamp/.exec(remove.locators[0].why.join(' ').match(/"([^"]+ Remove)"/)?.[1] ?? '')?.[0];
    expect(rowName, JSON.stringify(remove.locators[0])).toBeTruthy();
    expect(remove.locators[0].nearDuplicate).toBe('distinct');
    expect(await inFreshSession(page, remove.locators[0].code)).toEqual({ n: 1, lid: `${rowName}/remove` });
  });

  it('plain Bootstrap page: the only candidates are positional CSS / nth, flagged fragile with a low score', async () => {
    const page = 'loc-bootstrap.html';
    const snap = await open(page);
    const ref = [...snap.matchAll(/link "Go somewhere" \[ref=([a-z0-9]+)\]/g)].map((m) => m[1])[1];
    const r = await locators(ref, '&max=8');
    expect(r.locators.length).toBeGreaterThan(0);
    for (const l of r.locators) {
      expect(l.fragile, l.code).toBe(true);
      expect(l.score, l.code).toBeLessThan(60);
      expect(l.weaknesses.map((w: any) => w.kind).some((k: string) => k === 'positional' || k === 'css-structure'), l.code).toBe(true);
    }
    // Static page: position holds on a fresh load.
    expect(await inFreshSession(page, r.locators[0].code)).toEqual({ n: 1, lid: 'card2/go' });
  });

  it('framework-generated ids (React useId, Radix, Headless UI, MUI, Ember, Vue, Angular, CSS-in-JS): never in a locator', async () => {
    const page = 'loc-framework-ids.html';
    const snap = await open(page);
    const options = await locators(refAfter(snap, /heading "Shipping"/, 'button', 'Options'), '&max=8');
    for (const l of options.locators) expect(l.code).not.toMatch(GENERATED);
    expect(options.locators[0].code).toContain("'Shipping'");
    expect(await inFreshSession(page, options.locators[0].code)).toEqual({ n: 1, lid: 'Shipping/options' });
    const email = await locators(refAfter(snap, /textbox "Email"/, 'textbox', 'Email'), '&max=8');
    for (const l of email.locators) expect(l.code).not.toMatch(GENERATED);
    expect(await inFreshSession(page, email.locators[0].code)).toEqual({ n: 1, lid: 'email' });
  });
});
