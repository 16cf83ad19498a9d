import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';
// @ts-expect-error plain .mjs bench module without types
import { MUTATIONS, measureRobustness } from '../bench/exploration.mjs';

// Locator robustness with a floor: for every button, link, textbox and checkbox of
// robust.html, our best verified locator and Playwright's normalize() are generated
// through HTTP, then run in a separate browser against the page with its DOM mutated
// (siblings reordered, wrapper divs inserted, classes renamed, a new item at the top
// of each repeated container). Counted: still exactly one match, and the same logical
// element. bench/exploration.mjs prints the same figures.

let svc: TestService;
let fx: FixtureServer;
let browser: Browser;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  browser = await chromium.launch({ executablePath: svc.service.config.chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
});
afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await fx?.close();
});

describe('locator robustness', () => {
  it('our locators survive DOM mutations far better than normalize() (floor: 90% per mutation)', async () => {
    const res = await measureRobustness({ base: svc.url, fixturesUrl: fx.url, browser, sessions: 3 });
    const n = res.targets.length;
    expect(n).toBe(39);
    // Every target got a proven locator, and it finds the target on the original page.
    expect(res.targets.filter((t: any) => t.ours && t.expected !== null)).toHaveLength(n);
    expect(res.targets.every((t: any) => t.baselineValid)).toBe(true);
    expect(res.perMutation.map((r: any) => r.mutation)).toEqual(MUTATIONS);
    let ours = 0;
    let base = 0;
    for (const r of res.perMutation) {
      expect(r.ours / r.total, `${r.mutation}: ours lost ${r.oursLost.join(' | ')}`).toBeGreaterThanOrEqual(0.9);
      ours += r.ours;
      base += r.normalize;
    }
    expect(ours).toBeGreaterThan(base);
    // The mutations that move things around are where positional locators break.
    const prepend = res.perMutation.find((r: any) => r.mutation === 'prepend');
    const reorder = res.perMutation.find((r: any) => r.mutation === 'reorder');
    expect(prepend.ours - prepend.normalize).toBeGreaterThanOrEqual(15);
    expect(reorder.ours - reorder.normalize).toBeGreaterThanOrEqual(15);
  });
});
