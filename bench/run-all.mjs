#!/usr/bin/env node
// Every issue-12 measurement in one run: Ariadne beside raw playwright-core (same process)
// and Playwright MCP 0.0.83 (over stdio), same pages, interleaved rounds inside each module.
// Each module exports `async function run({ quick })` → `{ rows, notes? }` (see lib.mjs);
// this aggregator runs them one after the other, records the load average around each, and
// writes bench/results/<YYYY-MM-DD>.json and .md. A module that is missing, or that has not
// been converted to the contract yet, is reported as a skipped row (it is not imported: the
// old scripts run on import).
//
//   npm run bench                     (tsc -b && node bench/run-all.mjs)
//   node bench/run-all.mjs --quick    a short run (fewer rounds)
//   node bench/run-all.mjs --only=lease,settle

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadAverage, printRows, quickArg } from './lib.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(HERE, '..');

// In the order of the issue (lease, snapshot small/wide, click with each settle policy,
// locators vs normalize(), 10-step flow, Ariadne's own MCP vs REST), except concurrency:
// it runs last, since its 40 pages leave the load average at 25-35 for minutes, and the
// flow figures taken right after it were measured on that load, not on the machine.
const MODULES = [
  { key: 'lease', file: 'lease-latency.mjs', title: 'Lease: a fresh session until its first snapshot' },
  { key: 'context', file: 'context-cost.mjs', title: "A lease's window: CPU, memory and processes, with and without the omnibox WebUI" },
  { key: 'snapshot', file: 'snapshot-latency.mjs', title: 'Snapshot, small and wide page' },
  { key: 'surface', file: 'surface-cost.mjs', title: 'Surface pass (issue 24) on top of the snapshot' },
  { key: 'settle', file: 'snapshot-settle.mjs', title: 'Wide-page budget, click with each settle policy, fetch then render' },
  { key: 'locators', file: 'locators.mjs', title: 'Locators vs normalize()' },
  { key: 'flows', file: 'flows.mjs', title: '10-step flow, with and without artifacts' },
  { key: 'mcp', file: 'mcp.mjs', title: "Ariadne's MCP vs REST" },
  { key: 'concurrency', file: 'concurrency.mjs', title: 'Concurrency N=10/20/40' },
];

const quick = quickArg();
const onlyArg = process.argv.find((a) => a.startsWith('--only='));
const only = onlyArg ? new Set(onlyArg.slice(7).split(',')) : null;
const EXPORTS_RUN = /export\s+(async\s+)?function\s+run\s*\(|export\s*\{[^}]*\brun\b[^}]*\}|export\s+const\s+run\s*=/;

function versionOf(pkg) {
  try {
    return JSON.parse(readFileSync(path.join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')).version;
  } catch {
    return null;
  }
}

const startedAt = new Date();
const result = {
  date: startedAt.toISOString().slice(0, 10),
  startedAt: startedAt.toISOString(),
  quick,
  machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null, memoryGB: Math.round(totalmem() / 2 ** 30), node: process.version },
  versions: { 'playwright-core': versionOf('playwright-core'), '@playwright/mcp': versionOf('@playwright/mcp'), chromium: process.env.CHROMIUM_PATH || '/usr/bin/chromium' },
  loadAverage: { start: loadAverage(), end: null },
  modules: [],
};

console.log(`bench/run-all: ${quick ? 'quick' : 'full'} run, load average ${loadAverage()?.join(' ') ?? 'n/a'}`);
for (const m of MODULES) {
  if (only && !only.has(m.key)) continue;
  const file = path.join(HERE, m.file);
  const entry = { module: m.file, title: m.title, status: 'ok', seconds: null, loadBefore: loadAverage(), loadAfter: null, rows: [], notes: [] };
  result.modules.push(entry);
  if (!existsSync(file)) {
    entry.status = 'skipped';
    entry.rows.push({ measurement: m.title, variant: `skipped: not present (bench/${m.file})` });
  } else if (!EXPORTS_RUN.test(readFileSync(file, 'utf8'))) {
    entry.status = 'skipped';
    entry.rows.push({ measurement: m.title, variant: `skipped: bench/${m.file} does not export run({ quick }) yet` });
  } else {
    console.log(`\n=== ${m.title} (bench/${m.file}) ===`);
    const t0 = performance.now();
    try {
      const mod = await import(pathToFileURL(file).href);
      const out = await mod.run({ quick });
      entry.rows = Array.isArray(out?.rows) ? out.rows : [];
      entry.notes = Array.isArray(out?.notes) ? out.notes : [];
    } catch (err) {
      console.error(err);
      entry.status = 'failed';
      entry.rows.push({ measurement: m.title, variant: `failed: ${String(err?.message ?? err).split('\n')[0].slice(0, 300)}` });
      process.exitCode = 1;
    }
    entry.seconds = Math.round((performance.now() - t0) / 100) / 10;
  }
  entry.loadAfter = loadAverage();
  if (entry.rows.length) printRows(entry.rows);
}
result.finishedAt = new Date().toISOString();
result.loadAverage.end = loadAverage();

const dir = path.join(HERE, 'results');
mkdirSync(dir, { recursive: true });
const base = path.join(dir, result.date);
writeFileSync(`${base}.json`, `${JSON.stringify(result, null, 2)}\n`);
writeFileSync(`${base}.md`, markdown(result));
console.log(`\nwrote ${path.relative(ROOT, base)}.json and .md`);
// Every module closed its browsers and servers (each checks for leftovers); a client
// library's idle handle (an MCP stdio transport, a keep-alive agent) must not keep
// `npm run bench` from returning.
process.exit(0);

function markdown(r) {
  const la = (l) => (l ? l.map((x) => x.toFixed(2)).join(' / ') : 'n/a');
  const cell = (x) => (x === undefined || x === null ? '' : String(x).replaceAll('|', '\\|'));
  const num = (x) => (typeof x === 'number' ? x.toFixed(1) : cell(x));
  const lines = [
    `# Benchmarks ${r.date}${r.quick ? ' (quick run)' : ''}`,
    '',
    `${r.machine.cpus} cores (${r.machine.cpuModel}), ${r.machine.memoryGB} GB, Node ${r.machine.node}, playwright-core ${r.versions['playwright-core']}, @playwright/mcp ${r.versions['@playwright/mcp']}, Chromium ${r.versions.chromium}.`,
    `Started ${r.startedAt}, finished ${r.finishedAt}. Load average (1 / 5 / 15 min): ${la(r.loadAverage.start)} at the start, ${la(r.loadAverage.end)} at the end.`,
    'Times in ms; ratio = this median / the named baseline\'s median, measured in the same interleaved rounds.',
    '',
  ];
  for (const m of r.modules) {
    lines.push(`## ${m.title}`, '', `\`bench/${m.module}\`: ${m.status}${m.seconds !== null ? `, ${m.seconds} s` : ''}; load average ${la(m.loadBefore)} before, ${la(m.loadAfter)} after.`, '');
    lines.push('| measurement | variant | against | n | median | p90 | min | ratio | value / note |', '|---|---|---|---:|---:|---:|---:|---:|---|');
    for (const row of m.rows) {
      const ratio = row.ratio !== undefined ? `${row.ratio}${row.ratioTo ? ` × ${row.ratioTo}` : ''}` : '';
      const extra = [row.value, row.note].filter((x) => x !== undefined && x !== null && x !== '').join(' · ');
      lines.push(`| ${cell(row.measurement)} | ${cell(row.variant)} | ${cell(row.against)} | ${cell(row.n)} | ${num(row.median)} | ${num(row.p90)} | ${num(row.min)} | ${cell(ratio)} | ${cell(extra)} |`);
    }
    for (const n of m.notes) lines.push('', `- ${n}`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
