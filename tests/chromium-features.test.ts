import { afterAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { ARIADNE_DISABLED_FEATURES, BrowserPool, CHROMIUM_FLAGS } from '@ariadne/pool';
import { descendantsOf, processTable, waitUntil } from './helpers/process.js';

// Chromium keeps only the last --disable-features switch. The pool passes one switch with
// Playwright's features and its own (packages/pool/src/chromium-features.ts); these tests
// read what Chromium was really given, from /proc.

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The features a process's command line disables (its last --disable-features switch). */
function disabledFeatures(cmdline: string): string[] {
  const all = cmdline.split(' ').filter((a) => a.startsWith('--disable-features='));
  return all.length ? all[all.length - 1].slice('--disable-features='.length).split(',') : [];
}

let stock: Browser | undefined;
let pool: BrowserPool | undefined;
afterAll(async () => {
  await stock?.close();
  await pool?.close();
});

describe('Chromium features', () => {
  it('a pool browser disables every feature stock Playwright disables, and DeferRendererTasksAfterInput', async () => {
    // What this playwright-core version passes on its own (it changes with upgrades).
    const marker = `--ariadne-stock-probe=${process.pid}`;
    stock = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_FLAGS, marker] });
    const stockMain = [...processTable().values()].find((p) => p.cmdline.includes(marker) && !p.cmdline.includes('--type='));
    expect(stockMain, 'the stock browser process').toBeTruthy();
    const playwrights = disabledFeatures(stockMain!.cmdline);
    expect(playwrights.length).toBeGreaterThan(3);
    await stock.close();
    stock = undefined;

    pool = new BrowserPool({ chromiumPath: CHROMIUM, browsers: 1, maxContextsPerBrowser: 2, maxContexts: 2, warmContexts: 0 });
    await pool.start();
    const lease = await pool.acquire('t');
    await lease.page.setContent('<button>x</button>');
    const pid = pool.stats().browsers[0].pid;
    expect(pid).toBeTypeOf('number');
    const table = processTable();
    const main = table.get(pid!)!;
    // The renderer is told the browser's effective feature state.
    const renderer = await waitUntil(() => descendantsOf(pid!, processTable()).map((p) => processTable().get(p)).find((p) => p?.cmdline.includes('--type=renderer')), 10_000, 'a renderer');
    // The browser's last switch is the one Chromium keeps; its renderers carry the result.
    for (const cmd of [main.cmdline, renderer.cmdline]) {
      const ours = disabledFeatures(cmd);
      expect(ours).toEqual(expect.arrayContaining([...playwrights, ...ARIADNE_DISABLED_FEATURES]));
    }
    await pool.release(lease.id);
  });

  it("no context's window keeps the browser's own WebUI pages (the omnibox popup) in renderers", async () => {
    // Chromium 156 preloads chrome://omnibox-popup.top-chrome/ for every window, in a renderer
    // of its own; a pool lease is a window. Read from the browser's own target list.
    if (!pool) {
      pool = new BrowserPool({ chromiumPath: CHROMIUM, browsers: 1, maxContextsPerBrowser: 2, maxContexts: 2, warmContexts: 0 });
      await pool.start();
    }
    const leases = [await pool.acquire('t'), await pool.acquire('t')];
    try {
      await leases[0].page.setContent('<p>one</p>');
      await leases[1].page.setContent('<p>two</p>');
      const cdp = await leases[0].page.context().browser()!.newBrowserCDPSession();
      const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
      await cdp.detach();
      const chromeUi = targetInfos.filter((t) => t.type !== 'page' && t.type !== 'tab' && t.url.startsWith('chrome://'));
      expect(targetInfos.filter((t) => t.type === 'page').length).toBeGreaterThanOrEqual(2);
      expect(chromeUi.map((t) => `${t.type} ${t.url}`)).toEqual([]);
    } finally {
      for (const l of leases) await pool.release(l.id);
    }
  });

  it('a page task a click starts can run before the next frame', async () => {
    // With the feature on, a timer of 0 set by a click's handler never runs before the
    // renderer has produced its next frame: the animation frame callback the same handler
    // asked for always comes first (stock Playwright: 20 of 20 clicks). Off, the timer
    // usually runs first (19 of 20 here; the frame wins when it was due at that moment).
    // Order, not timing: a loaded machine cannot make it pass on the old code.
    if (!pool) {
      pool = new BrowserPool({ chromiumPath: CHROMIUM, browsers: 1, maxContextsPerBrowser: 2, maxContexts: 2, warmContexts: 0 });
      await pool.start();
    }
    const lease = await pool.acquire('t');
    await lease.page.setContent(`<button onclick="
      window.order = [];
      requestAnimationFrame(() => order.push('frame'));
      setTimeout(() => order.push('timer'), 0);
    ">Go</button>`);
    const orders: string[] = [];
    for (let i = 0; i < 10; i++) {
      await lease.page.getByRole('button', { name: 'Go' }).click();
      await lease.page.waitForFunction(() => (window as unknown as { order: string[] }).order.length === 2);
      orders.push(await lease.page.evaluate(() => (window as unknown as { order: string[] }).order.join(',')));
    }
    expect(orders).toContain('timer,frame');
    await pool.release(lease.id);
  });
});
