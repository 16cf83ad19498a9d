#!/usr/bin/env node
// What the surface pass (issue 24: inferred names, field kinds, clickable icons and words the AI
// snapshot leaves out) adds to one snapshot. Both variants are the same direct call
// (packages/page/src/snapshot/direct.ts), in the same process and browser, interleaved in rounds:
//
//   without   directSnapshotJSON(page, t, undefined, { surface: false }): Playwright's tree, the
//             path as it was before the pass
//   with      directSnapshotJSON(page, t): the pass runs in the same in-page call, and its
//             edits are applied to the tree in Node
//
// on large.html?n=5000 (about 5,000 elements, well labelled: the acceptance page, target
// ratio ≤ 1.15), the shop page, and the weak webmail page (where the pass has work to do).
//
// The wall-clock ratio is noisy on a shared machine; so is each part, but the in-page split
// (Playwright's snapshot, then the pass, timed back to back inside one call, the same way the
// direct path runs them) and the Node-side apply are reported too: (snapshot + pass + apply) /
// snapshot is the pass's cost with the machine's load mostly cancelled out.
//
//   node bench/surface-cost.mjs [--calls=20] [--rounds=8] [--quick]

import { performance } from 'node:perf_hooks';
import { SURFACE_SOURCE, applySurface, directSnapshotJSON, normalizeTree, utilityInjected } from '@ariadne/page';
import { checkNoLeftovers, intArg, launchRawBrowser, machineLine, median, runAsScript, startStaticServer, timingRow } from './lib.mjs';

const PAGES = [
  { key: 'large.html?n=5000', path: '/large.html?n=5000', calls: 6 },
  { key: 'shop (products.html)', path: '/products.html', calls: 40 },
  { key: 'weak webmail', path: '/weak/webmail.html', calls: 40 },
  // 19 icon-only buttons with pasted icon-set SVGs: the fingerprint lookup's page.
  { key: 'pasted SVG icons', path: '/plain-english/icons-pasted.html', calls: 40 },
];

export async function run({ quick = false } = {}) {
  const rounds = intArg('rounds', quick ? 4 : 8);
  const scale = intArg('calls', quick ? 10 : 20) / 20;
  const marker = `--ariadne-bench-surface-cost=${process.pid}`;
  const fixtures = await startStaticServer();
  const browser = await launchRawBrowser(marker);
  const rows = [];
  const notes = [machineLine()];
  try {
    const page = await browser.newPage();
    for (const p of PAGES) {
      await page.goto(fixtures.url + p.path);
      await page.waitForTimeout(200);
      const calls = Math.max(2, Math.round(p.calls * scale));
      const samples = { off: [], on: [] };
      const once = async (surface) => {
        const t0 = performance.now();
        const json = await directSnapshotJSON(page, 30_000, undefined, { surface });
        if (json === undefined) throw new Error(`${p.key}: the direct path was not taken`);
        return performance.now() - t0;
      };
      // One uncounted round warms both paths (the pass is compiled once per utility world).
      for (let i = 0; i < 2; i++) { await once(false); await once(true); }
      // Paired calls, the order alternating, so drift in the machine's load hits both alike;
      // the ratio of each pair is kept too (its median is steadier than a ratio of medians).
      const pairRatios = [];
      for (let r = 0; r < rounds; r++) {
        for (let i = 0; i < calls; i++) {
          const first = (r + i) % 2 === 0;
          const a = await once(first ? false : true);
          const b = await once(first ? true : false);
          const [off, on] = first ? [a, b] : [b, a];
          samples.off.push(off);
          samples.on.push(on);
          pairRatios.push(on / off);
        }
      }
      const split = await inPageSplit(page, rounds);
      rows.push(timingRow(`snapshot ${p.key}`, 'without surface pass', '', samples.off));
      rows.push(timingRow(`snapshot ${p.key}`, 'with surface pass', 'without', samples.on, { baseline: samples.off, ratioTo: 'without', note: p.key.startsWith('large') ? 'acceptance: ≤ 1.15' : undefined }));
      rows.push({ measurement: `snapshot ${p.key}`, variant: 'median of paired ratios (with / without)', against: '', value: median(pairRatios).toFixed(3) });
      rows.push(timingRow(`in-page ${p.key}`, 'Playwright snapshot', '', split.snapshot));
      rows.push(timingRow(`in-page ${p.key}`, 'surface pass', '', split.pass));
      rows.push(timingRow(`in-page ${p.key}`, 'apply edits (Node)', '', split.apply));
      const ratio = (median(split.snapshot) + median(split.pass) + median(split.apply)) / median(split.snapshot);
      rows.push({ measurement: `in-page ${p.key}`, variant: '(snapshot + pass + apply) / snapshot', against: '', value: ratio.toFixed(3) });
      console.log(`${p.key}: wall ${median(samples.off).toFixed(1)} ms → ${median(samples.on).toFixed(1)} ms (×${(median(samples.on) / median(samples.off)).toFixed(3)}, paired ×${median(pairRatios).toFixed(3)}), ${samples.on.length} calls each; split: snapshot ${median(split.snapshot).toFixed(2)} ms, pass ${median(split.pass).toFixed(2)} ms, apply ${median(split.apply).toFixed(2)} ms → ×${ratio.toFixed(3)}`);
    }
  } finally {
    await browser.close();
    await fixtures.close();
    await checkNoLeftovers(new Set([marker]));
  }
  return { rows, notes };
}

/** Playwright's snapshot and the pass timed back to back in one in-page call; then the apply in Node. */
async function inPageSplit(page, rounds) {
  const u = await utilityInjected(page.mainFrame());
  if (!u) throw new Error('no utility world');
  const fn = `function () {
    const run = (this.__ariadneBenchSurface || (this.__ariadneBenchSurface = (function () { ${SURFACE_SOURCE}; return __ariadneSurface; })())).surface;
    const t0 = performance.now();
    const s = this.ariaSnapshotJSON(document.body, { mode: 'ai' });
    const t1 = performance.now();
    const edits = run(this, {});
    const t2 = performance.now();
    return { snapshot: t1 - t0, pass: t2 - t1, json: s.json, edits };
  }`;
  const out = { snapshot: [], pass: [], apply: [] };
  for (let i = 0; i < rounds + 1; i++) {
    const r = await u.client.send('Runtime.callFunctionOn', { objectId: u.objectId, functionDeclaration: fn, returnByValue: true });
    const v = r.result.value;
    const t0 = performance.now();
    applySurface(normalizeTree(v.json), v.edits);
    const apply = performance.now() - t0;
    if (i === 0) continue; // warm-up
    out.snapshot.push(v.snapshot);
    out.pass.push(v.pass);
    out.apply.push(apply);
  }
  return out;
}

runAsScript(import.meta.url, run);
