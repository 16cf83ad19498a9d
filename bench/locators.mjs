// Locator synthesis speed against Playwright's own locator.normalize() on the same
// elements (issue 11 §3: within 1.5x). For every button, link, textbox, checkbox and
// combobox of several fixture pages (up to --per-page each, spread over the page), in
// interleaved rounds: GET .../locators?ref=..&max=1 and &max=5. The service times our
// synthesis (durationMs) and, in the same request on the same element, normalize() alone
// (baseline.ms); both are server-side, so HTTP is out of both figures. Prints medians
// per page and overall, and the ratio of medians. Figures only, nothing asserted.
//
//   npx tsc -b && node bench/locators.mjs [--rounds=3] [--per-page=10] [--pages=a.html,b.html] [--quick]
//   import { run } from './locators.mjs'; await run({ quick }) → { rows, notes }

import { performance } from 'node:perf_hooks';
import { checkNoLeftovers, fmt, intArg, loadAverage, runAsScript, machineLine, median, p90, min, onCleanup, startBenchService, startStaticServer, table, timingRow } from './lib.mjs';
import { targetsOf } from './exploration.mjs';

const ALL_PAGES = ['robust.html', 'products.html', 'loc-near-duplicates.html', 'loc-webcomponents.html', 'loc-framework-ids.html', 'loc-bootstrap.html', 'large.html?n=2000'];
// --pages=products.html,large.html?n=2000 (a subset; names as above)
const pagesArg = process.argv.find((a) => a.startsWith('--pages='));
const PAGES = pagesArg ? pagesArg.slice('--pages='.length).split(',').filter(Boolean) : ALL_PAGES;

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

const row = (variant, samples, baseline, note) => timingRow('verified locators per element (server-side)', variant, 'normalize()', samples, { ...(baseline ? { baseline, ratioTo: 'normalize()' } : {}), ...(note ? { note } : {}) });

/** The measurement, as the bench aggregator (bench/run-all.mjs) calls it. */
export async function run({ quick = false, log = console.log } = {}) {
  const ROUNDS = quick ? 1 : intArg('rounds', 3);
  const PER_PAGE = quick ? 4 : intArg('per-page', 10);
  const out = [];
  const notes = [];
  const markers = new Set();
  let svc = null;
  let fixtures = null;
  const cleanup = onCleanup(async () => {
    await svc?.stop().catch((err) => console.error('stop failed:', err));
    await fixtures?.close().catch(() => {});
    await checkNoLeftovers(markers);
  });
  log(`locators vs normalize(): ${PAGES.length} pages, up to ${PER_PAGE} targets each, ${ROUNDS} rounds (+1 warm-up)`);
  log(machineLine());
  const loadBefore = loadAverage();
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
      out.push(row(`${page}, max=1`, one, norm), row(`${page}, max=5`, five, norm), row(`${page}, Playwright normalize()`, norm));
      all.one.push(...one);
      all.five.push(...five);
      all.norm.push(...norm);
      all.ratios1.push(...r1);
      all.ratios5.push(...r5);
    }
    rows.push(['all', all.one.length / ROUNDS, fmt(median(all.one)), fmt(median(all.five)), fmt(median(all.norm)), (median(all.one) / median(all.norm)).toFixed(2), (median(all.five) / median(all.norm)).toFixed(2)]);
    out.push(row('all pages, max=1', all.one, all.norm, `median of per-element ratios ${median(all.ratios1).toFixed(2)}`), row('all pages, max=5', all.five, all.norm, `median of per-element ratios ${median(all.ratios5).toFixed(2)}`), row('all pages, Playwright normalize()', all.norm));
    const loadAfter = loadAverage();
    const la = (l) => (l ? l.join(' ') : 'n/a');
    notes.push(`load average ${la(loadBefore)} before, ${la(loadAfter)} after (2 shared cores)`);
    log('\nmedian ms per element, server-side (ratio = our median / normalize() median)');
    table(['page', 'targets', 'ours max=1', 'ours max=5', 'normalize()', 'ratio max=1', 'ratio max=5'], rows);
    log(`median of per-element ratios: max=1 ${median(all.ratios1).toFixed(2)}, max=5 ${median(all.ratios5).toFixed(2)}; wall ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    log(`load average ${la(loadBefore)} before, ${la(loadAfter)} after`);
    return { rows: out, notes };
  } finally {
    await cleanup();
  }
}

// As a script it prints its own tables; the rows are for bench/run-all.mjs.
runAsScript(import.meta.url, run, { print: false });
