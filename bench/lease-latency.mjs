// Lease latency: how long until an agent can read a fresh session's page.
//  - Ariadne: POST /v1/sessions until the first GET snapshot of it is answered, over HTTP,
//    in two configurations: POOL_WARM_CONTEXTS=0 (every lease pays newContext + newPage)
//    and POOL_WARM_CONTEXTS=2 (a lease takes a ready context);
//  - raw playwright-core in this process: browser.newContext() + newPage() + ariaSnapshot()
//    on a browser already running (the pool's flags);
//  - Playwright MCP (@playwright/mcp over stdio): a new server process, connect, and the
//    first browser_snapshot (one process is one session; it launches its browser there).
// Iterations alternate between them (the order rotating every round) so load drift on a
// shared machine hits all alike; before each one the Ariadne pools are left to settle
// (nothing leased, warm set full). Playwright MCP takes seconds per lease: it runs in
// fewer rounds (--mcp-iterations). Figures only.
//
//   npm run bench:lease            (after npx tsc -b)
//   node bench/lease-latency.mjs --iterations=20 --warmup=2 [--quick]

import { performance } from 'node:perf_hooks';
import { DEFAULT_VIEWPORT } from '@ariadne/pool';
import {
  checkNoLeftovers, intArg, runAsScript, launchRawBrowser, machineLine, median, min, onCleanup,
  startBenchService, timed, timingRow, valueRow,
} from './lib.mjs';
import { startPlaywrightMcp } from './playwright-mcp.mjs';

const SETTLE_TIMEOUT_MS = 15_000;

export async function run({ quick = false } = {}) {
  const ITERATIONS = intArg('iterations', quick ? 6 : 20);
  const MCP_ITERATIONS = intArg('mcp-iterations', quick ? 3 : 8);
  const WARMUP = intArg('warmup', quick ? 1 : 2);
  const MARKER = `--ariadne-bench=${process.pid}-lease`;
  const markers = new Set([MARKER]);
  const configs = [];
  let browser = null;
  const cleanup = onCleanup(async () => {
    await browser?.close().catch(() => {});
    for (const c of configs) await c.svc.stop().catch((err) => console.error('stop failed:', err));
    await checkNoLeftovers(markers);
  });

  /** Wait until a pool is at rest: nothing leased, the warm set full again. */
  async function settle(c) {
    const t0 = performance.now();
    for (;;) {
      const s = c.svc.service.pool.stats();
      if (s.leased === 0 && s.warm >= c.warmContexts) return true;
      if (performance.now() - t0 > SETTLE_TIMEOUT_MS) return false;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
  async function startConfig(label, warmContexts) {
    const svc = await startBenchService({ POOL_WARM_CONTEXTS: String(warmContexts) });
    for (const m of svc.markers) markers.add(m);
    const c = { label, warmContexts, svc, create: [], snapshot: [], lease: [], unsettled: 0, foundWarm: 0 };
    configs.push(c);
    return c;
  }
  async function ariadne(c, counted) {
    for (const other of configs) if (!(await settle(other)) && counted) c.unsettled++;
    const { url, service } = c.svc;
    const warmBefore = service.pool.stats().warm;
    const t0 = performance.now();
    const created = await timed('POST', `${url}/v1/sessions`, {});
    const snap = await timed('GET', `${url}/v1/sessions/${created.json.id}/roles/default/snapshot`);
    const total = performance.now() - t0;
    await timed('DELETE', `${url}/v1/sessions/${created.json.id}`);
    if (!counted) return; // the first requests pay JIT and connection setup
    if (warmBefore > 0) c.foundWarm++;
    c.create.push(created.ms);
    c.snapshot.push(snap.ms);
    c.lease.push(total);
  }
  const raw = [];
  async function rawLease(counted) {
    const t0 = performance.now();
    const context = await browser.newContext({ viewport: DEFAULT_VIEWPORT });
    const page = await context.newPage();
    await page.ariaSnapshot({ mode: 'ai' });
    const ms = performance.now() - t0;
    await context.close();
    if (counted) raw.push(ms);
  }
  const mcp = [];
  const mcpConnect = [];
  const mcpFirst = [];
  async function mcpLease() {
    const t0 = performance.now();
    const m = await startPlaywrightMcp();
    try {
      mcpConnect.push(performance.now() - t0);
      mcpFirst.push((await m.call('browser_snapshot', {})).ms);
      mcp.push(performance.now() - t0);
    } finally {
      await m.close();
    }
  }

  console.log(`lease-latency: ${ITERATIONS} iterations (Playwright MCP ${MCP_ITERATIONS}) per configuration (+${WARMUP} warm-up), sequential, rotating order`);
  console.log(machineLine());
  try {
    browser = await launchRawBrowser(MARKER);
    const cold = await startConfig('cold', 0);
    const warm = await startConfig('warm', 2);
    const steps = [(c) => ariadne(cold, c), (c) => ariadne(warm, c), (c) => rawLease(c)];
    for (let i = 0; i < WARMUP + ITERATIONS; i++) {
      const counted = i >= WARMUP;
      const order = [...steps.slice(i % steps.length), ...steps.slice(0, i % steps.length)];
      // Every Playwright MCP lease is a fresh process: no warm-up round for it.
      if (counted && i < WARMUP + MCP_ITERATIONS) order.splice(i % (order.length + 1), 0, () => mcpLease(true));
      for (const step of order) await step(counted);
    }
    const rows = [];
    const note = (c) => `${c.foundWarm}/${c.lease.length} found a warm context${c.unsettled ? `; ${c.unsettled} unsettled` : ''}`;
    for (const c of [cold, warm]) {
      const name = `Ariadne ${c.label} (POOL_WARM_CONTEXTS=${c.warmContexts})`;
      rows.push(timingRow('lease: create only', name, 'ariadne', c.create));
      rows.push(timingRow('lease: first snapshot', name, 'ariadne', c.snapshot));
      rows.push(timingRow('lease = create + first snapshot', name, 'ariadne', c.lease, { baseline: raw, ratioTo: 'raw', note: note(c) }));
    }
    rows.push(timingRow('lease = create + first snapshot', 'raw newContext + newPage + ariaSnapshot', 'raw', raw, { baseline: raw, ratioTo: 'raw' }));
    rows.push(timingRow('lease: create only', 'Playwright MCP: spawn the server + connect', 'playwright-mcp', mcpConnect));
    rows.push(timingRow('lease: first snapshot', 'Playwright MCP: first browser_snapshot (launches its browser)', 'playwright-mcp', mcpFirst));
    rows.push(timingRow('lease = create + first snapshot', 'Playwright MCP: spawn + connect + browser_snapshot', 'playwright-mcp', mcp, { baseline: raw, ratioTo: 'raw' }));
    rows.push(valueRow('lease = create + first snapshot', 'Ariadne warm / Playwright MCP (medians)', 'ariadne', Number((median(warm.lease) / median(mcp)).toFixed(3))));
    rows.push(valueRow('lease = create + first snapshot', 'Ariadne warm / cold (minimums)', 'ariadne', Number((min(warm.lease) / min(cold.lease)).toFixed(2))));
    return { rows };
  } finally {
    await cleanup();
  }
}

runAsScript(import.meta.url, run);
