// Shared pieces of the benchmarks: a service started in this process (embedded Redis in a
// temp dir, real Chromium), a tiny static server for tests/fixtures/, a timed HTTP client,
// statistics, and a check that no Chromium process started by the bench is left behind.
// Benchmarks print figures; they never assert timings.

import { createServer } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { loadConfig, startService } from '@ariadne/server';

export const FIXTURES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../tests/fixtures');

/** Integer from argv (`--name=value`) or the environment (`BENCH_NAME`), else the default. */
export function intArg(name, def) {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = flag ? flag.slice(name.length + 3) : process.env[`BENCH_${name.toUpperCase()}`];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer (got ${raw})`);
  return n;
}

// Services started and not yet stopped, and starts still in flight: a Ctrl-C during a
// start must still stop what that start brings up (see onCleanup).
const liveServices = new Set();
const startsInFlight = new Set();

/** Start Ariadne in this process on a free port, with its own embedded Redis in a temp dir. */
export async function startBenchService(env = {}) {
  const start = startOne(env);
  startsInFlight.add(start);
  try {
    return await start;
  } finally {
    startsInFlight.delete(start);
  }
}

async function startOne(env) {
  const stateDir = mkdtempSync(path.join(tmpdir(), 'ariadne-bench-'));
  // If the process is forced out before stop() finishes, still take the temp dir along.
  const removeDir = () => rmSync(stateDir, { recursive: true, force: true });
  process.once('exit', removeDir);
  let service;
  try {
    const config = loadConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      STATE_DIR: stateDir,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
      POOL_BROWSERS: '1',
      POOL_MAX_CONTEXTS_PER_BROWSER: '8',
      POOL_MAX_CONTEXTS: '8',
      ...env,
    });
    service = await startService(config);
  } catch (err) {
    process.removeListener('exit', removeDir);
    removeDir();
    throw err;
  }
  const url = service.url.replace('[::1]', '127.0.0.1');
  // Remember our browsers' marker ids (see BrowserPool) to check they are gone after close.
  const markers = new Set(service.pool.stats().browsers.map((b) => `--ariadne-browser=${b.id}`));
  service.pool.on('browser-restarted', ({ browserId }) => markers.add(`--ariadne-browser=${browserId}`));
  // Tenant isolation launches browsers on demand: track those too.
  service.pool.on('browser-launched', ({ browserId }) => markers.add(`--ariadne-browser=${browserId}`));
  let stopped = null;
  const handle = {
    service,
    url,
    markers,
    stop() {
      stopped ??= (async () => {
        try {
          await service.close();
        } finally {
          liveServices.delete(handle);
          process.removeListener('exit', removeDir);
          removeDir();
        }
      })();
      return stopped;
    },
  };
  liveServices.add(handle);
  return handle;
}

/** Stop every bench service still running (after waiting for starts in flight); their browser markers. */
async function stopStragglers() {
  await Promise.allSettled([...startsInFlight]);
  const markers = new Set();
  for (const h of [...liveServices]) {
    for (const m of h.markers) markers.add(m);
    await h.stop().catch((err) => console.error('stop failed:', err));
  }
  return markers;
}

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json' };

/** Serve tests/fixtures/ on a free loopback port (static files only). */
export async function startStaticServer() {
  const server = createServer(async (req, res) => {
    try {
      const { pathname, searchParams } = new URL(req.url ?? '/', 'http://x');
      if (pathname === '/app/api/banner') {
        // The fixture shop's announcement (tests/fixtures/app/app.js): none.
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"text":""}');
      }
      if (pathname === '/slow') {
        // As tests/helpers/fixture-server.ts: answers after ?ms= (for settle figures).
        await new Promise((r) => setTimeout(r, Math.min(Number(searchParams.get('ms') ?? 300), 30_000)));
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ items: ['Alpha', 'Beta', 'Gamma'] }));
      }
      const file = path.join(FIXTURES_DIR, path.normalize(decodeURIComponent(pathname)));
      if (!file.startsWith(FIXTURES_DIR + path.sep)) throw new Error('outside fixtures');
      const data = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      res.end(data);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** One HTTP call, timed from before fetch to the last byte of the body. Throws on non-2xx. */
export async function timed(method, url, body) {
  const t0 = performance.now();
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
  return { ms, status: res.status, bytes: Buffer.byteLength(text), json: text ? JSON.parse(text) : null };
}

export function quantile(values, q) {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
export const median = (v) => quantile(v, 0.5);
export const p90 = (v) => quantile(v, 0.9);
export const min = (v) => Math.min(...v);
export const max = (v) => Math.max(...v);

export const fmt = (ms) => (Number.isFinite(ms) ? ms.toFixed(1) : 'n/a');
export const kb = (bytes) => (bytes / 1024).toFixed(1);

/** Print rows as an aligned plain-text table. */
export function table(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  for (const [i, r] of cells.entries()) {
    console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  }
}

/** utime + stime of one process, in ms (Linux /proc, which counts in 10 ms ticks). Throws once it has exited. */
export function processCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // comm may hold spaces
  return (Number(f[11]) + Number(f[12])) * 10;
}

/**
 * A reader of the summed CPU time (ms) of these processes; one that has exited since counts
 * what it had at its last reading.
 */
export function summedCpuMs(pids) {
  const list = [...pids];
  const last = new Map();
  return () => list.reduce((sum, pid) => {
    try { last.set(pid, processCpuMs(pid)); } catch { /* exited: keep its last reading */ }
    return sum + (last.get(pid) ?? 0);
  }, 0);
}

/** A TCP port free on 127.0.0.1 right now, for a server started as another process. */
export async function freePort() {
  const srv = createNetServer();
  await new Promise((resolve, reject) => { srv.once('error', reject); srv.listen(0, '127.0.0.1', resolve); });
  const { port } = srv.address();
  await new Promise((r) => srv.close(r));
  return port;
}

/** Live processes: pid -> { ppid, comm, cmdline } (zombies left out; empty off Linux). */
export function processTable() {
  const out = new Map();
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    try {
      const stat = readFileSync(`/proc/${e}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // comm may hold spaces
      if (fields[0] === 'Z' || fields[0] === 'X') continue;
      out.set(Number(e), {
        ppid: Number(fields[1]),
        comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
        cmdline: readFileSync(`/proc/${e}/cmdline`, 'utf8').replaceAll('\0', ' '),
      });
    } catch { /* gone meanwhile */ }
  }
  return out;
}

/** These pids and every process under them (by parent pid), leaving out the subtrees of `exclude`. */
export function withDescendants(roots, procs = processTable(), exclude = new Set()) {
  const found = new Set(roots);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs) if (!found.has(pid) && !exclude.has(pid) && found.has(p.ppid)) { found.add(pid); grew = true; }
  }
  return found;
}

/** Pids of live processes whose command line contains one of the markers (Linux /proc). */
export function pidsWithMarkers(markers) {
  const found = [];
  let entries = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return found; // not Linux: nothing to check
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let cmd;
    try {
      cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    for (const m of markers) if (cmd.includes(m)) { found.push(Number(entry)); break; }
  }
  return found;
}

/** Report (and kill, as a last resort) Chromium processes this bench started that outlived cleanup. */
export async function checkNoLeftovers(markers) {
  if (!markers.size) return; // nothing was started
  // Chromium's helper processes exit a moment after the browser process.
  let left = [];
  for (let i = 0; i < 50; i++) {
    left = pidsWithMarkers(markers);
    if (!left.length) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  if (left.length) {
    console.error(`WARNING: ${left.length} Chromium process(es) started by this bench outlived cleanup: ${left.join(' ')}; killing them.`);
    for (const pid of left) {
      try { process.kill(pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    process.exitCode = 1;
  } else {
    console.log('cleanup: no Chromium process started by this bench is left.');
  }
}

/** Run cleanups once, on normal exit, on error and on Ctrl-C. */
export function onCleanup(fn) {
  let done = null;
  const run = () => (done ??= (async () => {
    // Hold the event loop open: Node would otherwise exit mid-cleanup whenever the only
    // thing pending is a promise (e.g. waiting for a child process), skipping the rest.
    const hold = setInterval(() => {}, 1000);
    try {
      await fn();
      // A service whose start was still in flight when cleanup began is not in the
      // bench's own list: stop it too, and check its browsers are gone.
      const late = await stopStragglers();
      if (late.size) await checkNoLeftovers(late);
    } finally {
      clearInterval(hold);
    }
  })());
  const onSignal = (sig) => {
    console.error(`\n${sig}: cleaning up...`);
    // A second signal, or a cleanup that hangs, must still end the process.
    process.once(sig, () => process.exit(130));
    setTimeout(() => process.exit(130), 30_000).unref();
    run().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  return run;
}

export function machineLine() {
  let load = '';
  try {
    load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch { /* not Linux */ }
  return `node ${process.version}, ${new Date().toISOString()}${load ? `, load average ${load}` : ''}`;
}

// ---- The run({ quick }) contract of bench/run-all.mjs ----------------------------------
// A measurement module exports `async function run({ quick })` returning `{ rows, notes? }`;
// every row is one figure: { measurement, variant, against?: 'ariadne' | 'raw' | 'playwright-mcp',
// n?, median?, p90?, min?, unit?: 'ms', ratio?, ratioTo?, value?, note? }. run-all.mjs writes
// them as JSON and a Markdown table; run as a script, a module prints its own tables.

/** True when the module with this import.meta.url is the script node was started with. */
export function isMain(metaUrl) {
  return Boolean(process.argv[1]) && fileURLToPath(metaUrl) === path.resolve(process.argv[1]);
}

/**
 * A measurement module started as a script: run({ quick }) (--quick or BENCH_QUICK=1), print
 * its rows unless it prints its own tables, exit 1 on an error, and then leave: a stopped
 * service's client handles must not keep node running. Imported, it does nothing.
 */
export function runAsScript(metaUrl, run, { print = true } = {}) {
  if (!isMain(metaUrl)) return;
  run({ quick: quickArg() })
    .then(({ rows }) => { if (print) printRows(rows); })
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(() => process.exit());
}

/** `--quick` on the command line (or BENCH_QUICK=1). */
export const quickArg = () => process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';

/** The 1-, 5- and 15-minute load averages (Linux), or null. */
export function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number);
  } catch {
    return null;
  }
}

/** A timing row from samples (ms): median, p90, min, and the ratio of medians to a baseline's samples. */
export function timingRow(measurement, variant, against, samples, { baseline, ratioTo, note } = {}) {
  const row = { measurement, variant, against, n: samples.length, median: round(median(samples)), p90: round(p90(samples)), min: round(min(samples)), unit: 'ms' };
  if (baseline?.length) {
    row.ratio = Number((median(samples) / median(baseline)).toFixed(2));
    row.ratioTo = ratioTo;
  }
  if (note) row.note = note;
  return row;
}

/** A single-value row (a count, tokens, a hit rate). */
export const valueRow = (measurement, variant, against, value, note) => ({ measurement, variant, against, value, ...(note ? { note } : {}) });

const round = (x) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : null);

/** Print contract rows as a plain-text table (what a module run as a script shows). */
export function printRows(rows) {
  table(['measurement', 'variant', 'against', 'n', 'median', 'p90', 'min', 'ratio', 'value / note'], rows.map((r) => [
    r.measurement ?? '', r.variant ?? '', r.against ?? '', r.n ?? '', fmtOr(r.median), fmtOr(r.p90), fmtOr(r.min),
    r.ratio !== undefined ? `${r.ratio}${r.ratioTo ? ` × ${r.ratioTo}` : ''}` : '',
    [r.value, r.note].filter((x) => x !== undefined && x !== '').join(' · '),
  ]));
}
const fmtOr = (x) => (typeof x === 'number' ? fmt(x) : '');

/** The browser a raw playwright-core baseline drives: the pool's flags, marked for the leak check. */
export async function launchRawBrowser(marker) {
  const [{ chromium }, { CHROMIUM_FLAGS }] = await Promise.all([import('playwright-core'), import('@ariadne/pool')]);
  // Playwright's own signal handlers would close every browser of this process and exit
  // before the bench's cleanup ran: the bench handles signals.
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, marker],
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
}
