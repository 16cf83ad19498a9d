#!/usr/bin/env node
// How long a service takes to start in a process that has started one before: what every
// test file pays (vitest runs files in two long-lived workers) and a restarted node pays
// nothing of. Starts and stops the in-process service N times (embedded Redis, one browser,
// one warm context) and prints the first start, the median and p90 of the rest, and the
// median stop. Figures, not pass/fail.
// `node bench/service-start.mjs [--runs=8]`
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig, startService } from '@ariadne/server';
import { fmt, intArg, machineLine, median, p90, table } from './lib.mjs';

const RUNS = intArg('runs', 8);
console.log(machineLine());
const starts = [];
const stops = [];
for (let i = 0; i < RUNS; i++) {
  const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-start-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', STATE_DIR: dir, LOG_LEVEL: 'silent', POOL_BROWSERS: '1', POOL_MAX_CONTEXTS_PER_BROWSER: '12', POOL_MAX_CONTEXTS: '12', POOL_WARM_CONTEXTS: '1' });
  const t0 = performance.now();
  const svc = await startService(config);
  starts.push(performance.now() - t0);
  const t1 = performance.now();
  await svc.close();
  stops.push(performance.now() - t1);
  rmSync(dir, { recursive: true, force: true });
}
const rest = starts.slice(1);
table(['runs', 'first start ms', 'later starts median · p90 ms', 'stop median ms'], [[String(RUNS), fmt(starts[0]), `${fmt(median(rest))} · ${fmt(p90(rest))}`, fmt(median(stops))]]);
