// Locator synthesis speed against Playwright's own locator.normalize() on the same
// elements (issue 11 §3: within 1.5x). For every button, link, textbox, checkbox and
// combobox of several fixture pages (up to --per-page each, spread over the page), in
// interleaved rounds: GET .../locators?ref=..&max=1 and &max=5. The service times our
// synthesis (durationMs) and, in the same request on the same element, normalize() alone
// (baseline.ms); both are server-side, so HTTP is out of both figures. Prints medians
// per page and overall, and the ratio of medians. Figures only, nothing asserted.
//
//   npx tsc -b && node bench/locators.mjs [--rounds=3] [--per-page=10]

import { performance } from 'node:perf_hooks';
import { checkNoLeftovers, fmt, intArg, machineLine, median, onCleanup, startBenchService, startStaticServer, table } from './lib.mjs';
import { targetsOf } from './exploration.mjs';

const ROUNDS = intArg('rounds', 3);
const PER_PAGE = intArg('per-page', 10);
const PAGES = ['robust.html', 'products.html', 'loc-near-duplicates.html', 'loc-webcomponents.html', 'loc-framework-ids.html', 'loc-bootstrap.html', 'large.html?n=2000'];

async function call(base, method, path, body) {
  const res = await fetch(base + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

function spread(list, n) {
  if (list.length <= n) return list;
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]);
}

async function main() {
  const markers = new Set();
  let svc = null;
  let fixtures = null;
  const cleanup = onCleanup(async () => {
    await svc?.stop().catch((err) => console.error('stop failed:', err));
    await fixtures?.close().catch(() => {});
    await checkNoLeftovers(markers);
  });
  console.log(`locators vs normalize(): ${PAGES.length} pages, up to ${PER_PAGE} targets each, ${ROUNDS} rounds (+1 warm-up)`);
  console.log(machineLine());
  try {
    fixtures = await startStaticServer();
    svc = await startBenchService();
    for (const m of svc.markers ?? []) markers.add(m);
    const base = svc.url;
    const sid = (await call(base, 'POST', '/v1/sessions', {})).id;
    const role = `/v1/sessions/${sid}/roles/default`;
    const rows = [];
    const all = { one: [], five: [], norm: [], ratios1: [], ratios5: [] };
    const t0 = performance.now();
    for (const page of PAGES) {
      await call(base, 'POST', `${role}/actions`, { action: 'navigate', url: `${fixtures.url}/${page}` });
      const snap = (await call(base, 'GET', `${role}/snapshot?maxTokens=1000000`)).snapshot;
      const targets = spread(targetsOf(snap), PER_PAGE);
      const one = [];
      const five = [];
      const norm = [];
      const r1 = [];
      const r5 = [];
      for (let round = 0; round <= ROUNDS; round++) {
        for (const t of targets) {
          // Alternate which variant goes first so warm caches favour neither.
          const order = round % 2 ? [5, 1] : [1, 5];
          const res = {};
          for (const max of order) res[max] = await call(base, 'GET', `${role}/locators?ref=${t.ref}&max=${max}`);
          if (round === 0) continue;
          const n = median([res[1].baseline.ms, res[5].baseline.ms].filter((x) => Number.isFinite(x)));
          one.push(res[1].durationMs);
          five.push(res[5].durationMs);
          norm.push(n);
          if (n > 0) {
            r1.push(res[1].durationMs / n);
            r5.push(res[5].durationMs / n);
          }
        }
      }
      rows.push([page, targets.length, fmt(median(one)), fmt(median(five)), fmt(median(norm)), (median(one) / median(norm)).toFixed(2), (median(five) / median(norm)).toFixed(2)]);
      all.one.push(...one);
      all.five.push(...five);
      all.norm.push(...norm);
      all.ratios1.push(...r1);
      all.ratios5.push(...r5);
    }
    rows.push(['all', all.one.length / ROUNDS, fmt(median(all.one)), fmt(median(all.five)), fmt(median(all.norm)), (median(all.one) / median(all.norm)).toFixed(2), (median(all.five) / median(all.norm)).toFixed(2)]);
    console.log('\nmedian ms per element, server-side (ratio = our median / normalize() median)');
    table(['page', 'targets', 'ours max=1', 'ours max=5', 'normalize()', 'ratio max=1', 'ratio max=5'], rows);
    console.log(`median of per-element ratios: max=1 ${median(all.ratios1).toFixed(2)}, max=5 ${median(all.ratios5).toFixed(2)}; wall ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  } finally {
    await cleanup();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
