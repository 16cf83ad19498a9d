#!/usr/bin/env node
// Flow runs: (1) wall time and steps per second of a 10-step rules-planner flow on the
// fixture shop, run through the service as a queued job (POST /v1/runs until the run is
// finished), with the default artifacts (a screenshot per step, a trace per case) and
// without; (2) model turns, input tokens and output tokens per step of the same flow
// with the anthropic and openai planners against the scripted wire-protocol model
// (tokens as the scripted server counts them: request / response JSON chars / 4 — the
// input side is what Ariadne really sends: prompt, tool schemas, budgeted snapshots).
// Figures, not pass/fail. `node bench/flows.mjs [--iterations=5]`.

import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  checkNoLeftovers, fmt, FIXTURES_DIR, intArg, machineLine, median, min, onCleanup, p90, startBenchService, table,
} from './lib.mjs';
import { startScriptedModel } from '../tests/fixtures/app/scripted-model.mjs';

const ITER = intArg('iterations', 5);
const WARMUP = intArg('warmup', 1);

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

let svc = null;
let shop = null;
let model = null;
const markers = new Set();
const cleanup = onCleanup(async () => {
  await model?.close();
  await shop?.close();
  if (svc) {
    for (const m of svc.markers) markers.add(m);
    await svc.stop();
  }
  await checkNoLeftovers(markers);
});

async function runOnce(body) {
  const t0 = performance.now();
  const res = await fetch(`${svc.url}/v1/runs`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const created = await res.json();
  if (res.status !== 202) throw new Error(`POST /v1/runs: ${res.status} ${JSON.stringify(created)}`);
  for (;;) {
    const run = await (await fetch(`${svc.url}/v1/runs/${created.id}`)).json();
    if (!['queued', 'running'].includes(run.status)) {
      const wall = performance.now() - t0;
      if (run.status !== 'passed') throw new Error(`run ${run.id} ${run.status}: ${JSON.stringify(run.report?.cases?.[0]?.steps?.filter((s) => s.error))}`);
      return { wall, report: run.report };
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

try {
  console.log(machineLine());
  [svc, shop] = await Promise.all([startBenchService({ RUN_CONCURRENCY: '1' }), startShop()]);
  const url = `${shop.url}/app/login.html`;

  // (1) Rules planner.
  const configs = [
    { name: 'rules, screenshots + trace (default)', options: {} },
    { name: 'rules, no screenshots, no trace', options: { screenshots: false, trace: false } },
  ];
  const rows = [];
  const results = Object.fromEntries(configs.map((c) => [c.name, { wall: [], loop: [], sps: [], steps: 0, perStep: [] }]));
  for (let i = 0; i < WARMUP + ITER; i++) {
    // Alternate the configurations so load drift hits both alike.
    for (const c of i % 2 ? [...configs].reverse() : configs) {
      const { wall, report } = await runOnce({ url, plan: PLAN, options: c.options });
      if (i < WARMUP) continue;
      const r = results[c.name];
      const steps = report.totals.steps;
      r.steps = steps;
      r.wall.push(wall);
      r.loop.push(report.durationMs);
      r.sps.push(steps / (wall / 1000));
      r.perStep.push(...report.cases[0].steps.map((s) => s.durationMs));
    }
  }
  for (const c of configs) {
    const r = results[c.name];
    rows.push([c.name, String(r.steps), `${fmt(median(r.wall))} · ${fmt(p90(r.wall))} · ${fmt(min(r.wall))}`, fmt(median(r.loop)), median(r.sps).toFixed(2), fmt(median(r.perStep))]);
  }
  console.log(`\n10-step rules flow through POST /v1/runs (${ITER} runs per configuration after ${WARMUP} warm-up), ms:`);
  table(['configuration', 'steps', 'wall median · p90 · min', 'loop median', 'steps/s', 'step median'], rows);

  // (2) Scripted models over the real wire protocols.
  model = await startScriptedModel({ apiKey: 'bench-key', script: { 'Case 1: ten steps through the shop': MOVES } });
  const mrows = [];
  for (const planner of ['anthropic', 'openai']) {
    const per = { turns: [], input: [], output: [], wall: [], steps: 0 };
    for (let i = 0; i < Math.max(1, Math.ceil(ITER / 2)); i++) {
      const { wall, report } = await runOnce({
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
  }
  if (model.stats.invalid.length) console.log(`WARNING: the scripted server refused requests: ${model.stats.invalid.join('; ')}`);
  console.log('\nSame flow, scripted model over each provider\'s wire protocol (per recorded step; no screenshots/trace):');
  table(['planner', 'steps', 'turns/step', 'input tokens/step', 'output tokens/step', 'wall ms (median)'], mrows);
  const biggest = Math.max(...model.stats.turns.map((t) => t.inputTokens));
  console.log(`largest single request: ${biggest.toLocaleString('en')} input tokens (only the latest snapshot of each role stays in the conversation).`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
