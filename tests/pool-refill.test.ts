import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserPool } from '@ariadne/pool';
import { waitUntil } from './helpers/process.js';

// With browser-per-tenant isolation the pool keeps one spare browser for the next new
// tenant. Leases and releases each ask for a refill; refills that overlapped each saw
// "no spare" while another was still launching one, and the pool ended up holding
// several spare Chromium processes (seen in CI as 5 browsers where 3 is the bound).

let pool: BrowserPool | undefined;
let dir: string | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A Chromium that takes `seconds` longer to start, as on a loaded machine. */
function slowChromium(seconds: number): string {
  dir = mkdtempSync(path.join(tmpdir(), 'ariadne-slow-chromium-'));
  const file = path.join(dir, 'chromium');
  writeFileSync(file, `#!/bin/sh\nsleep ${seconds}\nexec ${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Every refill finished: nothing launched or warmed for a while. */
async function settled(p: BrowserPool): Promise<void> {
  let quietSince = Date.now();
  let last = '';
  await waitUntil(() => {
    const s = p.stats();
    const now = JSON.stringify([s.browsers.length, s.warming, s.warm]);
    if (now !== last || s.warming > 0) {
      last = now;
      quietSince = Date.now();
    }
    return Date.now() - quietSince > 3000;
  }, 60_000, 'the pool to settle', 100);
}

describe('browser pool refill', () => {
  it('keeps one spare browser however many refills overlap', async () => {
    pool = new BrowserPool({
      chromiumPath: slowChromium(1.5),
      browsers: 1,
      maxContextsPerBrowser: 4,
      maxContexts: 40,
      warmContexts: 1,
      isolation: 'tenant',
      maxBrowsers: 20,
      tenantBrowserIdleMs: 600_000,
    });
    await pool.start();
    const p = pool;
    // Three tenants hold leases; the pool settles with its one spare.
    const held = await Promise.all(['a', 'b', 'c'].map((t) => p.acquire(t)));
    await settled(p);
    expect(p.stats().browsers.filter((b) => !b.dedicated)).toHaveLength(1);
    // A new tenant claims the spare; a second later a refill starts launching the next
    // one (slowly). Meanwhile the other tenants give their leases back, and each release
    // asks for a refill of its own.
    await p.release((await p.acquire('d')).id);
    await new Promise((r) => setTimeout(r, 1200));
    for (const lease of held) {
      await p.release(lease.id);
      await new Promise((r) => setTimeout(r, 150));
    }
    await settled(p);
    const spares = p.stats().browsers.filter((b) => !b.dedicated);
    expect(spares.length, JSON.stringify(p.stats().browsers)).toBe(1);
  }, 90_000);
});
