// Issue 12 §1 and §2 figures. (1) A wide page (tests/fixtures/wide-catalogue.html, 1,000
// cards in one list): refs and tokens in the default snapshot, and the calls it takes to
// reach any card with ?ref=&offset=. (2) Settle: a static reaction (click + diff through
// the service, settle auto and none) against a raw playwright-core click + ariaSnapshot in
// the same process, interleaved; and a click whose answer renders after a 300 ms fetch,
// counted over N runs: how often the returned diff holds the change. Prints figures only.
//
//   npm run bench:settle          node bench/snapshot-settle.mjs --iterations=30 --runs=50

import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, DEFAULT_VIEWPORT } from '@ariadne/pool';
import {
  checkNoLeftovers, fmt, intArg, machineLine, median, onCleanup, p90, startBenchService, startStaticServer, table, timed,
} from './lib.mjs';

const ITERATIONS = intArg('iterations', 30);
const RUNS = intArg('runs', 50);
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

console.log(`snapshot-settle: ${ITERATIONS} interleaved rounds, ${RUNS} fetch-then-render runs`);
console.log(machineLine());
try {
  fixtures = await startStaticServer();
  svc = await startBenchService({ POOL_WARM_CONTEXTS: '1' });
  for (const m of svc.markers) markers.add(m);
  const base = svc.url;
  const session = (await timed('POST', `${base}/v1/sessions`, {})).json;
  const api = `${base}/v1/sessions/${session.id}/roles/default`;
  const act = (body) => timed('POST', `${api}/actions`, body);

  // (1) The wide page.
  await act({ action: 'navigate', url: `${fixtures.url}/wide-catalogue.html` });
  const wideTimes = [];
  let wide;
  for (let i = 0; i < 5; i++) {
    wide = await timed('GET', `${api}/snapshot`);
    wideTimes.push(wide.ms);
  }
  const text = wide.json.snapshot;
  const shownRefs = (text.match(/\[ref=[a-z0-9]+\]/g) ?? []).length;
  const fold = /… (\d+) more listitem \(ref=([a-z0-9]+), offset=(\d+)\)/.exec(text);
  let reachable = 0;
  const sample = [0, 1, 57, 191, 250, 499, 500, 777, 998, 999];
  const offsetTimes = [];
  for (const i of sample) {
    // Card i+1 is either in the default answer or one offset call away.
    if (text.includes(`heading "Product ${i + 1}"`)) {
      reachable++;
      continue;
    }
    const page = await timed('GET', `${api}/snapshot?ref=${fold[2]}&offset=${i}`);
    offsetTimes.push(page.ms);
    if (page.json.snapshot.includes(`heading "Product ${i + 1}"`) && page.json.tokens <= 8000) reachable++;
  }
  console.log('');
  console.log('wide page: 1,000 cards in one list, default budget (8,000 tokens)');
  table(['figure', 'value'], [
    ['refs in the page', String(wide.json.totalRefs)],
    ['refs shown by default', String(shownRefs)],
    ['tokens of the default answer', String(wide.json.tokens)],
    ['fold line', fold ? fold[0] : 'none'],
    ['sampled cards reachable in <= 1 offset call', `${reachable}/${sample.length}`],
    ['default snapshot median ms', fmt(median(wideTimes))],
    ['offset snapshot median ms', fmt(median(offsetTimes))],
  ]);

  // (2) Settle. Raw baseline: its own browser with the pool's flags, same page.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, MARKER],
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
  const page = await (await browser.newContext({ viewport: DEFAULT_VIEWPORT })).newPage();
  await page.goto(`${fixtures.url}/settle.html`);
  await act({ action: 'navigate', url: `${fixtures.url}/settle.html` });
  const snap = (await timed('GET', `${api}/snapshot`)).json.snapshot;
  const hi = /button "Say hi" \[ref=([a-z0-9]+)\]/.exec(snap)?.[1];
  if (!hi) throw new Error(`no Say hi button in:\n${snap}`);
  const variants = {
    'raw click + ariaSnapshot': async () => {
      const t0 = performance.now();
      await page.getByRole('button', { name: 'Say hi' }).click();
      await page.ariaSnapshot({ mode: 'ai' });
      return performance.now() - t0;
    },
    'service click + diff, settle auto': async () => (await act({ action: 'click', ref: hi, snapshot: 'diff' })).ms,
    'service click + diff, settle none': async () => (await act({ action: 'click', ref: hi, snapshot: 'diff', settle: 'none' })).ms,
  };
  const names = Object.keys(variants);
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < ITERATIONS + 2; round++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(round + k) % names.length];
      const ms = await variants[name]();
      if (round >= 2) times[name].push(ms);
    }
  }
  const rawMedian = median(times[names[0]]);
  console.log('');
  console.log('static reaction (settle.html "Say hi")');
  table(['variant', 'median ms', 'p90 ms', 'x raw'], names.map((n) => [n, fmt(median(times[n])), fmt(p90(times[n])), (median(times[n]) / rawMedian).toFixed(2)]));

  // A click whose answer renders after a 300 ms fetch.
  await act({ action: 'navigate', url: `${fixtures.url}/settle.html?ms=300` });
  const load = /button "Load items" \[ref=([a-z0-9]+)\]/.exec((await timed('GET', `${api}/snapshot`)).json.snapshot)[1];
  const results = { auto: { hit: 0, ms: [] }, none: { hit: 0, ms: [] } };
  let round = 0;
  for (let i = 0; i < RUNS; i++) {
    for (const policy of ['auto', 'none']) {
      round++;
      const r = await act({ action: 'click', ref: load, snapshot: 'diff', settle: policy });
      results[policy].ms.push(r.ms);
      if (JSON.stringify(r.json.snapshot).includes(`Loaded round ${round}`)) results[policy].hit++;
      // Let a 'none' click's fetch land before the next round.
      if (policy === 'none') await act({ action: 'wait_for', text: `Loaded round ${round}` });
    }
  }
  console.log('');
  console.log(`fetch (300 ms) then render, ${RUNS} runs each`);
  table(['settle', 'diff has the change', 'median ms', 'p90 ms'], Object.entries(results).map(([k, v]) => [k, `${v.hit}/${RUNS}`, fmt(median(v.ms)), fmt(p90(v.ms))]));
} finally {
  await cleanup();
}
