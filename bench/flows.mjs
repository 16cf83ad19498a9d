#!/usr/bin/env node
// Flow runs (issue 12 §4): wall time of a 10-step rules-planner flow on the fixture shop
// (log in, two Add to Cart, verify the cart), run through the service as a queued job
// (POST /v1/runs until the run is finished), with the default artifacts (a screenshot per
// step, a trace per case) and without, beside the same ten steps scripted in raw
// playwright-core (a fresh context, the same Chromium binary and flags, this process) —
// interleaved rounds, so load drift hits all three alike. Targets: default ≤ 1.3× no
// artifacts; no artifacts ≤ 1.3× raw. Then model turns and tokens per step of the same
// flow with the anthropic and openai planners against the scripted wire-protocol model.
// Figures, not pass/fail.
//
//   node bench/flows.mjs [--iterations=8] [--quick] [--poll] [--split]
//   import { run } from './flows.mjs'; await run({ quick }) → { rows, notes }

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  checkNoLeftovers, fmt, FIXTURES_DIR, intArg, loadAverage, runAsScript, machineLine, median, min, onCleanup, p90, startBenchService, table, timingRow,
} from './lib.mjs';
import { startScriptedModel } from '../tests/fixtures/app/scripted-model.mjs';

const PLAN = [
  '#Case 1: ten steps through the shop',
  '- Go to /app/login.html',
  '- Type alice into "Username"',
  '- Type secret into "Password"',
  '- Click the "Log in" button',
  '- Verify "Welcome, alice" is visible',
  '- Click "Add to cart" in the "Blue Mug" card',
  '- Click "Add to cart" in the "Thread Cap" card',
  '- Click the "Cart (2)" link',
  '- Verify "Total: $30.00" is visible',
  '- Verify the URL contains /app/cart.html',
].join('\n');

// What a model that knows the page would do for those 10 steps: snapshot on every new
// page, act on refs from it, assert the Verify steps, complete.
const MOVES = [
  { tool: 'snapshot', args: {} },
  { tool: 'navigate', args: { url: '/app/login.html', step: 1 } },
  { tool: 'snapshot', args: {} },
  { tool: 'type', args: { ref: { $ref: ['textbox', 'Username'] }, text: 'alice', step: 2 } },
  { tool: 'type', args: { ref: { $ref: ['textbox', 'Password'] }, text: 'secret', step: 3 } },
  { tool: 'click', args: { ref: { $ref: ['button', 'Log in'] }, step: 4 } },
  { tool: 'assert', args: { step: 5, type: 'text_visible', text: 'Welcome, alice' } },
  { tool: 'wait_for_stable', args: { step: 6 } },
  { tool: 'snapshot', args: {} },
  { tool: 'click', args: { ref: { $ref: ['button', 'Add to cart', { after: 'Blue Mug' }] }, step: 6 } },
  { tool: 'click', args: { ref: { $ref: ['button', 'Add to cart', { after: 'Thread Cap' }] }, step: 7 } },
  { tool: 'snapshot', args: {} },
  { tool: 'click', args: { ref: { $ref: ['link', 'Cart (2)'] }, step: 8 } },
  { tool: 'assert', args: { step: 9, type: 'text_visible', text: 'Total: $30.00' } },
  { tool: 'assert', args: { step: 10, type: 'url_contains', value: '/app/cart.html' } },
  { tool: 'complete_case', args: { passed: true, summary: 'done' } },
];

/** tests/fixtures over HTTP, with the shop's announcement route. */
async function startShop() {
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://x');
    if (pathname === '/app/api/banner') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"text":""}');
    }
    try {
      const file = path.join(FIXTURES_DIR, path.normalize(decodeURIComponent(pathname)));
      if (!file.startsWith(FIXTURES_DIR + path.sep)) throw new Error('outside');
      const data = await readFile(file);
      res.writeHead(200, { 'content-type': file.endsWith('.html') ? 'text/html; charset=utf-8' : file.endsWith('.js') ? 'text/javascript' : 'application/octet-stream' });
      res.end(data);
    } catch {
      res.writeHead(404).end('not found');
    }
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}


/** The same ten steps as a Playwright script: what a person would write by hand. */
async function rawScripted(browser, base, laps = {}) {
  const t0 = performance.now();
  let last = t0;
  const lap = (k) => {
    const now = performance.now();
    laps[k] = (laps[k] ?? 0) + (now - last);
    last = now;
  };
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    lap('context + page');
    // The run opens its start URL, then step 1 goes there again: the script does the same.
    await page.goto(`${base}/app/login.html`);
    await page.goto(`${base}/app/login.html`);
    lap('navigate (x2)');
    await page.getByLabel('Username').fill('alice');
    await page.getByLabel('Password').fill('secret');
    lap('fill (x2)');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByText('Welcome, alice').waitFor();
    lap('click + wait (log in)');
    await page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Blue Mug', exact: true }) }).getByRole('button', { name: 'Add to cart' }).click();
    await page.getByRole('article').filter({ has: page.getByRole('heading', { name: 'Thread Cap', exact: true }) }).getByRole('button', { name: 'Add to cart' }).click();
    lap('click (x2 Add to cart)');
    await page.getByRole('link', { name: 'Cart (2)' }).click();
    await page.getByText('Total: $30.00').waitFor();
    if (!page.url().includes('/app/cart.html')) throw new Error(`raw: ended on ${page.url()}`);
    lap('click + wait (cart)');
  } finally {
    await context.close();
    lap('close');
  }
  return performance.now() - t0;
}

/**
 * POST the run, then wait until its record is final. By default the client follows the
 * run's event stream (GET /v1/runs/:id/events) until run_finished, then reads the record
 * until it is final (every 5 ms: the session's release and the final write come after that
 * event); with --poll it reads the record every 20 ms from the start (the harness of the
 * figures before 2026-11-24's flowpath branch, whose reads compete with the run for CPU).
 */
async function runOnce(svc, body, poll = process.argv.includes('--poll')) {
  const t0 = performance.now();
  const res = await fetch(`${svc.url}/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const created = await res.json();
  if (res.status !== 202) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(created)}`);
  if (!poll) {
    const stream = await fetch(`${svc.url}/v1/runs/${created.id}/events`);
    const decoder = new TextDecoder();
    let text = '';
    for await (const chunk of stream.body) {
      text += decoder.decode(chunk, { stream: true });
      if (/\nevent: run_finished\n/.test(`\n${text}`)) break;
    }
    await stream.body.cancel().catch(() => {});
  }
  for (;;) {
    const run = await (await fetch(`${svc.url}/v1/runs/${created.id}`)).json();
    if (!['queued', 'running'].includes(run.status)) {
      const wall = performance.now() - t0;
      if (run.status !== 'passed') throw new Error(`run ${run.id} ${run.status}: ${JSON.stringify(run.report?.cases?.[0]?.steps?.filter((s) => s.error))}`);
      return { wall, report: run.report };
    }
    await new Promise((r) => setTimeout(r, poll ? 20 : 5));
  }
}

/** The measurement, as the bench aggregator (bench/run-all.mjs) calls it. */
export async function run({ quick = false, iterations, warmup = 1, log = console.log } = {}) {
  const ITER = iterations ?? (quick ? 3 : intArg('iterations', 8));
  const rows = [];
  const notes = [];
  let svc = null;
  let shop = null;
  let model = null;
  let browser = null;
  const markers = new Set();
  const rawMarker = `--ariadne-bench-raw=${process.pid}-${Date.now()}`;
  const cleanup = onCleanup(async () => {
    await model?.close();
    await browser?.close().catch(() => {});
    await shop?.close();
    if (svc) {
      for (const m of svc.markers) markers.add(m);
      await svc.stop();
    }
    if (browser) markers.add(rawMarker);
    await checkNoLeftovers(markers);
  });
  try {
    const loadBefore = loadAverage();
    log(machineLine());
    const [{ chromium }, { CHROMIUM_FLAGS }, { onStepTiming }] = await Promise.all([import('playwright-core'), import('@ariadne/pool'), import('@ariadne/flows')]);
    // Where each run's time goes: the steps' phases (packages/flows/src/timing.ts), summed per run.
    let stepTimings = [];
    const stopTiming = onStepTiming((t) => stepTimings.push(t));
    [svc, shop, browser] = await Promise.all([
      startBenchService({ RUN_CONCURRENCY: '1' }),
      startShop(),
      chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: [...CHROMIUM_FLAGS, rawMarker], handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false }),
    ]);
    const url = `${shop.url}/app/login.html`;

    // (1) Rules planner with and without artifacts, and raw Playwright, interleaved.
    const configs = [
      { key: 'default', name: 'Ariadne rules flow, screenshots + trace (default)', options: {} },
      { key: 'bare', name: 'Ariadne rules flow, no screenshots, no trace', options: { screenshots: false, trace: false } },
      { key: 'raw', name: 'raw playwright-core script, same 10 steps', raw: true },
      // --split: which artifact costs what (each alone).
      ...(process.argv.includes('--split') ? [
        { key: 'trace', name: 'Ariadne rules flow, trace only', options: { screenshots: false, trace: true } },
        { key: 'shots', name: 'Ariadne rules flow, screenshots only', options: { screenshots: true, trace: false } },
      ] : []),
    ];
    const res = Object.fromEntries(configs.map((c) => [c.key, { wall: [], loop: [], perStep: [], steps: 0, clicks: [], phases: {} }]));
    const addPhases = (r, sums) => {
      for (const [k, v] of Object.entries(sums)) (r.phases[k] ??= []).push(v);
    };
    for (let i = 0; i < warmup + ITER; i++) {
      // Rotate the order so warm caches and load drift favour none of them.
      const order = configs.map((_, k) => configs[(k + i) % configs.length]);
      for (const c of order) {
        const r = res[c.key];
        if (c.raw) {
          const laps = {};
          const wall = await rawScripted(browser, shop.url, laps);
          if (i >= warmup) {
            r.wall.push(wall);
            addPhases(r, laps);
          }
          continue;
        }
        stepTimings = [];
        const { wall, report } = await runOnce(svc, { url, plan: PLAN, options: c.options });
        if (i < warmup) continue;
        const sums = {};
        let runMs = 0;
        for (const t of stepTimings) {
          // 'run' (the job: lease, flow, release, store) and 'flow' (start URL, trace, cases) frame the steps.
          const frame = t.action === 'run' || t.action === 'flow';
          if (t.action === 'run') runMs = t.totalMs;
          for (const [k, v] of Object.entries(t.phases)) {
            const key = frame ? `[${t.action}] ${k}` : `${t.action}: ${k}`;
            sums[key] = (sums[key] ?? 0) + v;
          }
        }
        sums['[queue + polling] wall - run'] = wall - runMs;
        sums['[steps] total'] = stepTimings.filter((t) => t.action !== 'run' && t.action !== 'flow').reduce((a, t) => a + t.totalMs, 0);
        addPhases(r, sums);
        r.steps = report.totals.steps;
        r.wall.push(wall);
        r.loop.push(report.durationMs);
        const steps = report.cases[0].steps;
        r.perStep.push(...steps.map((s) => s.durationMs));
        // The first Add to Cart: a click whose role + name is not unique (a proven container locator).
        const add = steps.find((s) => s.action === 'click' && /Blue Mug/.test(s.asked));
        if (add) r.clicks.push(add.durationMs);
      }
    }
    const loadAfter = loadAverage();
    const tbl = [];
    for (const c of configs) {
      const r = res[c.key];
      const against = ['default', 'trace', 'shots'].includes(c.key) ? 'no artifacts' : c.key === 'bare' ? 'raw script' : '';
      const base = ['default', 'trace', 'shots'].includes(c.key) ? res.bare.wall : c.key === 'bare' ? res.raw.wall : null;
      const row = timingRow('10-step flow wall time', c.name, against, r.wall, { baseline: base, ratioTo: against });
      rows.push(row);
      tbl.push([c.name, c.raw ? '10' : String(r.steps), `${fmt(median(r.wall))} · ${fmt(p90(r.wall))} · ${fmt(min(r.wall))}`, c.raw ? '' : fmt(median(r.loop)), c.raw ? '' : fmt(median(r.perStep)), c.raw ? '' : fmt(median(r.clicks)), row.ratio !== undefined ? `${row.ratio} × ${against}` : '']);
      if (!c.raw) rows.push(timingRow('first Add to Cart step (durationMs)', c.name, '', r.clicks));
    }
    const la = (l) => (l ? l.join(' ') : 'n/a');
    notes.push(`load average ${la(loadBefore)} before, ${la(loadAfter)} after (2 shared cores)`);
    log(`\n10-step flow (${ITER} rounds after ${warmup} warm-up, order rotated every round), ms:`);
    table(['configuration', 'steps', 'wall median · p90 · min', 'loop median', 'step median', 'Add to Cart step', 'ratio'], tbl);
    log(`load average ${la(loadBefore)} before, ${la(loadAfter)} after`);
    // Per phase, summed over a run's steps (median over runs): where the time goes.
    const phaseNames = [...new Set([...Object.keys(res.default.phases), ...Object.keys(res.bare.phases)])].sort();
    log('\nWhere a run\'s time goes (ms per run, median over runs; steps\' phases summed by action):');
    table(['phase', 'default', 'no artifacts'], phaseNames.map((k) => [k, fmt(median(res.default.phases[k] ?? [])), fmt(median(res.bare.phases[k] ?? []))]));
    table(['raw script phase', 'ms (median)'], Object.keys(res.raw.phases).map((k) => [k, fmt(median(res.raw.phases[k]))]));
    for (const c of configs) {
      for (const [k, v] of Object.entries(res[c.key].phases)) rows.push(timingRow('10-step flow, time per run by phase', `${c.name}: ${k}`, '', v));
    }
    stopTiming();

    // (2) Scripted models over the real wire protocols.
    model = await startScriptedModel({ apiKey: 'bench-key', script: { 'Case 1: ten steps through the shop': MOVES } });
    const mrows = [];
    for (const planner of ['anthropic', 'openai']) {
      const per = { turns: [], input: [], output: [], wall: [], steps: 0 };
      for (let i = 0; i < Math.max(1, Math.ceil(ITER / 3)); i++) {
        const { wall, report } = await runOnce(svc, {
          url, plan: PLAN, planner, model: 'scripted', apiKey: 'bench-key', baseUrl: planner === 'openai' ? `${model.url}/v1` : model.url,
          options: { screenshots: false, trace: false },
        });
        const steps = report.totals.steps;
        per.steps = steps;
        per.turns.push(report.usage.turns / steps);
        per.input.push(report.usage.inputTokens / steps);
        per.output.push(report.usage.outputTokens / steps);
        per.wall.push(wall);
      }
      mrows.push([planner, String(per.steps), median(per.turns).toFixed(2), Math.round(median(per.input)).toLocaleString('en'), Math.round(median(per.output)).toLocaleString('en'), fmt(median(per.wall))]);
      rows.push(timingRow('10-step flow, scripted model', `${planner} planner, no artifacts`, '', per.wall, { note: `${median(per.turns).toFixed(2)} turns/step, ${Math.round(median(per.input))} input tokens/step, ${Math.round(median(per.output))} output tokens/step` }));
    }
    if (model.stats.invalid.length) log(`WARNING: the scripted server refused requests: ${model.stats.invalid.join('; ')}`);
    log('\nSame flow, scripted model over each provider\'s wire protocol (per recorded step; no screenshots/trace):');
    table(['planner', 'steps', 'turns/step', 'input tokens/step', 'output tokens/step', 'wall ms (median)'], mrows);
    const biggest = Math.max(...model.stats.turns.map((t) => t.inputTokens));
    log(`largest single request: ${biggest.toLocaleString('en')} input tokens (only the latest snapshot of each role stays in the conversation).`);
    notes.push(`largest single model request: ${biggest} input tokens`);
    return { rows, notes };
  } finally {
    await cleanup();
  }
}

// As a script it prints its own tables; the rows are for bench/run-all.mjs.
runAsScript(import.meta.url, run, { print: false });
