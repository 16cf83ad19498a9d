// Snapshot latency, small and wide page, three ways on the same page:
//  - raw playwright-core in this process: page.ariaSnapshot({ mode: 'ai' }) on a page in a
//    separate browser launched with the pool's flags and viewport (the baseline);
//  - Ariadne: GET /v1/sessions/:id/roles/default/snapshot over HTTP with the default
//    budget and with maxTokens=1000000 (the whole tree), timed to the last byte;
//  - Playwright MCP (@playwright/mcp over stdio): browser_snapshot.
// Pages: the 12-card shop (tests/fixtures/products.html) and the large fixture
// (tests/fixtures/large.html, 5,000 generated elements by default). Interleaved rounds, the
// order rotating each round, so load drift hits every variant alike. Also the server's own
// cost alone: snapshotView() on the same JSON tree in this process. Figures only.
//
//   npm run bench:snapshot          (after npx tsc -b)
//   node bench/snapshot-latency.mjs --iterations=15 --elements=5000 --warmup=2 [--quick]

import { performance } from 'node:perf_hooks';
import { DEFAULT_VIEWPORT } from '@ariadne/pool';
import { DEFAULT_MAX_TOKENS, estimateTokens, snapshotView } from '@ariadne/page';
import {
  checkNoLeftovers, intArg, runAsScript, launchRawBrowser, machineLine, onCleanup,
  startBenchService, startStaticServer, timed, timingRow, valueRow,
} from './lib.mjs';
import { startPlaywrightMcp } from './playwright-mcp.mjs';

export async function run({ quick = false } = {}) {
  const ITERATIONS = intArg('iterations', quick ? 5 : 15);
  const ELEMENTS = intArg('elements', 5000);
  const WARMUP = intArg('warmup', quick ? 1 : 2);
  const MARKER = `--ariadne-bench=${process.pid}-snapshot`;
  const markers = new Set([MARKER]);
  let svc = null;
  let fixtures = null;
  let browser = null;
  let mcp = null;
  const cleanup = onCleanup(async () => {
    await mcp?.close();
    await browser?.close().catch(() => {});
    await svc?.stop().catch((err) => console.error('stop failed:', err));
    await fixtures?.close().catch(() => {});
    await checkNoLeftovers(markers);
  });

  console.log(`snapshot-latency: products.html and large.html?n=${ELEMENTS}, ${ITERATIONS} interleaved rounds (+${WARMUP} warm-up)`);
  console.log(machineLine());
  try {
    fixtures = await startStaticServer();
    browser = await launchRawBrowser(MARKER);
    const page = await (await browser.newContext({ viewport: DEFAULT_VIEWPORT })).newPage();
    svc = await startBenchService({ POOL_WARM_CONTEXTS: '1' });
    for (const m of svc.markers) markers.add(m);
    const base = svc.url;
    const { json: session } = await timed('POST', `${base}/v1/sessions`, {});
    const api = `${base}/v1/sessions/${session.id}/roles/default`;
    mcp = await startPlaywrightMcp();

    const rows = [];
    for (const [label, file] of [['small (shop, products.html)', 'products.html'], [`wide (large.html, ${ELEMENTS} elements)`, `large.html?n=${ELEMENTS}`]]) {
      const url = `${fixtures.url}/${file}`;
      await page.goto(url);
      await timed('POST', `${api}/actions`, { action: 'navigate', url });
      await mcp.call('browser_navigate', { url });
      const variants = {
        raw: async () => {
          const t0 = performance.now();
          const yaml = await page.ariaSnapshot({ mode: 'ai' });
          return { ms: performance.now() - t0, tokens: estimateTokens(yaml.length) };
        },
        default: async () => {
          const r = await timed('GET', `${api}/snapshot`);
          return { ms: r.ms, tokens: r.json.tokens, body: r.json };
        },
        whole: async () => {
          const r = await timed('GET', `${api}/snapshot?maxTokens=1000000`);
          return { ms: r.ms, tokens: r.json.tokens, body: r.json };
        },
        mcp: async () => {
          const r = await mcp.call('browser_snapshot', {});
          return { ms: r.ms, tokens: estimateTokens(r.text.length) };
        },
      };
      const names = Object.keys(variants);
      const times = Object.fromEntries(names.map((n) => [n, []]));
      const last = {};
      for (let round = 0; round < WARMUP + ITERATIONS; round++) {
        for (let k = 0; k < names.length; k++) {
          const name = names[(round + k) % names.length];
          last[name] = await variants[name]();
          if (round >= WARMUP) times[name].push(last[name].ms);
        }
      }
      const m = `snapshot ${label}`;
      const opts = { baseline: times.raw, ratioTo: 'raw' };
      rows.push(timingRow(m, 'raw page.ariaSnapshot({ mode: ai })', 'raw', times.raw, { ...opts, note: `${last.raw.tokens} tokens` }));
      rows.push(timingRow(m, `Ariadne GET snapshot (default maxTokens=${DEFAULT_MAX_TOKENS})`, 'ariadne', times.default, { ...opts, note: `${last.default.tokens} tokens, ${last.default.body.totalRefs} refs in the page, truncated=${last.default.body.truncated}` }));
      rows.push(timingRow(m, 'Ariadne GET snapshot (maxTokens=1000000)', 'ariadne', times.whole, { ...opts, note: `${last.whole.tokens} tokens` }));
      rows.push(timingRow(m, 'Playwright MCP browser_snapshot', 'playwright-mcp', times.mcp, { ...opts, note: `${last.mcp.tokens} tokens (chars / 4)` }));

      // The server's own work (the budgeted cut, measuring the body) on the same JSON tree,
      // through snapshotView with a stand-in tab: neither the in-page snapshot nor transport.
      try {
        const tree = await page.ariaSnapshotJSON({ mode: 'ai' });
        const fakeTab = {
          id: 'p1',
          page: { url: () => url, title: async () => 'bench' },
          lastSnapshot: null,
          isStaleRef: () => false,
          assertNoDialog() {},
          async snapshot() {
            return { current: { id: 's1', tree: Array.isArray(tree) ? tree : [tree], takenAt: Date.now(), epoch: 0 }, previous: null };
          },
        };
        const view = [];
        for (let i = 0; i < ITERATIONS; i++) {
          const t0 = performance.now();
          await snapshotView(fakeTab, { timeoutMs: 15_000 });
          view.push(performance.now() - t0);
        }
        rows.push(timingRow(m, 'server-side view only (snapshotView, default budget, in process)', 'ariadne', view));
      } catch (err) {
        // Auxiliary figure: a change in the tab's shape must not sink the bench.
        rows.push(valueRow(m, 'server-side view only', 'ariadne', 'n/a', err.message));
      }
    }
    await timed('DELETE', `${base}/v1/sessions/${session.id}`);
    return { rows };
  } finally {
    await cleanup();
  }
}

runAsScript(import.meta.url, run);
