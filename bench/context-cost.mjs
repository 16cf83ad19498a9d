// Context cost: what a browser spends on a lease's window, with the pool's --disable-features
// switch and with the same switch less the features this bench is about (WebUIOmniboxPopup,
// WebUIOmniboxAimPopup: Chromium 156 preloads the address bar's popup, a WebUI page, in a
// renderer of its own for every window; packages/pool/src/chromium-features.ts).
//
// Each round launches one browser per variant (the order alternating), opens CONTEXTS
// contexts with one page each on a small page, waits a second, and reads over the browser's
// process tree: processes, CPU (utime + stime, launch included) and resident memory. Medians
// over rounds, and the ratio pool / without. Figures only.
//
//   node bench/context-cost.mjs [--rounds=6] [--contexts=6] [--quick]

import { performance } from 'node:perf_hooks';
import { readFileSync } from 'node:fs';
import { ARIADNE_DISABLED_FEATURES, CHROMIUM_FLAGS, PLAYWRIGHT_DISABLED_FEATURES } from '@ariadne/pool';
import { checkNoLeftovers, intArg, machineLine, median, onCleanup, processTable, runAsScript, summedCpuMs, timingRow, valueRow, withDescendants } from './lib.mjs';

const ABOUT = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

function featureSwitch(without) {
  const all = [...new Set([...PLAYWRIGHT_DISABLED_FEATURES, ...ARIADNE_DISABLED_FEATURES])].filter((f) => !without.includes(f));
  return `--disable-features=${all.join(',')}`;
}

function rssKb(pid) {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

async function oneRound(chromium, variant, marker, contexts) {
  const t0 = performance.now();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, variant.features, marker],
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
  try {
    const opened = [];
    for (let i = 0; i < contexts; i++) {
      const ctx = await browser.newContext();
      const page = await ctx.newPage();
      await page.setContent(`<main><h1>Context ${i}</h1><button>Go</button></main>`);
      opened.push(ctx);
    }
    const ms = performance.now() - t0;
    await new Promise((r) => setTimeout(r, 1000));
    const procs = processTable();
    const root = [...procs].find(([, p]) => p.cmdline.includes(marker) && !p.cmdline.includes('--type='))?.[0];
    const tree = root ? [...withDescendants([root], procs)] : [];
    const cpu = summedCpuMs(tree)();
    const rss = tree.reduce((s, pid) => s + rssKb(pid), 0) / 1024;
    for (const ctx of opened) await ctx.close();
    return { ms, cpu, rss, processes: tree.length };
  } finally {
    await browser.close().catch(() => {});
  }
}

export async function run({ quick = false } = {}) {
  const ROUNDS = intArg('rounds', quick ? 3 : 6);
  const CONTEXTS = intArg('contexts', 6);
  const marker = `--ariadne-bench=${process.pid}-context-cost`;
  const cleanup = onCleanup(async () => { await checkNoLeftovers(new Set([marker])); });
  const { chromium } = await import('playwright-core');
  const variants = [
    { name: 'pool switch', features: featureSwitch([]), samples: [] },
    { name: `without ${ABOUT.join(', ')}`, features: featureSwitch(ABOUT), samples: [] },
  ];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const v of r % 2 ? [...variants].reverse() : variants) v.samples.push(await oneRound(chromium, v, marker, CONTEXTS));
    }
  } finally {
    await cleanup();
  }
  const [pool, without] = variants;
  const against = `launch + ${CONTEXTS} contexts`;
  const pick = (v, k) => v.samples.map((s) => s[k]);
  const rows = [
    timingRow('wall time', pool.name, against, pick(pool, 'ms'), { baseline: pick(without, 'ms'), ratioTo: 'without' }),
    timingRow('wall time', without.name, against, pick(without, 'ms')),
    timingRow('CPU of the browser tree', pool.name, against, pick(pool, 'cpu'), { baseline: pick(without, 'cpu'), ratioTo: 'without' }),
    timingRow('CPU of the browser tree', without.name, against, pick(without, 'cpu')),
    valueRow('resident memory, MB (median)', pool.name, against, Math.round(median(pick(pool, 'rss')))),
    valueRow('resident memory, MB (median)', without.name, against, Math.round(median(pick(without, 'rss')))),
    valueRow('processes (median)', pool.name, against, median(pick(pool, 'processes'))),
    valueRow('processes (median)', without.name, against, median(pick(without, 'processes'))),
    valueRow('machine', '', '', machineLine()),
  ];
  return { rows };
}

runAsScript(import.meta.url, run);
