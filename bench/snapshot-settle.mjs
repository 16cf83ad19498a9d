// Issue 12 §1 and §2 figures. (1) A wide page (tests/fixtures/wide-catalogue.html, 1,000
// cards in one list): refs and tokens in the default snapshot, and whether sampled cards
// are reachable with one ?ref=&offset= call. (2) A click with each settle policy on a static
// reaction (the shop's Add to Cart, tests/fixtures/products.html): Ariadne click + diff with
// settle auto, none and 500 ms, against a raw playwright-core click + ariaSnapshot in this
// process (the baseline; the click alone both ways too) and Playwright MCP's browser_click (its fixed 500 ms settle and a
// snapshot), interleaved rounds. (3) A click whose answer renders after a 300 ms fetch
// (tests/fixtures/settle.html?ms=300), counted over N runs per policy: how often the
// returned diff holds the change. Figures only.
//
//   npm run bench:settle     node bench/snapshot-settle.mjs --iterations=30 --runs=50 [--quick]

import { performance } from 'node:perf_hooks';
import { DEFAULT_VIEWPORT } from '@ariadne/pool';
import {
  checkNoLeftovers, intArg, runAsScript, launchRawBrowser, machineLine, median, onCleanup,
  startBenchService, startStaticServer, timed, timingRow, valueRow,
} from './lib.mjs';
import { mcpRef, startPlaywrightMcp } from './playwright-mcp.mjs';

export async function run({ quick = false } = {}) {
  const ITERATIONS = intArg('iterations', quick ? 8 : 30);
  const RUNS = intArg('runs', quick ? 20 : 50);
  const WARMUP = 2;
  const IDLE_BEFORE_MS = 150;
  const MARKER = `--ariadne-bench=${process.pid}-settle`;
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

  console.log(`snapshot-settle: ${ITERATIONS} interleaved click rounds, ${RUNS} fetch-then-render runs per policy`);
  console.log(machineLine());
  try {
    fixtures = await startStaticServer();
    svc = await startBenchService({ POOL_WARM_CONTEXTS: '1' });
    for (const m of svc.markers) markers.add(m);
    const base = svc.url;
    const session = (await timed('POST', `${base}/v1/sessions`, {})).json;
    const api = `${base}/v1/sessions/${session.id}/roles/default`;
    const act = (body) => timed('POST', `${api}/actions`, body);
    const rows = [];

    // (1) The wide page.
    await act({ action: 'navigate', url: `${fixtures.url}/wide-catalogue.html` });
    const wideTimes = [];
    let wide;
    for (let i = 0; i < (quick ? 3 : 5); i++) {
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
      if (!fold) continue;
      const page = await timed('GET', `${api}/snapshot?ref=${fold[2]}&offset=${i}`);
      offsetTimes.push(page.ms);
      if (page.json.snapshot.includes(`heading "Product ${i + 1}"`) && page.json.tokens <= 8000) reachable++;
    }
    const W = 'wide page (wide-catalogue.html, 1,000 cards), default budget';
    rows.push(valueRow(W, 'refs in the page', 'ariadne', wide.json.totalRefs));
    rows.push(valueRow(W, 'refs shown by default', 'ariadne', shownRefs, `${wide.json.tokens} tokens; fold: ${fold ? fold[0] : 'none'}`));
    rows.push(valueRow(W, 'sampled cards reachable in <= 1 offset call', 'ariadne', `${reachable}/${sample.length}`));
    rows.push(timingRow(W, 'default snapshot', 'ariadne', wideTimes));
    if (offsetTimes.length) rows.push(timingRow(W, 'offset snapshot (?ref=&offset=)', 'ariadne', offsetTimes));

    // (2) Click with each settle policy on a static reaction: the shop's Add to Cart.
    const shop = `${fixtures.url}/products.html`;
    browser = await launchRawBrowser(MARKER);
    const page = await (await browser.newContext({ viewport: DEFAULT_VIEWPORT })).newPage();
    await page.goto(shop);
    await act({ action: 'navigate', url: shop });
    const snap = (await timed('GET', `${api}/snapshot`)).json.snapshot;
    const add = /button "Add to Cart" \[ref=([a-z0-9]+)\]/.exec(snap)?.[1];
    if (!add) throw new Error(`no Add to Cart button in:\n${snap}`);
    mcp = await startPlaywrightMcp();
    await mcp.call('browser_navigate', { url: shop });
    const mcpAdd = mcpRef((await mcp.call('browser_snapshot', {})).text, 'button', 'Add to Cart');
    const variants = {
      'raw click + ariaSnapshot': async () => {
        const t0 = performance.now();
        await page.getByRole('button', { name: 'Add to Cart' }).first().click();
        await page.ariaSnapshot({ mode: 'ai' });
        return performance.now() - t0;
      },
      // Where the time goes: the click alone, both ways.
      'raw click alone': async () => {
        const t0 = performance.now();
        await page.getByRole('button', { name: 'Add to Cart' }).first().click();
        return performance.now() - t0;
      },
      'Ariadne click, no snapshot, settle auto': async () => (await act({ action: 'click', ref: add })).ms,
      'Ariadne click + diff, settle auto': async () => (await act({ action: 'click', ref: add, snapshot: 'diff' })).ms,
      'Ariadne click + diff, settle none': async () => (await act({ action: 'click', ref: add, snapshot: 'diff', settle: 'none' })).ms,
      'Ariadne click + diff, settle 500 (ms cap)': async () => (await act({ action: 'click', ref: add, snapshot: 'diff', settle: 500 })).ms,
      'Playwright MCP browser_click (500 ms settle + snapshot)': async () => (await mcp.call('browser_click', { target: mcpAdd })).ms,
    };
    const names = Object.keys(variants);
    const times = Object.fromEntries(names.map((n) => [n, []]));
    for (let round = 0; round < ITERATIONS + WARMUP; round++) {
      for (let k = 0; k < names.length; k++) {
        const name = names[(round + k) % names.length];
        // Every variant starts from a page left alone for a while: a click right after
        // the previous click on the same page took 5–10 ms longer (the cyclic order put
        // "raw click alone" always right behind "raw click + ariaSnapshot" on the raw page).
        // The pause is jittered over a frame or two: a click waits for animation frames, so
        // a fixed pause would sample each variant at one phase of the frame clock.
        await new Promise((r) => setTimeout(r, IDLE_BEFORE_MS + Math.random() * 34));
        const ms = await variants[name]();
        if (round >= WARMUP) times[name].push(ms);
      }
    }
    const raw = times[names[0]];
    const C = 'click, static reaction (shop Add to Cart)';
    for (const n of names) {
      const against = n.startsWith('raw') ? 'raw' : n.startsWith('Playwright MCP') ? 'playwright-mcp' : 'ariadne';
      const r = median(times[n]) / median(raw);
      const note = n === 'Ariadne click + diff, settle auto' ? `acceptance: <= 1.3 × raw → ${r.toFixed(3)}, ${r <= 1.3 ? 'met' : 'NOT met'}` : undefined;
      rows.push(timingRow(C, n, against, times[n], { baseline: raw, ratioTo: 'raw', note }));
    }

    // (3) A click whose answer renders after a 300 ms fetch: does the returned diff hold it?
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
    const F = 'click, fetch (300 ms) then render (settle.html)';
    for (const [policy, v] of Object.entries(results)) {
      rows.push(timingRow(F, `Ariadne click + diff, settle ${policy}`, 'ariadne', v.ms, { note: `diff has the change in ${v.hit}/${RUNS}${policy === 'auto' ? ` (acceptance: ${RUNS}/${RUNS} → ${v.hit === RUNS ? 'met' : 'NOT met'})` : ''}` }));
    }
    await timed('DELETE', `${base}/v1/sessions/${session.id}`);
    return { rows };
  } finally {
    await cleanup();
  }
}

runAsScript(import.meta.url, run);
