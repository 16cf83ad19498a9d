#!/usr/bin/env node
// What one snapshot call costs, per layer, on the shop page: Node and Chromium CPU per call,
// sequential, the variants interleaved in rounds (issue 12 §3, bench/README "Where the rest of
// REST's gap is").
//
//   playwright json   page.ariaSnapshotJSON({ mode: 'ai' })   Ariadne's fallback (pages with frames)
//   playwright yaml   page.ariaSnapshot({ mode: 'ai' })       what the raw side of concurrency.mjs calls
//   ariadne direct    directSnapshotJSON (packages/page/src/snapshot/direct.ts): what Ariadne's
//                     server calls since issue 12's last stop, the same in-page function of
//                     the same injected script over the frame's own CDP session
//   bare CDP          Runtime.evaluate over a debugging connection of our own, returning the
//                     same JSON (kept in the page): the wire alone, without Playwright's client,
//                     dispatcher, progress and evaluate serializer. It computes no snapshot,
//                     so its Chromium figure is the floor of a round trip, not a snapshot.
//
//   node bench/snapshot-call-cost.mjs [--calls=200] [--rounds=12]
//
// Prints figures, asserts nothing.

import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { CHROMIUM_FLAGS } from '@ariadne/pool';
import { directSnapshotJSON } from '@ariadne/page';
import { checkNoLeftovers, freePort, intArg, machineLine, median, processTable, startStaticServer, summedCpuMs, table, withDescendants } from './lib.mjs';

const CALLS = intArg('calls', 200);
const ROUNDS = intArg('rounds', 12);
const WARM_ROUNDS = 2;
const MARKER = `--ariadne-bench-call-cost=${process.pid}`;

/** A CDP client on one page target's WebSocket: send(method, params) → result. */
async function cdpClient(url) {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  await new Promise((resolve, reject) => { ws.once('open', resolve); ws.once('error', reject); });
  let id = 0;
  const pending = new Map();
  ws.on('message', (data) => {
    const m = JSON.parse(data);
    if (!m.id) return;
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.error) p?.reject(new Error(m.error.message));
    else p?.resolve(m.result);
  });
  return {
    send: (method, params) => new Promise((resolve, reject) => {
      const i = ++id;
      pending.set(i, { resolve, reject });
      ws.send(JSON.stringify({ id: i, method, params }));
    }),
    close: () => ws.close(),
  };
}

async function main() {
  console.log(`snapshot-call-cost: shop page, ${CALLS} sequential calls per variant per round, ${ROUNDS} rounds (${WARM_ROUNDS} uncounted)`);
  console.log(machineLine());
  const fixtures = await startStaticServer();
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    // A second debugging endpoint beside Playwright's pipe, for the bare CDP variant.
    args: [...CHROMIUM_FLAGS, `--remote-debugging-port=${port}`, MARKER],
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
  let cdp;
  try {
    const page = await (await browser.newContext()).newPage();
    await page.goto(`${fixtures.url}/app/products.html`);
    await page.getByText('Add to cart').first().waitFor();
    const json = JSON.stringify(await page.ariaSnapshotJSON({ mode: 'ai' }));
    const yaml = await page.ariaSnapshot({ mode: 'ai' });
    const target = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()).find((t) => t.url.includes('products.html'));
    cdp = await cdpClient(target.webSocketDebuggerUrl);
    await cdp.send('Runtime.evaluate', { expression: `window.__benchJson = ${JSON.stringify(json)}; 0`, returnByValue: true });

    const procs = processTable();
    const roots = [...procs].filter(([, p]) => p.cmdline.includes(MARKER) && !p.cmdline.includes('--type=')).map(([pid]) => pid);
    const chromiumCpu = summedCpuMs(withDescendants(roots, procs));

    const variants = {
      'playwright json': () => page.ariaSnapshotJSON({ mode: 'ai' }),
      'playwright yaml': () => page.ariaSnapshot({ mode: 'ai' }),
      'ariadne direct': async () => {
        const json = await directSnapshotJSON(page, 10_000);
        if (json === undefined) throw new Error('the direct path was not taken');
        return json;
      },
      'bare CDP': async () => JSON.parse((await cdp.send('Runtime.evaluate', { expression: 'window.__benchJson', returnByValue: true })).result.value),
    };
    const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, { node: [], chromium: [], wall: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      const names = Object.keys(variants);
      // The order rotates, so drift on a shared machine hits every variant.
      for (const name of [...names.slice(round % names.length), ...names.slice(0, round % names.length)]) {
        const c0 = process.cpuUsage();
        const h0 = chromiumCpu();
        const t0 = performance.now();
        for (let i = 0; i < CALLS; i++) await variants[name]();
        const wall = performance.now() - t0;
        const c = process.cpuUsage(c0);
        const h = chromiumCpu() - h0;
        if (round < WARM_ROUNDS) continue;
        samples[name].node.push((c.user + c.system) / 1000 / CALLS);
        samples[name].chromium.push(h / CALLS);
        samples[name].wall.push(wall / CALLS);
      }
    }
    console.log('');
    table(['variant', 'Node CPU ms/call', 'Chromium CPU ms/call', 'wall ms/call', 'answer bytes'], Object.entries(samples).map(([name, s]) => [
      name, median(s.node).toFixed(3), median(s.chromium).toFixed(3), median(s.wall).toFixed(3),
      name === 'playwright yaml' ? String(yaml.length) : String(json.length),
    ]));
    console.log('\nMedians of the per-round figures. Node: this process (Playwright client and server, or the bare');
    console.log('CDP client). Chromium: every process of the browser (/proc, 10 ms ticks: read per round, not per call).');
  } finally {
    cdp?.close();
    await browser.close().catch(() => {});
    await fixtures.close?.();
    await checkNoLeftovers(new Set([MARKER]));
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
