// Exploration figures, printed (never asserted here):
//  1. Seed 000's product-card walk (snapshot → container → pattern → anchors) on the
//     12-card grid (tests/fixtures/products.html): tokens of each step, JSON and text.
//  2. Latency of each exploration/inspection call through HTTP on the 5,000-element page
//     (tests/fixtures/large.html), medians over interleaved rounds.
//  3. Locator robustness (tests/fixtures/robust.html): for every button, link, textbox
//     and checkbox, our best verified locator and Playwright's normalize(); then the DOM
//     is mutated (siblings reordered, wrapper divs inserted, classes renamed, a new item
//     added at the top of each repeated container) and each locator is run again in a
//     separate browser: does it still find exactly the same logical element?
//     tests/locators-robustness.test.ts runs the same measurement with a floor.
//
//   npx tsc -b && node bench/exploration.mjs [--iterations=10] [--elements=5000]

import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS } from '@ariadne/pool';
import { checkNoLeftovers, fmt, intArg, machineLine, median, onCleanup, p90, startBenchService, startStaticServer, table } from './lib.mjs';

export const MUTATIONS = ['reorder', 'wrap', 'rename', 'prepend'];
const TARGET_ROLES = ['button', 'link', 'textbox', 'checkbox', 'combobox'];

async function call(base, method, path, body) {
  const t0 = performance.now();
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, json: text ? JSON.parse(text) : null, chars: text.length };
}

const tokensOfBody = (chars) => Math.ceil(chars / 4);

/** Refs of the target roles in a YAML snapshot, with their role and name. */
export function targetsOf(yaml) {
  const out = [];
  const re = new RegExp(`- (${TARGET_ROLES.join('|')})(?: "((?:[^"\\\\]|\\\\.)*)")?[^\\n]*?\\[ref=([a-z0-9]+)\\]`, 'g');
  for (const m of yaml.matchAll(re)) out.push({ role: m[1], name: m[2] ? JSON.parse(`"${m[2]}"`) : '', ref: m[3] });
  return out;
}

/** A locator from generated code (our own output, evaluated against a page). */
function fromCode(page, code) {
  // eslint-disable-next-line no-new-func
  return new Function('page', `return ${code};`)(page);
}

async function logicalIdOf(page, code) {
  if (!code) return { n: 0 };
  let loc;
  try {
    loc = fromCode(page, code);
  } catch (err) {
    return { n: -1, error: err.message };
  }
  const n = await loc.count().catch(() => -1);
  if (n !== 1) return { n };
  // A generous timeout: 78 concurrent evaluations on a loaded 2-core machine took over 2 s, and a timed-out lookup read as "lost".
  const lid = await loc.evaluate((el) => window.__lid(el), undefined, { timeout: 15_000 }).catch(() => null);
  return { n, lid };
}

/**
 * Generate locators through HTTP for every target of robust.html, then check each one
 * on the original page and on each mutated page in `browser` (a separate Chromium).
 * `sessions` sessions share the generation (calls on one tab run one after another).
 */
export async function measureRobustness({ base, fixturesUrl, browser, sessions = 1, log = () => {} }) {
  const ids = [];
  const snaps = [];
  try {
    for (let i = 0; i < sessions; i++) {
      const id = (await call(base, 'POST', '/v1/sessions', {})).json.id;
      ids.push(id);
      const role = `/v1/sessions/${id}/roles/default`;
      await call(base, 'POST', `${role}/actions`, { action: 'navigate', url: `${fixturesUrl}/robust.html` });
      snaps.push(targetsOf((await call(base, 'GET', `${role}/snapshot?maxTokens=1000000`)).json.snapshot));
    }
    const targets = snaps[0];
    if (snaps.some((t) => t.length !== targets.length)) throw new Error('robust.html gave different snapshots in different sessions');
    await Promise.all(
      ids.map(async (id, k) => {
        for (let i = k; i < targets.length; i += ids.length) {
          const t = targets[i];
          const ref = snaps[k][i].ref;
          const r = await call(base, 'GET', `/v1/sessions/${id}/roles/default/locators?ref=${ref}&max=1`);
          t.ours = r.json.locators[0]?.code ?? null;
          t.oursStrategy = r.json.locators[0]?.strategy ?? null;
          t.normalize = r.json.baseline.code ?? null;
          t.generateMs = r.ms;
        }
      }),
    );
    return await checkOnMutations(targets, fixturesUrl, browser, log);
  } finally {
    for (const id of ids) await call(base, 'DELETE', `/v1/sessions/${id}`).catch(() => {});
  }
}

async function checkOnMutations(targets, fixturesUrl, browser, log) {
  const page = await browser.newPage();
  try {
    await page.goto(`${fixturesUrl}/robust.html`);
    // Locators are independent: check them concurrently (Playwright queues them).
    const both = (t) => Promise.all([logicalIdOf(page, t.ours), logicalIdOf(page, t.normalize)]);
    const original = await Promise.all(targets.map(both));
    targets.forEach((t, i) => {
      const [o, n] = original[i];
      // Our locator was proven on the ref's element; the page is deterministic, so its
      // logical id here is the target's.
      t.expected = o.n === 1 ? o.lid : null;
      t.baselineValid = n.n === 1 && n.lid === t.expected;
    });
    const perMutation = [];
    for (const mutation of MUTATIONS) {
      await page.goto(`${fixturesUrl}/robust.html?mutate=${mutation}`);
      const row = { mutation, total: targets.length, ours: 0, normalize: 0, oursLost: [], normalizeLost: [] };
      const results = await Promise.all(targets.map(both));
      for (const [i, t] of targets.entries()) {
        const [o, n] = results[i];
        if (t.expected !== null && o.n === 1 && o.lid === t.expected) row.ours++;
        else row.oursLost.push(t.ours);
        if (t.expected !== null && n.n === 1 && n.lid === t.expected) row.normalize++;
        else row.normalizeLost.push(t.normalize);
      }
      log(`${mutation}: ours ${row.ours}/${row.total}, normalize() ${row.normalize}/${row.total}`);
      perMutation.push(row);
    }
    return { targets, perMutation };
  } finally {
    await page.close().catch(() => {});
  }
}

function pct(n, d) {
  return d ? `${Math.round((n / d) * 100)}%` : 'n/a';
}

async function main() {
  const ITERATIONS = intArg('iterations', 10);
  const ELEMENTS = intArg('elements', 5000);
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
  console.log(`exploration: seed-000 walk on products.html, latency on large.html?n=${ELEMENTS} (${ITERATIONS} rounds), locator robustness on robust.html`);
  console.log(machineLine());
  try {
    fixtures = await startStaticServer();
    svc = await startBenchService();
    for (const m of svc.markers) markers.add(m);
    const base = svc.url;
    const sid = (await call(base, 'POST', '/v1/sessions', {})).json.id;
    const role = `/v1/sessions/${sid}/roles/default`;

    // 1. Token walk.
    await call(base, 'POST', `${role}/actions`, { action: 'navigate', url: `${fixtures.url}/products.html` });
    const snap = await call(base, 'GET', `${role}/snapshot`);
    const refs = [...snap.json.snapshot.matchAll(/button "Add to Cart" \[ref=([a-z0-9]+)\]/g)].map((m) => m[1]);
    const target = refs[0]; // the iPhone 15 Pro card, as in the seed
    const steps = [['snapshot', `${role}/snapshot`, `${role}/snapshot?format=text`]];
    for (const [name, p] of [['container', `/explore/container?ref=${target}`], ['pattern (level 2)', `/explore/pattern?ref=${target}&level=2`], ['anchors (level 1)', `/explore/anchors?ref=${target}&level=1`]]) {
      steps.push([name, `${role}${p}`, `${role}${p}&format=text`]);
    }
    const rows = [];
    let totalJson = 0;
    let totalText = 0;
    for (const [name, pJson, pText] of steps) {
      const j = await call(base, 'GET', pJson);
      const t = await call(base, 'GET', pText);
      const jt = tokensOfBody(j.chars);
      const tt = tokensOfBody(t.chars);
      totalJson += jt;
      totalText += tt;
      rows.push([name, jt, tt]);
    }
    rows.push(['total', totalJson, totalText]);
    const loc = await call(base, 'GET', `${role}/locators?ref=${target}`);
    console.log('\n1. Seed 000 product-card walk on the 12-card grid (tokens = response chars / 4; seed reports ~2,100)');
    table(['step', 'tokens (json)', 'tokens (format=text)'], rows);
    console.log(`resulting locator: ${loc.json.locators[0]?.code}`);
    console.log(`normalize():       ${loc.json.baseline.code}`);

    // 2. Latency on the large page.
    await call(base, 'POST', `${role}/actions`, { action: 'navigate', url: `${fixtures.url}/large.html?n=${ELEMENTS}` });
    const big = await call(base, 'GET', `${role}/snapshot?maxTokens=1000000`);
    const bigRef = /button "Add to cart" \[ref=([a-z0-9]+)\]/.exec(big.json.snapshot)[1];
    const calls = [
      ['snapshot (default budget)', `${role}/snapshot`],
      ['explore/container', `${role}/explore/container?ref=${bigRef}`],
      ['explore/pattern level=2', `${role}/explore/pattern?ref=${bigRef}&level=2`],
      ['explore/anchors level=1', `${role}/explore/anchors?ref=${bigRef}&level=1`],
      ['explore/anchors level=3', `${role}/explore/anchors?ref=${bigRef}&level=3`],
      ['inspect/dom (page)', `${role}/inspect/dom`],
      ['inspect/test-ids', `${role}/inspect/test-ids`],
      ['inspect/query testid:product-card', `${role}/inspect/query?selector=testid:product-card`],
      ['inspect/visibility', `${role}/inspect/visibility?ref=${bigRef}`],
      ['locators', `${role}/locators?ref=${bigRef}`],
      ['dom (24k chars)', `${role}/dom`],
    ];
    const times = new Map(calls.map(([n]) => [n, []]));
    const tokens = new Map();
    for (let i = 0; i < ITERATIONS + 1; i++) {
      // Rotate the order each round so load drift hits every call alike; round 0 warms up.
      const order = calls.map((_, k) => calls[(k + i) % calls.length]);
      for (const [name, p] of order) {
        const r = await call(base, 'GET', p);
        if (i > 0) times.get(name).push(r.ms);
        tokens.set(name, r.json.tokens ?? tokensOfBody(r.chars));
      }
    }
    console.log(`\n2. Latency through HTTP on large.html?n=${ELEMENTS} (${(await call(base, 'GET', `${role}/inspect/query?selector=*&limit=1`)).json.matches} DOM elements), ms`);
    table(['call', 'median', 'p90', 'tokens'], calls.map(([n]) => [n, fmt(median(times.get(n))), fmt(p90(times.get(n))), tokens.get(n)]));

    // 3. Robustness.
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [...CHROMIUM_FLAGS, MARKER],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const res = await measureRobustness({ base, fixturesUrl: fixtures.url, browser, sessions: 2 });
    const n = res.targets.length;
    const strategies = {};
    for (const t of res.targets) strategies[t.oursStrategy] = (strategies[t.oursStrategy] ?? 0) + 1;
    console.log(`\n3. Locator robustness on robust.html: ${n} targets (buttons, links, textboxes, checkboxes)`);
    console.log(`our best locator by strategy: ${Object.entries(strategies).map(([k, v]) => `${k} ${v}`).join(', ')}; normalize() valid on the original page: ${res.targets.filter((t) => t.baselineValid).length}/${n}`);
    console.log(`locator generation: median ${fmt(median(res.targets.map((t) => t.generateMs)))} ms per ref`);
    table(
      ['mutation', 'ours still same element', 'normalize() still same element'],
      [
        ...res.perMutation.map((r) => [r.mutation, `${r.ours}/${r.total} (${pct(r.ours, r.total)})`, `${r.normalize}/${r.total} (${pct(r.normalize, r.total)})`]),
        ['all', ...['ours', 'normalize'].map((k) => {
          const s = res.perMutation.reduce((a, r) => a + r[k], 0);
          const d = res.perMutation.reduce((a, r) => a + r.total, 0);
          return `${s}/${d} (${pct(s, d)})`;
        })],
      ],
    );
    for (const r of res.perMutation) {
      if (r.oursLost.length) console.log(`  ${r.mutation}, ours lost: ${[...new Set(r.oursLost)].slice(0, 4).join(' | ')}${r.oursLost.length > 4 ? ' …' : ''}`);
    }
  } finally {
    await cleanup();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
