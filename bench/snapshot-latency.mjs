// Snapshot latency on the large fixture (tests/fixtures/large.html, 5,000 elements by
// default): playwright-core's page.ariaSnapshot({ mode: 'ai' }) called directly on a page
// in a separate browser launched in this process (the baseline), against
// GET /v1/sessions/:id/roles/default/snapshot over HTTP with the default budget and with
// maxTokens=1000000 (the whole tree). Interleaved rounds, the order rotating each round,
// so load drift on a shared machine hits every variant alike. Prints figures only.
//
//   npm run bench:snapshot          (after npx tsc -b)
//   node bench/snapshot-latency.mjs --iterations=15 --elements=5000 --warmup=2

import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, DEFAULT_VIEWPORT } from '@ariadne/pool';
import { DEFAULT_MAX_TOKENS, estimateTokens, snapshotView } from '@ariadne/page';
import {
  checkNoLeftovers, fmt, intArg, kb, machineLine, median, min, onCleanup, p90, startBenchService, startStaticServer, table, timed,
} from './lib.mjs';

const ITERATIONS = intArg('iterations', 15);
const ELEMENTS = intArg('elements', 5000);
const WARMUP = intArg('warmup', 2);
const MARKER = `--ariadne-bench=${process.pid}`;

const markers = new Set([MARKER]);
let svc = null;
let fixtures = null;
let browser = null;
const cleanup = onCleanup(async () => {
  await browser?.close().catch(() => {});
  await svc?.stop().catch((err) => console.error('stop failed:', err));
  await fixtures?.close().catch(() => {});
  await checkNoLeftovers(markers);
});

console.log(`snapshot-latency: large.html?n=${ELEMENTS}, ${ITERATIONS} interleaved rounds (+${WARMUP} warm-up, not counted)`);
console.log(machineLine());
try {
  fixtures = await startStaticServer();
  const pageUrl = `${fixtures.url}/large.html?n=${ELEMENTS}`;

  // Baseline: a separate browser with the pool's flags and viewport, driven directly.
  // Playwright's own signal handlers would close every browser of this process, the
  // service's included, and exit before our cleanup ran: the bench handles signals.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, MARKER],
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
  const context = await browser.newContext({ viewport: DEFAULT_VIEWPORT });
  const page = await context.newPage();
  await page.goto(pageUrl);
  const generated = Number(await page.getAttribute('body', 'data-elements'));
  const domElements = await page.evaluate(() => document.getElementsByTagName('*').length);

  svc = await startBenchService({ POOL_WARM_CONTEXTS: '1' });
  for (const m of svc.markers) markers.add(m);
  const base = svc.url;
  const { json: session } = await timed('POST', `${base}/v1/sessions`, {});
  const snapUrl = `${base}/v1/sessions/${session.id}/roles/default/snapshot`;
  await timed('POST', `${base}/v1/sessions/${session.id}/roles/default/actions`, { action: 'navigate', url: pageUrl });

  const variants = {
    'direct ariaSnapshot (yaml)': async () => {
      const t0 = performance.now();
      const yaml = await page.ariaSnapshot({ mode: 'ai' });
      return { ms: performance.now() - t0, bytes: Buffer.byteLength(yaml), tokens: estimateTokens(yaml.length) };
    },
    // What the service itself calls: same in-page work, the tree comes back as JSON.
    'direct ariaSnapshotJSON': async () => {
      const t0 = performance.now();
      const tree = await page.ariaSnapshotJSON({ mode: 'ai' });
      const json = JSON.stringify(tree);
      return { ms: performance.now() - t0, bytes: Buffer.byteLength(json), tokens: estimateTokens(json.length), tree };
    },
    [`HTTP snapshot (default maxTokens=${DEFAULT_MAX_TOKENS})`]: async () => {
      const r = await timed('GET', snapUrl);
      return { ms: r.ms, bytes: r.bytes, tokens: r.json.tokens, body: r.json };
    },
    'HTTP snapshot (maxTokens=1000000)': async () => {
      const r = await timed('GET', `${snapUrl}?maxTokens=1000000`);
      return { ms: r.ms, bytes: r.bytes, tokens: r.json.tokens, body: r.json };
    },
  };
  const names = Object.keys(variants);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  const last = {};
  for (let round = 0; round < WARMUP + ITERATIONS; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const r = await variants[name]();
      last[name] = r;
      if (round >= WARMUP) times[name].push(r.ms);
    }
  }

  // The server's own work on a snapshot (cutting the view to the budget, measuring the
  // body), timed in this process on the same JSON tree through snapshotView with a
  // stand-in for the tab that hands it that tree: the part of the HTTP figure that is
  // neither the in-page snapshot nor transport.
  const tree = last['direct ariaSnapshotJSON'].tree;
  const fakeTab = {
    id: 'p1',
    page: { url: () => pageUrl, title: async () => 'Large catalogue' },
    lastSnapshot: null,
    isStaleRef: () => false,
    assertNoDialog() {},
    async snapshot() {
      return { current: { id: 's1', tree: Array.isArray(tree) ? tree : [tree], takenAt: Date.now(), epoch: 0 }, previous: null };
    },
  };
  const viewTimes = { default: [], full: [] };
  let viewError = null;
  try {
    for (let i = 0; i < ITERATIONS; i++) {
      for (const [key, maxTokens] of [['default', undefined], ['full', 1_000_000]]) {
        const t0 = performance.now();
        await snapshotView(fakeTab, { maxTokens, timeoutMs: 15_000 });
        viewTimes[key].push(performance.now() - t0);
      }
    }
  } catch (err) {
    viewError = err; // auxiliary figure: a change in PageState's shape must not sink the bench
  }

  const directName = names[0];
  const directMedian = median(times[directName]);
  console.log('');
  console.log(`page: ${generated} generated elements, ${domElements} DOM elements in total`);
  table(
    ['variant', 'median ms', 'p90 ms', 'min ms', 'x direct', 'size KB', 'tokens'],
    names.map((n) => [
      n, fmt(median(times[n])), fmt(p90(times[n])), fmt(min(times[n])), (median(times[n]) / directMedian).toFixed(2),
      kb(last[n].bytes), String(last[n].tokens),
    ]),
  );
  console.log('');
  if (viewError) {
    console.log(`server-side view only: n/a (${viewError.message})`);
  } else {
    table(
      ['server-side view only (snapshotView, same tree, in process)', 'median ms', 'p90 ms'],
      [
        [`default maxTokens=${DEFAULT_MAX_TOKENS}`, fmt(median(viewTimes.default)), fmt(p90(viewTimes.default))],
        ['maxTokens=1000000', fmt(median(viewTimes.full)), fmt(p90(viewTimes.full))],
      ],
    );
  }
  const full = last['HTTP snapshot (maxTokens=1000000)'].body;
  const budgeted = last[names[2]].body;
  console.log('');
  console.log(`snapshot totals: ${full.totalNodes} nodes, ${full.totalRefs} refs (whole tree served: truncated=${full.truncated})`);
  console.log(`default budget: truncated=${budgeted.truncated}, ${budgeted.truncation?.omittedNodes ?? 0} nodes / ${budgeted.truncation?.omittedRefs ?? 0} refs left out`);
  console.log(`ratio HTTP/direct (medians): default budget ${(median(times[names[2]]) / directMedian).toFixed(2)}, whole tree ${(median(times[names[3]]) / directMedian).toFixed(2)}`);
  // Minimums are the least disturbed by other load on a shared machine.
  const directMin = min(times[directName]);
  console.log(`ratio HTTP/direct (minimums): default budget ${(min(times[names[2]]) / directMin).toFixed(2)}, whole tree ${(min(times[names[3]]) / directMin).toFixed(2)}`);
  const yamlChars = last[directName].bytes;
  const servedChars = typeof full.snapshot === 'string' ? full.snapshot.length : 0;
  console.log(`whole-tree YAML: served ${kb(servedChars)} KB vs Playwright's ${kb(yamlChars)} KB`);
  await timed('DELETE', `${base}/v1/sessions/${session.id}`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
