import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type FrameLocator, type Locator, type Page } from 'playwright-core';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// The frame/shadow DOM serializer (seed 003) through HTTP, and its PATH lines fed back
// into Playwright in a separate browser: each must find exactly its element.

let svc: TestService;
let fx: FixtureServer;
let id: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  id = await svc.api.createSession();
  browser = await chromium.launch({ executablePath: svc.service.config.chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  page = await browser.newPage();
});
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await fx?.close();
});

const get = (p: string) => svc.api.get(`/v1/sessions/${id}/roles/default${p}`);

/** Values of key="..." pairs (with \" escapes) in a PATH line. */
function fields(line: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of line.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) out[m[1]] = m[2].replace(/\\(.)/g, '$1');
  return out;
}

/** Split the shadowHost chain on spaces outside quotes and brackets. */
function splitHosts(chain: string): string[] {
  const out: string[] = [];
  let cur = '';
  let depth = 0;
  let quote = '';
  for (const ch of chain) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = '';
      continue;
    }
    if (ch === '"' || ch === "'") quote = ch;
    if (ch === '[' || ch === '(') depth++;
    if (ch === ']' || ch === ')') depth--;
    if (ch === ' ' && depth === 0) {
      if (cur) out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

function locate(p: Page, path: Record<string, string>): Locator {
  let scope: Page | FrameLocator = p;
  for (const f of (path.frameSelector ?? '').split(' >> ').filter(Boolean)) scope = scope.frameLocator(f);
  let loc: Locator | null = null;
  for (const h of splitHosts(path.shadowHost ?? '')) loc = loc ? loc.locator(h) : scope.locator(h);
  return loc ? loc.locator(path.locator) : scope.locator(path.locator);
}

describe('dom serializer', () => {
  it('serializes nested iframes and shadow roots with markers and PATH lines', async () => {
    const nav = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/dom-outer.html` });
    expect(nav.status).toBe(200);
    const r = await get('/dom');
    expect(r.status).toBe(200);
    const dom: string = r.body.dom;
    expect(r.body.truncated).toBe(false);
    expect(dom).toContain('[FRAME selector="iframe#auth" src="/dom-mid.html"]');
    expect(dom).toContain('[FRAME selector="iframe[name=\\"form\\"]" src="/dom-inner.html" parent="iframe#auth"]');
    expect(dom).toContain('[CUSTOM: login-form#lf]');
    expect(dom).toContain('[SHADOW-ROOT host="login-form#lf"]');
    expect(dom).toContain('[SHADOW-ROOT host="login-form#lf pw-field"]');
    expect(dom).toContain('[CUSTOM: promo-banner#promo]');
    expect(dom).toContain('[/SHADOW-ROOT]');
    expect(dom).toContain('[/FRAME]');
    // Skipped: script/style, and the zero-size wrapper (its button is zero-size too).
    expect(dom).not.toContain('outerReady');
    expect(dom).not.toContain('Zero-size button');
    const submit = dom.split('\n').findIndex((l) => l.includes('button#submit'));
    // The line ends with the element's snapshot ref (a frame ref: f<N>e<M>), to act on it.
    const line = dom.split('\n')[submit + 1].trim();
    expect(line.replace(/ ref=f\d+e\d+$/, '')).toBe('↳ locator="button#submit" shadowHost="login-form#lf" frameSelector="iframe#auth >> iframe[name=\\"form\\"]"');
    expect(line).toMatch(/ ref=f\d+e\d+$/);
    expect(r.body.stats).toMatchObject({ frames: 2, customElements: 5 });
    expect(r.body.stats.shadowRoots).toBe(7); // widget, deep, promo, 2 × (login-form + pw-field)
    expect(r.body.tokens).toBeGreaterThan(0);
  });

  it('every PATH line finds exactly its element when fed back into Playwright', async () => {
    const r = await get('/dom');
    await page.goto(`${fx.url}/dom-outer.html`);
    await page.frameLocator('iframe#auth').frameLocator('iframe[name="form"]').locator('login-form#lf2').locator('button#submit').waitFor();
    const lines: string[] = r.body.dom.split('\n');
    const paths = lines.map((l, i) => ({ l, i })).filter(({ l }) => l.trim().startsWith('↳'));
    expect(paths.length).toBeGreaterThanOrEqual(20);
    let checked = 0;
    for (const { l, i } of paths) {
      const p = fields(l);
      const loc = locate(page, p);
      expect(await loc.count(), `${l.trim()}`).toBe(1);
      // ...and it is the element the display line above describes.
      const display = lines[i - 1].trim();
      const tag = /^[a-z][a-z0-9-]*/.exec(display)![0];
      const facts = await loc.evaluate((el) => ({ tag: el.localName, id: el.id, name: el.getAttribute('name') ?? '', text: (el.textContent ?? '').trim() }));
      expect(facts.tag, display).toBe(tag);
      const idm = /#([\w-]+)/.exec(display);
      if (idm) expect(facts.id).toBe(idm[1]);
      const name = /\[name="([^"]*)"\]/.exec(display);
      if (name) expect(facts.name).toBe(name[1]);
      checked++;
    }
    expect(checked).toBe(paths.length);
    // Both login forms: same inner selectors, told apart by their host.
    expect(lines.filter((l) => l.includes('shadowHost="login-form#lf2"')).length).toBeGreaterThanOrEqual(5);
  });

  it('caps the output with an explicit truncation marker; counts stay whole-page', async () => {
    await svc.api.action(id, { action: 'navigate', url: `${fx.url}/large.html?n=5000` });
    const r = await get('/dom');
    expect(r.status).toBe(200);
    expect(r.body.truncated).toBe(true);
    expect(r.body.chars).toBeLessThanOrEqual(24_000 + 300);
    expect(r.body.dom).toMatch(/\[TRUNCATED: capped at 24000 chars; the page has \d+ rendered elements/);
    expect(r.body.stats.elements).toBeGreaterThan(3000);
    const small = await get('/dom?maxTokens=500');
    expect(small.body.chars).toBeLessThanOrEqual(2000 + 300);
    expect(small.body.truncated).toBe(true);
  });
});
