#!/usr/bin/env node
// The targeting corpus (tests/corpus/): every page's plain-English plans through the rules
// planner (POST /v1/runs, several cases per run) and its REST-ladder episodes (POST
// .../actions with a description), each judged from the page's own record. Prints per
// planner solved / honest failure / silent wrong, wall times, and every silent-wrong
// episode with what was done. Figures, not pass/fail.
// `node bench/corpus.mjs [--page=todo] [--kind=plan|rest] [--cases=6] [--concurrency=2] [--json=out.json] [--verbose]`
import { appendFileSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { checkNoLeftovers, fmt, intArg, machineLine, median, onCleanup, p90, startBenchService, table } from './lib.mjs';
import { startCorpusServer } from '../tests/corpus/server.mjs';
import { episodesOf, explainSilent, loadCorpus, runPlanEpisodes, runRestEpisodes, summarize } from '../tests/corpus/runner.mjs';

const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const PAGE = arg('page');
const KIND = arg('kind');
const CASES = intArg('cases', 6);
const CONCURRENCY = intArg('concurrency', 2);
const VERBOSE = process.argv.includes('--verbose');

let svc = null;
let corpus = null;
const markers = new Set();
const cleanup = onCleanup(async () => {
  await corpus?.close();
  if (svc) { for (const m of svc.markers) markers.add(m); await svc.stop(); }
  await checkNoLeftovers(markers);
});

try {
  console.log(machineLine());
  [svc, corpus] = await Promise.all([startBenchService({ RUN_CONCURRENCY: String(CONCURRENCY), POOL_WARM_CONTEXTS: '2' }), startCorpusServer()]);
  const pages = loadCorpus().filter((p) => !PAGE || p.name.includes(PAGE));
  const all = episodesOf(pages);
  console.log(`corpus: ${pages.length} pages, ${all.filter((e) => e.kind === 'plan').length} plan episodes, ${all.filter((e) => e.kind === 'rest').length} REST episodes (${all.filter((e) => e.expect === 'fail').length} must-fail)`);
  // Each verdict is also appended to --json's .jsonl as it comes, so a run cut short keeps its figures.
  const jsonl = arg('json') ? `${arg('json')}l` : null;
  const progress = (r) => {
    if (jsonl) appendFileSync(jsonl, `${JSON.stringify({ id: r.episode.id, kind: r.episode.kind, expect: r.episode.expect, verdict: r.verdict, wallMs: Math.round(r.wallMs), error: r.error, check: r.check?.why, did: r.did, seen: r.seen })}\n`);
    if (VERBOSE) console.log(`  ${r.verdict.padEnd(6)} ${r.episode.id}${r.error ? `  — ${r.error.slice(0, 160)}` : ''}`);
  };
  const out = {};
  if (!KIND || KIND === 'rest') {
    const t0 = performance.now();
    const { results } = await runRestEpisodes({ serviceUrl: svc.url, corpusUrl: corpus.url, episodes: all.filter((e) => e.kind === 'rest'), onResult: progress });
    out.rest = { results, wallMs: performance.now() - t0, per: results.map((r) => r.wallMs) };
  }
  if (!KIND || KIND === 'plan') {
    const t0 = performance.now();
    const { results, runs } = await runPlanEpisodes({ serviceUrl: svc.url, corpusUrl: corpus.url, episodes: all.filter((e) => e.kind === 'plan'), casesPerRun: CASES, concurrency: CONCURRENCY, onResult: progress });
    out.rules = { results, runs, wallMs: performance.now() - t0, per: results.map((r) => r.wallMs) };
  }

  const rows = [];
  for (const [name, o] of [['rules planner (POST /v1/runs)', out.rules], ['REST ladder (actions + description)', out.rest]]) {
    if (!o) continue;
    const s = summarize(o.results);
    const mf = o.results.filter((r) => r.episode.expect === 'fail');
    rows.push([name, String(s.episodes), `${s.solved} (${s.rates.solved})`, `${s.honest} (${s.rates.honest})`, `${s.silent} (${s.rates.silent})`,
      `${mf.filter((r) => r.verdict === 'solved').length}/${mf.length}`, `${fmt(median(o.per))} · ${fmt(p90(o.per))}`,
      o.runs ? `${fmt(median(o.runs.map((r) => r.wallMs)))} · ${fmt(p90(o.runs.map((r) => r.wallMs)))} (${o.runs.length} runs)` : '-', (o.wallMs / 1000).toFixed(0)]);
  }
  console.log('\nVerdicts per planner (solved = right outcome on the page / must-fail refused; honest = failed with an error; silent = passed, page outcome wrong):');
  table(['planner', 'episodes', 'solved', 'honest failure', 'silent wrong', 'must-fail refused', 'ms per episode median · p90', 'ms per run median · p90', 'total s'], rows);
  for (const [name, o] of [['rules planner', out.rules], ['REST ladder', out.rest]]) {
    if (!o) continue;
    const silent = o.results.filter((r) => r.verdict === 'silent');
    console.log(`\nSilent wrong, ${name} (${silent.length}):`);
    for (const r of silent) console.log(explainSilent(r));
  }
  // Per page: where the misses are.
  const byPage = new Map();
  for (const [planner, o] of [['rules', out.rules], ['rest', out.rest]]) {
    for (const r of o?.results ?? []) {
      const k = r.episode.page.name;
      const e = byPage.get(k) ?? { rules: [0, 0, 0], rest: [0, 0, 0] };
      e[planner][['solved', 'honest', 'silent'].indexOf(r.verdict)]++;
      byPage.set(k, e);
    }
  }
  console.log('\nPer page, solved/honest/silent:');
  table(['page', 'rules', 'REST'], [...byPage].map(([k, e]) => [k, e.rules.join('/'), e.rest.join('/')]));
  const jsonOut = arg('json');
  if (jsonOut) {
    const slim = (o) => o && o.results.map((r) => ({ id: r.episode.id, kind: r.episode.kind, expect: r.episode.expect, verdict: r.verdict, passed: r.passed, wallMs: Math.round(r.wallMs), error: r.error, check: r.check?.why, did: r.did, seen: r.seen }));
    writeFileSync(jsonOut, JSON.stringify({ rules: slim(out.rules), rest: slim(out.rest) }, null, 1));
    console.log(`\nper-episode results written to ${jsonOut}`);
  }
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
  // Keep-alive sockets to the corpus server can hold the event loop open after everything is
  // closed and checked: end here so a scripted run of several pages goes on.
  process.exit(process.exitCode ?? 0);
}
