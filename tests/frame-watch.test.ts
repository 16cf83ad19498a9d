import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, type Lease } from '@ariadne/pool';
import { PENDING_FRAMES_KEY } from '@ariadne/page';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// Every document of a pool context counts the animation-frame callbacks it has asked for
// (packages/page/src/frame-watch.ts): the settle look waits for a frame only when some are
// pending. The wrappers must behave as the native functions do for the page.

let pool: BrowserPool;
let fx: FixtureServer;
let lease: Lease;

beforeAll(async () => {
  fx = await startFixtureServer();
  pool = new BrowserPool({ chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', browsers: 1, maxContextsPerBrowser: 2, maxContexts: 2, warmContexts: 0 });
  await pool.start();
  lease = await pool.acquire('t');
  await lease.page.goto(`${fx.url}/settle.html`);
});
afterAll(async () => {
  await pool?.close();
  await fx?.close();
});

describe('pending animation frames', () => {
  it('counts callbacks asked for until they run or are cancelled', async () => {
    const seen = await lease.page.evaluate(async (key) => {
      const pending = (window as unknown as Record<symbol, () => number>)[Symbol.for(key)];
      const out: number[] = [pending()];
      let ran = 0;
      requestAnimationFrame(() => ran++);
      const cancelled = requestAnimationFrame(() => ran++);
      out.push(pending());
      cancelAnimationFrame(cancelled);
      out.push(pending());
      // A callback asking for the next frame keeps one pending (an animation loop).
      await new Promise<void>((resolve) => requestAnimationFrame(() => {
        out.push(pending());
        requestAnimationFrame(() => resolve());
        out.push(pending());
      }));
      await new Promise((r) => setTimeout(r, 0));
      out.push(pending(), ran);
      return out;
    }, PENDING_FRAMES_KEY);
    // before, two asked, one cancelled, inside a callback (its own no longer counts), after
    // it asked again, all done; one of the two ran.
    expect(seen).toEqual([0, 2, 1, 0, 1, 0, 1]);
  });

  it('the wrappers keep the native names, arity, receiver rules and errors', async () => {
    const facts = await lease.page.evaluate(() => {
      const r = window.requestAnimationFrame;
      let error = '';
      try {
        (r as unknown as (x: unknown) => number)('not a function');
      } catch (e) {
        error = (e as Error).constructor.name;
      }
      const unbound = r(() => {}); // called without a receiver, as `const r = requestAnimationFrame; r(cb)`
      return { name: r.name, length: r.length, cancel: window.cancelAnimationFrame.name, error, unbound: typeof unbound, enumerable: Object.keys(window).some((k) => /ariadne/i.test(k)) };
    });
    expect(facts).toEqual({ name: 'requestAnimationFrame', length: 1, cancel: 'cancelAnimationFrame', error: 'TypeError', unbound: 'number', enumerable: false });
  });

  it('a page that replaces requestAnimationFrame itself still works', async () => {
    // Polyfills and zone.js wrap whatever they find: ours is underneath and still counts.
    const n = await lease.page.evaluate(async (key) => {
      const inner = window.requestAnimationFrame;
      window.requestAnimationFrame = (cb) => inner((t) => cb(t));
      const pending = (window as unknown as Record<symbol, () => number>)[Symbol.for(key)];
      await new Promise((resolve) => window.requestAnimationFrame(resolve));
      window.requestAnimationFrame(() => {});
      return pending();
    }, PENDING_FRAMES_KEY);
    expect(n).toBe(1);
  });
});
