// Snapshots under load: N sessions on the fixture shop (tests/fixtures/app/products.html),
// every session polled back to back (one snapshot in flight per session), over REST (the
// sessions split over 4 HTTP clients, undici keep-alive pools) and over each
// session's WebSocket (GET /v1/sessions/:id/stream, op snapshot), against raw
// playwright-core: N pages (a context each) in a browser launched by this process, each
// polled back to back with page.ariaSnapshot({ mode: 'ai' }). Ariadne runs as its own
// process (`node apps/server/dist/main.js`, LOG_LEVEL=info, one Chromium), so its event
// loop is not shared with the clients, and its CPU time is read from /proc. Phases
// rotate (REST, WebSocket, raw; WebSocket, raw, REST; ...) so load drift on a shared machine hits all.
//
// Printed per N: snapshots/s, p50/p95 latency, the throughput ratio, CPU time per
// snapshot (Ariadne: the server process; raw: this process during the raw phase, i.e.
// what playwright-core itself costs a caller), the CPU of the Chromium answering each
// variant (all its processes), log lines per request, and the load average;
// then the largest N whose p95 stays <= 1.5 s for each. A sequential phase first gives the
// server's CPU per snapshot without contention. Prints figures, asserts nothing.
//
//   npx tsc -b && node bench/concurrency.mjs [--n=10,20,40 | --n=none] [--seconds=8] [--rounds=2] [--warmup=4] [--quick]
//   (--warmup: seconds each variant runs at each N before the counted rounds, uncounted; 0: none)
//   BENCH_SERVER_NODE_ARGS=--cpu-prof node bench/concurrency.mjs   (profile lands in the temp dir, path printed)
//
// Also a module: `import { run } from './concurrency.mjs'; const { rows } = await run({ quick: true })`.

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, cpSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import WebSocket from 'ws';
import { Pool } from 'undici';
import { CHROMIUM_FLAGS, DEFAULT_VIEWPORT } from '@ariadne/pool';
import { SERVER_NODE_FLAGS } from '@ariadne/server';
import { checkNoLeftovers, fmt, freePort, isMain, machineLine, processCpuMs, processTable, quantile, startStaticServer, summedCpuMs, table, withDescendants } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAIN_JS = path.join(ROOT, 'apps/server/dist/main.js');
const CLIENTS = 4;
const P95_LIMIT_MS = 1500;
const SHOP = '/app/products.html';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/** Cleanups of what a run has started, for a Ctrl-C in the middle of it. */
const liveCleanups = new Set();

function loadAverage() {
  try {
    return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  } catch {
    return 'n/a';
  }
}

/**
 * The Chromium processes under `root` (its browser, renderers, GPU and utility processes),
 * leaving out the subtree of `exclude`: for raw, this process's browser but not the
 * server's. Returns a reader of their summed CPU time in ms; a process that has exited
 * since counts what it had at the start.
 */
function chromiumTreeCpu(root, exclude) {
  const procs = processTable();
  return summedCpuMs([...withDescendants([root], procs, new Set([exclude]))].filter((pid) => /chrom/i.test(procs.get(pid)?.comm ?? '')));
}

const ownCpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One request over node:http (cheaper for the caller than fetch); resolves { status, body }. */
function call(agent, base, method, p, body) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(base + p, {
      method,
      agent,
      headers: payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`${method} ${p}: no answer in 60 s`)));
    req.end(payload);
  });
}

async function callOk(agent, base, method, p, body) {
  const r = await call(agent, base, method, p, body);
  if (r.status >= 300) throw new Error(`${method} ${p}: ${r.status} ${r.body.slice(0, 300)}`);
  return r.body ? JSON.parse(r.body) : null;
}

/**
 * One session's WebSocket (GET /v1/sessions/:id/stream), the transport an agent keeps open:
 * commands { id, op, params } and their replies by id. Resolves once the server's hello came.
 */
function openStream(server, id) {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/v1/sessions/${id}/stream`);
    const pending = new Map();
    let seq = 0;
    const stream = {
      call(op, params = {}) {
        const cid = ++seq;
        return new Promise((res, rej) => {
          pending.set(cid, { res, rej });
          ws.send(JSON.stringify({ id: cid, op, params }));
        });
      },
      close: () => new Promise((r) => { ws.once('close', r); ws.close(); setTimeout(r, 2000).unref(); }),
    };
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString());
      if (msg.event === 'hello') return resolve(stream);
      const p = pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id);
      if (msg.error) p.rej(new Error(`${msg.error.code}: ${msg.error.message}`));
      else p.res(msg.result);
    });
    ws.once('error', reject);
    ws.once('close', (code) => {
      reject(new Error(`stream closed ${code}`));
      for (const p of pending.values()) p.rej(new Error(`stream closed ${code}`));
    });
  });
}

/**
 * Ariadne as its own process, one Chromium for up to maxContexts sessions; counts its log
 * lines (stdout) and keeps the last ones for errors. `name` keeps two servers of one workDir
 * apart (bench/server-ab.mjs); `env` adds to or overrides the environment.
 */
export async function startServer(workDir, maxContexts, nodeArgs, { name = 'state', env: extraEnv = {} } = {}) {
  const port = await freePort();
  const env = { ...process.env };
  for (const k of ['API_KEYS', 'API_KEYS_FILE', 'REDIS_URL', 'NODE_URL']) delete env[k];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    STATE_DIR: path.join(workDir, name),
    TMPDIR: workDir,
    LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? 'info', // the default level: its cost is part of the figure
    POOL_BROWSERS: '1',
    POOL_ISOLATION: 'none', // one Chromium, as the raw side
    POOL_MAX_BROWSERS: '1',
    POOL_MAX_CONTEXTS_PER_BROWSER: String(maxContexts),
    POOL_MAX_CONTEXTS: String(maxContexts),
    POOL_WARM_CONTEXTS: '0',
    WORKER_MODE: 'inline',
  }, extraEnv);
  const child = spawn(process.execPath, [...nodeArgs, MAIN_JS], { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: workDir });
  const server = { url: `http://127.0.0.1:${port}`, child, lines: 0, tail: [], browserIds: new Set() };
  const exited = new Promise((r) => child.once('exit', r));
  let partial = '';
  const onData = (chunk) => {
    const text = partial + chunk.toString();
    const lines = text.split('\n');
    partial = lines.pop();
    server.lines += lines.length;
    for (const line of lines.slice(-5)) {
      server.tail.push(line);
      if (server.tail.length > 20) server.tail.shift();
      const m = /"browserId":"([^"]+)"/.exec(line);
      if (m) server.browserIds.add(m[1]);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  server.stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(30_000)]);
      if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited; }
    }
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited while starting:\n${server.tail.join('\n')}`);
    const ok = await call(undefined, server.url, 'GET', '/readyz').then((r) => r.status === 200, () => false);
    if (ok) break;
    if (Date.now() > deadline) { await server.stop(); throw new Error('server not ready in 60 s'); }
    await sleep(200);
  }
  return server;
}

/** N sessions on the shop page; ids. */
export async function openSessions(server, n, pageUrl) {
  const agent = new Agent({ keepAlive: true });
  const ids = [];
  try {
    for (let i = 0; i < n; i++) {
      const s = await callOk(agent, server.url, 'POST', '/v1/sessions', { idleTimeoutSeconds: 3600 });
      ids.push(s.id);
      await callOk(agent, server.url, 'POST', `/v1/sessions/${s.id}/roles/default/actions`, { action: 'navigate', url: pageUrl });
      // The shop renders its cards 120 ms after load.
      await callOk(agent, server.url, 'POST', `/v1/sessions/${s.id}/roles/default/actions`, { action: 'wait_for', text: 'Add to cart' }).catch(() => sleep(300));
    }
  } finally {
    agent.destroy();
  }
  return ids;
}

async function closeSessions(server, ids) {
  const agent = new Agent({ keepAlive: true });
  for (const id of ids) await call(agent, server.url, 'DELETE', `/v1/sessions/${id}`).catch(() => {});
  agent.destroy();
}

/**
 * Poll every target back to back for `ms` (after `warmMs` uncounted): one call in flight
 * per target. Returns latencies, count and CPU time of the measured window.
 */
/** One REST snapshot of session `id` over an undici pool; throws unless 200. */
export async function restSnapshot({ id, pool }) {
  const r = await pool.request({ method: 'GET', path: `/v1/sessions/${id}/roles/default/snapshot` });
  const body = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`snapshot ${r.statusCode}: ${body.slice(0, 200)}`);
}

/**
 * Every target polled back to back with snap(target) for ms, after warmMs uncounted:
 * { lat, count, elapsed, cpuMs (cpu() over the window), clientCpuMs, chromiumCpuMs, errors }.
 */
export async function poll(targets, snap, { warmMs, ms, cpu, chromiumCpu }) {
  const lat = [];
  let counting = false;
  let stop = false;
  let errors = 0;
  const loops = targets.map(async (t) => {
    while (!stop) {
      const t0 = performance.now();
      try {
        await snap(t);
      } catch (err) {
        errors++;
        if (errors <= 3) console.error(`  snapshot failed: ${err.message.split('\n')[0]}`);
        await sleep(50);
        continue;
      }
      if (counting) lat.push(performance.now() - t0);
    }
  });
  await sleep(warmMs);
  counting = true;
  const cpu0 = cpu();
  const chromiumCpuOf = chromiumCpu ? chromiumCpu() : null;
  const chromium0 = chromiumCpuOf ? chromiumCpuOf() : 0;
  const client0 = ownCpuMs();
  const t0 = performance.now();
  await sleep(ms);
  counting = false;
  const elapsed = performance.now() - t0;
  const cpuMs = cpu() - cpu0;
  const clientCpuMs = ownCpuMs() - client0;
  const chromiumCpuMs = chromiumCpuOf ? chromiumCpuOf() - chromium0 : NaN;
  stop = true;
  await Promise.all(loops);
  return { lat, count: lat.length, elapsed, cpuMs, clientCpuMs, chromiumCpuMs, errors };
}

function summarize(name, n, runs) {
  const lat = runs.flatMap((r) => r.lat);
  const count = runs.reduce((a, r) => a + r.count, 0);
  const seconds = runs.reduce((a, r) => a + r.elapsed, 0) / 1000;
  const cpuMs = runs.reduce((a, r) => a + r.cpuMs, 0);
  const clientCpuMs = runs.reduce((a, r) => a + r.clientCpuMs, 0);
  const chromiumCpuMs = runs.reduce((a, r) => a + r.chromiumCpuMs, 0);
  return {
    n,
    variant: name,
    snapshots: count,
    perSecond: count / seconds,
    p50Ms: quantile(lat, 0.5),
    p95Ms: quantile(lat, 0.95),
    cpuMsPerSnapshot: count ? cpuMs / count : NaN,
    // This process (the callers): for Ariadne its HTTP or WebSocket clients, for raw the same figure as cpuMsPerSnapshot.
    clientCpuMsPerSnapshot: count ? clientCpuMs / count : NaN,
    // The Chromium that takes this variant's snapshots (all its processes), per snapshot.
    chromiumCpuMsPerSnapshot: count ? chromiumCpuMs / count : NaN,
    errors: runs.reduce((a, r) => a + r.errors, 0),
  };
}

/** Parse --name=a,b,c (or BENCH_NAME) as a list of positive integers. */
function listArg(name, def) {
  const flag = process.argv.find((a) => a.startsWith(`--${name}=`));
  const raw = flag ? flag.slice(name.length + 3) : process.env[`BENCH_${name.toUpperCase()}`];
  if (!raw) return def;
  if (raw === 'none') return [];
  const out = raw.split(',').map(Number);
  if (out.some((x) => !Number.isInteger(x) || x < 1)) throw new Error(`--${name} takes positive integers, e.g. 10,20,40`);
  return out;
}

/**
 * The measurement. quick: N=10 and 20, one round of 4 s per side. Returns
 * { rows, largest: { ariadne, 'ariadne-ws', raw } (largest N measured with p95 <= 1.5 s, or null), load }.
 * A row: { phase: 'sequential' | 'concurrent', n, variant: 'ariadne' (REST) | 'ariadne-ws' (WebSocket) | 'raw', snapshots,
 * perSecond, p50Ms, p95Ms, cpuMsPerSnapshot, errors, load? (1-min load per phase) }; ariadne
 * rows add ratio (snapshots/s over raw's), the sequential one logLinesPerRequest and
 * idleCpuMsPerSecond (the server's CPU with no request, included in its figures).
 */
export async function run({ quick = false, ns, seconds, rounds, warmup, log = console.log } = {}) {
  ns ??= quick ? [10, 20] : [10, 20, 40];
  seconds ??= quick ? 4 : 8;
  rounds ??= quick ? 1 : 2;
  warmup ??= quick ? 2 : 4;
  // The server runs as `npm start` runs it (its V8 flags), plus any the caller adds.
  const nodeArgs = [...SERVER_NODE_FLAGS, ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)];
  const workDir = mkdtempSync(path.join(tmpdir(), 'ariadne-concurrency-'));
  const marker = `--ariadne-bench=${process.pid}`;
  const maxN = Math.max(1, ...ns);
  let fixtures = null;
  let server = null;
  let browser = null;
  const rows = [];
  const loadStart = loadAverage();
  const emergency = async () => {
    await browser?.close().catch(() => {});
    await server?.stop().catch(() => {});
    rmSync(workDir, { recursive: true, force: true });
  };
  liveCleanups.add(emergency);
  try {
    fixtures = await startStaticServer();
    const pageUrl = fixtures.url + SHOP;
    server = await startServer(workDir, maxN, nodeArgs);
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [...CHROMIUM_FLAGS, marker],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    const serverCpu = () => processCpuMs(server.child.pid);
    // Each side's Chromium, found again per phase (renderers come and go with sessions).
    const serverChromium = () => chromiumTreeCpu(server.child.pid);
    const rawChromium = () => chromiumTreeCpu(process.pid, server.child.pid);
    // The REST callers: undici pools (keep-alive, one socket per session in flight), the
    // cheapest Node HTTP client at hand: the callers share the 2 cores with the server.
    const pools = Array.from({ length: CLIENTS }, () => new Pool(server.url, { connections: Math.ceil(maxN / CLIENTS) + 1 }));
    const rawSnap = ({ page }) => page.ariaSnapshot({ mode: 'ai' });
    const wsSnap = ({ stream }) => stream.call('snapshot');

    // The server's CPU while nothing is asked of it (heartbeats, the inline workers): it
    // runs under every figure below, so it is reported apart.
    let idleCpuMsPerSecond = NaN;
    {
      await sleep(1000);
      const c0 = serverCpu();
      const t0 = performance.now();
      await sleep(quick ? 2000 : 4000);
      idleCpuMsPerSecond = (serverCpu() - c0) / ((performance.now() - t0) / 1000);
    }

    // Sequential, one session: CPU per snapshot without contention (server vs raw caller).
    {
      const [id] = await openSessions(server, 1, pageUrl);
      const ctx = await browser.newContext({ viewport: DEFAULT_VIEWPORT });
      const page = await ctx.newPage();
      await page.goto(pageUrl);
      await page.getByText('Add to cart').first().waitFor();
      const seq = { ariadne: [], raw: [] };
      const linesBefore = server.lines;
      let requests = 0;
      for (let round = 0; round < (quick ? 2 : 4); round++) {
        for (const v of round % 2 ? ['raw', 'ariadne'] : ['ariadne', 'raw']) {
          const target = v === 'ariadne' ? { id, pool: pools[0] } : { page };
          const r = await poll([target], v === 'ariadne' ? restSnapshot : rawSnap, { warmMs: 200, ms: quick ? 1500 : 2500, cpu: v === 'ariadne' ? serverCpu : ownCpuMs, chromiumCpu: v === 'ariadne' ? serverChromium : rawChromium });
          seq[v].push(r);
        }
      }
      await sleep(300); // let the last log lines arrive
      requests = seq.ariadne.reduce((a, r) => a + r.count, 0);
      const linesPerRequest = (server.lines - linesBefore) / Math.max(1, requests); // warm-up requests counted in lines only: an upper bound
      const a = summarize('ariadne', 1, seq.ariadne);
      const b = summarize('raw', 1, seq.raw);
      rows.push({ ...a, phase: 'sequential', ratio: a.perSecond / b.perSecond, logLinesPerRequest: linesPerRequest, idleCpuMsPerSecond }, { ...b, phase: 'sequential' });
      await ctx.close();
      await closeSessions(server, [id]);
    }

    for (const n of ns) {
      const ids = await openSessions(server, n, pageUrl);
      const contexts = [];
      const pages = [];
      for (let i = 0; i < n; i++) {
        const ctx = await browser.newContext({ viewport: DEFAULT_VIEWPORT });
        contexts.push(ctx);
        const page = await ctx.newPage();
        await page.goto(pageUrl);
        await page.getByText('Add to cart').first().waitFor();
        pages.push(page);
      }
      // Each session's WebSocket, opened before the rounds: an agent on the stream keeps it open.
      const streams = [];
      for (const id of ids) streams.push(await openStream(server, id));
      const runs = { ariadne: [], 'ariadne-ws': [], raw: [] };
      const order = ['ariadne', 'ariadne-ws', 'raw'];
      const loads = [];
      const targetsOf = (v) => (v === 'ariadne' ? ids.map((id, i) => ({ id, pool: pools[i % CLIENTS] }))
        : v === 'ariadne-ws' ? streams.map((stream) => ({ stream }))
          : pages.map((page) => ({ page })));
      const snapOf = (v) => (v === 'ariadne' ? restSnapshot : v === 'ariadne-ws' ? wsSnap : rawSnap);
      // A round that is not counted: each variant's code at this N is compiled and its
      // caches are warm before any figure is taken. Without it the first counted phase (REST,
      // first in the rotation) paid the JIT: its server spent 2.2-2.9 ms per snapshot in
      // that phase against 1.0-1.4 ms in the later ones (bench/README).
      if (warmup > 0) for (const v of order) await poll(targetsOf(v), snapOf(v), { warmMs: 0, ms: warmup * 1000, cpu: () => 0 });
      for (let round = 0; round < rounds; round++) {
        // The order rotates each round, so load drift on a shared machine hits every variant.
        for (const v of [...order.slice(round % 3), ...order.slice(0, round % 3)]) {
          runs[v].push(await poll(targetsOf(v), snapOf(v), { warmMs: 1000, ms: seconds * 1000, cpu: v === 'raw' ? ownCpuMs : serverCpu, chromiumCpu: v === 'raw' ? rawChromium : serverChromium }));
          loads.push(loadAverage().split(' ')[0]);
        }
      }
      await Promise.all(streams.map((s) => s.close()));
      const a = summarize('ariadne', n, runs.ariadne);
      const w = summarize('ariadne-ws', n, runs['ariadne-ws']);
      const b = summarize('raw', n, runs.raw);
      const load = loads.join('/');
      rows.push(
        { ...a, phase: 'concurrent', ratio: a.perSecond / b.perSecond, load },
        { ...w, phase: 'concurrent', ratio: w.perSecond / b.perSecond, load },
        { ...b, phase: 'concurrent', load },
      );
      log(`  N=${n}: ariadne ${a.perSecond.toFixed(1)}/s p95 ${fmt(a.p95Ms)} ms, over WebSocket ${w.perSecond.toFixed(1)}/s p95 ${fmt(w.p95Ms)} ms, raw ${b.perSecond.toFixed(1)}/s p95 ${fmt(b.p95Ms)} ms (load ${load})`);
      await Promise.all(contexts.map((c) => c.close().catch(() => {})));
      await closeSessions(server, ids);
    }
    await Promise.all(pools.map((p) => p.close()));
  } finally {
    await browser?.close().catch(() => {});
    const ids = server ? [...server.browserIds] : [];
    await server?.stop().catch(() => {});
    await fixtures?.close().catch(() => {});
    await checkNoLeftovers(new Set([marker, ...ids.map((id) => `--ariadne-browser=${id}`)]));
    if (nodeArgs.some((a) => a.startsWith('--cpu-prof'))) {
      const profiles = readdirSync(workDir).filter((f) => f.endsWith('.cpuprofile'));
      for (const f of profiles) {
        const dest = path.join(tmpdir(), `ariadne-server-${process.pid}-${f}`);
        cpSync(path.join(workDir, f), dest);
        log(`server CPU profile: ${dest}`);
      }
    }
    rmSync(workDir, { recursive: true, force: true });
    liveCleanups.delete(emergency);
  }
  const largest = {};
  for (const v of ['ariadne', 'ariadne-ws', 'raw']) {
    const ok = rows.filter((r) => r.phase === 'concurrent' && r.variant === v && r.p95Ms <= P95_LIMIT_MS).map((r) => r.n);
    largest[v] = ok.length ? Math.max(...ok) : null;
  }
  // The aggregator's row contract (bench/lib.mjs) on top of this module's own fields.
  const contract = rows.map((r) => ({
    ...r,
    measurement: r.phase === 'sequential' ? 'snapshot, sequential (shop)' : 'snapshots under load (shop)',
    against: r.variant === 'raw' ? 'raw' : 'ariadne',
    unit: 'ms',
    median: r.p50Ms,
    value: `${r.perSecond.toFixed(1)} snapshots/s`,
    note: `p95 ${fmt(r.p95Ms)} ms, CPU ${fmt(r.cpuMsPerSnapshot)} ms/snapshot${r.errors ? `, ${r.errors} errors` : ''}`,
    ...(r.ratio !== undefined ? { ratio: Math.round(r.ratio * 100) / 100, ratioTo: 'raw (snapshots/s)' } : {}),
  }));
  return { rows: contract, largest, load: { start: loadStart, end: loadAverage() } };
}

async function main() {
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, () => {
      console.error(`\n${sig}: stopping the server and browsers...`);
      setTimeout(() => process.exit(130), 30_000).unref();
      Promise.allSettled([...liveCleanups].map((fn) => fn())).finally(() => process.exit(130));
    });
  }
  const quick = process.argv.includes('--quick');
  const ns = listArg('n', undefined);
  const secondsArg = listArg('seconds', undefined)?.[0];
  const roundsArg = listArg('rounds', undefined)?.[0];
  const warmupArg = process.argv.includes('--warmup=0') ? 0 : listArg('warmup', undefined)?.[0];
  console.log(`concurrency: fixture shop (${SHOP}), ${CLIENTS} clients, one snapshot in flight per session; ${quick ? 'quick' : 'full'} run`);
  console.log(machineLine());
  const { rows, largest, load } = await run({ quick, ns, seconds: secondsArg, rounds: roundsArg, warmup: warmupArg });
  console.log('');
  table(
    ['phase', 'N', 'variant', 'snapshots/s', 'p50 ms', 'p95 ms', 'x raw', 'CPU ms/snapshot', 'client CPU ms/snapshot', 'Chromium CPU ms/snapshot', 'log lines/req', 'errors', 'load (1 min, per phase)'],
    rows.map((r) => [
      r.phase, r.n, r.variant, r.perSecond.toFixed(1), fmt(r.p50Ms), fmt(r.p95Ms), r.ratio ? r.ratio.toFixed(2) : '', fmt(r.cpuMsPerSnapshot),
      r.variant === 'raw' ? '' : fmt(r.clientCpuMsPerSnapshot), fmt(r.chromiumCpuMsPerSnapshot),
      r.logLinesPerRequest !== undefined ? r.logLinesPerRequest.toFixed(2) : '', r.errors, r.load ?? '',
    ]),
  );
  console.log('');
  console.log('CPU ms/snapshot: ariadne = the server process (Node only, not Chromium); raw = this process while only the raw pages run.');
  console.log('client CPU ms/snapshot: this process while Ariadne is polled, i.e. what its HTTP or WebSocket clients cost on the same 2 cores.');
  console.log("Chromium CPU ms/snapshot: every process of the browser that takes the variant's snapshots (the other browser's idle pages run beside it).");
  const seq = rows.find((r) => r.phase === 'sequential' && r.variant === 'ariadne');
  if (seq) console.log(`server CPU when idle: ${fmt(seq.idleCpuMsPerSecond)} ms/s (included in the ariadne figures: ${fmt(seq.idleCpuMsPerSecond / seq.perSecond)} ms per sequential snapshot)`);
  console.log(`largest N with p95 <= ${P95_LIMIT_MS} ms: ariadne ${largest.ariadne ?? 'none'}, over WebSocket ${largest['ariadne-ws'] ?? 'none'}, raw ${largest.raw ?? 'none'} (of the N measured)`);
  console.log(`load average: start ${load.start}, end ${load.end}`);
}

if (isMain(import.meta.url)) {
  main().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
