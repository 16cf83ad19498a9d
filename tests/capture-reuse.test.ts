import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { BrowserPool } from '@ariadne/pool';
import { markCapture, unchangedSinceCapture } from '@ariadne/page';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// A flow's assertion step shares the previous step's screenshot only when nothing that
// could change the pixels happened since that capture (packages/page/src/capture.ts).
// Each way the pixels can change without the step doing anything must force a capture.

let pool: BrowserPool;
let fx: FixtureServer;
let page: Page;

const PAGE = `<!doctype html><html><head><style>
  @keyframes spin { to { transform: rotate(360deg); } }
  .spin { animation: spin 1s linear infinite; }
  body { height: 3000px; }
</style></head><body>
  <h1>Still</h1><input aria-label="Name"><button>Go</button><div id="box">box</div>
</body></html>`;

beforeAll(async () => {
  fx = await startFixtureServer();
  pool = new BrowserPool({ chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', browsers: 1, maxContextsPerBrowser: 2, maxContexts: 2, warmContexts: 0 });
  await pool.start();
  page = (await pool.acquire('t')).page;
});
afterAll(async () => {
  await pool?.close();
  await fx?.close();
});
beforeEach(async () => {
  await page.goto(`${fx.url}/index.html`);
  await page.setContent(PAGE);
});

describe('an unchanged page shares its last capture', () => {
  it('nothing happened: unchanged, and it stays so when asked again', async () => {
    await markCapture(page);
    expect(await unchangedSinceCapture(page)).toBe(true);
    expect(await unchangedSinceCapture(page)).toBe(true);
  });

  it('never marked: unsure, so a capture', async () => {
    expect(await unchangedSinceCapture(page)).toBe(false);
  });

  const changes: Record<string, (p: Page) => Promise<unknown>> = {
    'a DOM change': (p) => p.evaluate(() => { document.querySelector('h1')!.textContent = 'Moved'; }),
    'an attribute change': (p) => p.evaluate(() => document.getElementById('box')!.setAttribute('data-x', '1')),
    'a scroll': (p) => p.evaluate(() => window.scrollTo(0, 500)),
    'a focus change': (p) => p.getByRole('textbox').focus(),
    'a typed value (no attribute changes)': (p) => p.getByRole('textbox').fill('abc'),
    'a value set in a field that already had focus': async (p) => {
      await p.getByRole('textbox').focus();
      await markCapture(p);
      await p.evaluate(() => { (document.activeElement as HTMLInputElement).value = 'typed'; });
    },
    'a new URL in the same document': (p) => p.evaluate(() => history.pushState({}, '', '#moved')),
    'a new document': (p) => p.goto(`${fx.url}/index.html`),
    'a resize': (p) => p.setViewportSize({ width: 800, height: 600 }),
  };
  for (const [what, change] of Object.entries(changes)) {
    it(`${what}: changed`, async () => {
      await markCapture(page);
      await change(page);
      expect(await unchangedSinceCapture(page)).toBe(false);
      await page.setViewportSize({ width: 1600, height: 900 });
    });
  }

  it('an animation running at the capture or now: changed', async () => {
    await page.evaluate(() => document.getElementById('box')!.classList.add('spin'));
    await markCapture(page);
    expect(await unchangedSinceCapture(page)).toBe(false);
  });

  it('pixels the DOM does not describe (canvas, video, child frames): never shared', async () => {
    for (const tag of ['canvas', 'video', 'iframe']) {
      await page.setContent(`<h1>x</h1><${tag}></${tag}>`);
      await markCapture(page);
      expect(await unchangedSinceCapture(page), tag).toBe(false);
    }
  });

  it('an image still loading at the capture: changed', async () => {
    // /slow answers after ?ms=: the image is incomplete when the capture is marked.
    await page.evaluate((src) => document.body.append(Object.assign(document.createElement('img'), { src, alt: 'late' })), `${fx.url}/slow?ms=2000`);
    await markCapture(page);
    expect(await unchangedSinceCapture(page)).toBe(false);
  });
});
