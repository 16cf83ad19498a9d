import { afterEach, describe, expect, it } from 'vitest';
import { BrowserPool } from '@ariadne/pool';

// CI failed tenancy-browsers with 503 "The browser chosen for this lease went away":
// on a loaded host a context took longer to make than the tenant's idle time, and the
// idle sweep closed the browser the lease was being made on (it held no lease yet).
// Here context creation is slowed, as on that host; the pool and Chromium are real.

let pool: BrowserPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

/** Make every new context on this pool take `ms` longer, as on a machine at load 20. */
function slowContexts(p: BrowserPool, ms: number): void {
  const target = p as unknown as { newContext: (...a: unknown[]) => Promise<unknown> };
  const made = target.newContext.bind(p);
  target.newContext = async (...a: unknown[]) => {
    await new Promise((r) => setTimeout(r, ms));
    return made(...a);
  };
}

describe('tenant browser idle close', () => {
  it('never closes a browser a lease is being made on', async () => {
    pool = new BrowserPool({
      chromiumPath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      browsers: 1,
      maxContextsPerBrowser: 4,
      maxContexts: 8,
      warmContexts: 0,
      isolation: 'tenant',
      maxBrowsers: 4,
      // Swept every 250 ms; a context here takes 1.2 s.
      tenantBrowserIdleMs: 300,
    });
    await pool.start();
    slowContexts(pool, 1200);
    const p = pool;
    // A first lease, released: the tenant's browser is then idle and swept soon after...
    await p.release((await p.acquire('alpha')).id);
    // ...unless a lease is being made on it. Fresh contexts (a user agent) on the tenant's
    // own browser, and a new tenant's on a browser launched for it.
    const leases = await Promise.all([
      p.acquire('alpha', { userAgent: 'AriadneTest/1' }),
      p.acquire('beta', { userAgent: 'AriadneTest/2' }),
    ]);
    for (const lease of leases) {
      expect(lease.page.isClosed()).toBe(false);
      expect(await lease.page.evaluate(() => navigator.userAgent)).toMatch(/^AriadneTest\//);
    }
    expect(p.stats().browsers.filter((b) => b.leased > 0)).toHaveLength(2);
    for (const lease of leases) await p.release(lease.id);
  }, 60_000);
});
