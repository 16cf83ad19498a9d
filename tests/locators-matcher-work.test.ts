import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
// @ts-expect-error plain .mjs build script without types
import { bundleBridge } from '../packages/page/scripts/build-bridge.mjs';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// The in-page matcher (bridge/injected/locators.ts) must do work in proportion to the
// page, not to its square: a dangling `else` once made every prefiltered getByRole miss
// rescan the whole scope. Measured as work (Map lookups of the matcher's caches, counted
// in a page where the bridge runs in the main world for this test only), never as time:
// the same request on a page four times as large must cost about four times as much.

let browser: Browser;
let fx: FixtureServer;
let source: string;

beforeAll(async () => {
  [fx, source] = await Promise.all([startFixtureServer(), bundleBridge()]);
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(async () => {
  await browser?.close();
  await fx?.close();
});

async function work(n: number): Promise<{ lookups: number; first: string }> {
  const page = await browser.newPage();
  try {
    await page.goto(`${fx.url}/large.html?n=${n}`);
    await page.evaluate(`${source};globalThis.__ariadne.install('loc-work')`);
    const link = page.getByRole('link', { name: /^Details for / }).last();
    const name = (await link.textContent())!.trim();
    return await link.evaluate((el, name) => {
      el.dispatchEvent(new CustomEvent('loc-work', { detail: 's1\u0001target', composed: true }));
      let lookups = 0;
      const has = Map.prototype.has;
      const get = Map.prototype.get;
      Map.prototype.has = function (this: Map<unknown, unknown>, k: unknown) { lookups++; return has.call(this, k); };
      Map.prototype.get = function (this: Map<unknown, unknown>, k: unknown) { lookups++; return get.call(this, k); } as typeof get;
      try {
        const res = (globalThis as any).__ariadne.run('locatorCandidates', { slot: 's1', role: 'link', name, max: 5 });
        return { lookups, first: JSON.stringify(res.candidates[0]?.steps) };
      } finally {
        Map.prototype.has = has;
        Map.prototype.get = get;
      }
    }, name);
  } finally {
    await page.close();
  }
}

describe('in-page locator matching', () => {
  it('grows with the page, not with its square', async () => {
    const small = await work(500);
    const big = await work(2000);
    expect(small.first).toContain('"role":"link"');
    expect(big.first).toContain('"role":"link"');
    // Four times the elements: linear work is ~4x; the quadratic rescan was ~16x.
    expect(big.lookups / small.lookups, `${small.lookups} -> ${big.lookups} lookups`).toBeLessThan(8);
  });
});
