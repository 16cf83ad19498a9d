// Cluster load: N clients loop create -> navigate -> snapshot -> delete for a fixed time
// against real `node apps/server/dist/main.js` processes that share one redis-server of
// this script's own (free port, temp dir, AOF on). Two phases, one after the other in this
// process: ONE node, then TWO nodes. In the two-node phase sessions are created round-robin
// over the nodes and some requests of each session go to the node that does NOT own it, so
// forwarding is exercised. Per phase it prints cycles, throughput, p50/p95 of every step and
// of the whole cycle, 429/503/other errors, and the peak RSS of the nodes' Chromium
// processes per leased context. At the end of each phase it checks that every pool and
// Redis are back to zero leased contexts, stops the nodes with SIGTERM and checks that no
// Chromium process of theirs is left. Exits non-zero when an end check fails.
//
//   npm run bench:cluster                                  (after npx tsc -b)
//   node bench/cluster-load.mjs --clients 4 --seconds 20

import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { freePort, processTable, startStaticServer, withDescendants } from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAIN_JS = path.join(ROOT, 'apps/server/dist/main.js');

// ---------------------------------------------------------------- options

/** `--name N`, `--name=N` or BENCH_NAME; an integer >= min. */
function intOption(name, def, min = 1) {
  const argv = process.argv.slice(2);
  let raw;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) raw = argv[i + 1];
    else if (argv[i].startsWith(`--${name}=`)) raw = argv[i].slice(name.length + 3);
  }
  raw ??= process.env[`BENCH_${name.toUpperCase()}`];
  if (raw === undefined || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min} (got ${raw})`);
  return n;
}

const CLIENTS = intOption('clients', 4);
const SECONDS = intOption('seconds', 20);
const MAX_CONTEXTS = intOption('contexts', 4); // per node
const WARMUP = intOption('warmup', 1, 0); // uncounted cycles per client before the timed window
const SAMPLE_MS = 500;
const REQUEST_TIMEOUT_MS = 90_000; // above QUEUE_TIMEOUT_SECONDS=30, so the service answers first
const END_CHECK_WAIT_MS = 15_000; // > LEASE_TTL_MS (10 s): see "ghost lease" in bench/README.md
const STOP_TIMEOUT_MS = 40_000; // SHUTDOWN_TIMEOUT_MS is 15 s by default
const STEPS = ['create', 'navigate', 'snapshot', 'delete', 'cycle'];
const allNodes = []; // every node ever started, for the last-resort cleanup

// ---------------------------------------------------------------- small helpers

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function quantile(values, q) {
  if (!values.length) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}
const ms = (v) => (Number.isFinite(v) ? v.toFixed(0) : 'n/a');
const mb = (bytes) => (Number.isFinite(bytes) ? (bytes / 1024 / 1024).toFixed(0) : 'n/a');

function printTable(headers, rows) {
  const cells = [headers, ...rows].map((r) => r.map(String));
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  cells.forEach((r, i) => {
    console.log(r.map((c, j) => (j === 0 ? c.padEnd(widths[j]) : c.padStart(widths[j]))).join('  '));
    if (i === 0) console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  });
}

function loadLine() {
  try {
    return `load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`;
  } catch {
    return 'load average n/a';
  }
}

// ---------------------------------------------------------------- /proc

/**
 * Chromium processes of these browser ids: the marker switch on the command line, plus
 * descendants. With `needle`, also any process whose command line contains it (the
 * bench's temp dir: Playwright puts the profile dir in the node's TMPDIR), which finds a
 * browser whose id was never logged.
 */
function chromiumPids(browserIds, procs = processTable(), needle = null) {
  const found = new Set();
  for (const [pid, p] of procs) {
    if (needle && p.cmdline.includes(needle) && !p.cmdline.includes('cluster-load.mjs')) { found.add(pid); continue; }
    for (const id of browserIds) if (p.cmdline.includes(`--ariadne-browser=${id}`)) { found.add(pid); break; }
  }
  // With their children (zygotes, renderers, GPU/utility processes).
  return [...withDescendants(found, procs)];
}

function rssBytes(pid) {
  try {
    const m = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Proportional set size: shared pages split between the processes that map them (summing VmRSS counts them once per process). */
function pssBytes(pid) {
  try {
    const m = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Sum of VmRSS and of Pss over these processes. */
function memory(pids) {
  return pids.reduce((m, pid) => ({ rss: m.rss + rssBytes(pid), pss: m.pss + pssBytes(pid) }), { rss: 0, pss: 0 });
}

function killAll(pids) {
  for (const pid of pids) {
    try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
  }
}

// ---------------------------------------------------------------- fixtures, Redis, nodes

/** One PING over a raw socket: true on +PONG. */
function redisPing(port) {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    const done = (ok) => { sock.destroy(); resolve(ok); };
    sock.setTimeout(1000, () => done(false));
    sock.once('error', () => done(false));
    sock.once('connect', () => sock.write('PING\r\n'));
    sock.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}

async function startRedis(workDir) {
  const port = await freePort();
  const dir = path.join(workDir, 'redis');
  mkdirSync(dir, { recursive: true });
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--save', ''], { stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  child.once('error', () => {});
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await Promise.race([exited, sleep(5000)]);
      if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited; }
    }
  };
  const deadline = Date.now() + 10_000;
  while (!(await redisPing(port))) {
    if (Date.now() > deadline || child.exitCode !== null) {
      await stop();
      throw new Error('redis-server did not start (is it installed?)');
    }
    await sleep(100);
  }
  return { url: `redis://127.0.0.1:${port}`, pid: child.pid, stop };
}

/** Start one node (`node apps/server/dist/main.js`) and wait until it answers /readyz. */
async function startNode({ nodeId, redisUrl, prefix, workDir }) {
  const port = await freePort();
  const stateDir = mkdtempSync(path.join(workDir, `${nodeId}-state-`));
  const tmpDir = mkdtempSync(path.join(workDir, `${nodeId}-tmp-`));
  const env = { ...process.env };
  for (const k of ['API_KEYS', 'API_KEYS_FILE', 'NODE_URL', 'PORT', 'HOST']) delete env[k];
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    REDIS_URL: redisUrl,
    REDIS_PREFIX: prefix,
    STATE_DIR: stateDir,
    TMPDIR: tmpDir,
    NODE_ID: nodeId,
    LOG_LEVEL: 'info', // "browser launched" lines carry the marker ids
    POOL_BROWSERS: '1',
    POOL_MAX_CONTEXTS_PER_BROWSER: String(MAX_CONTEXTS),
    POOL_MAX_CONTEXTS: String(MAX_CONTEXTS),
    POOL_WARM_CONTEXTS: '1',
    QUEUE_TIMEOUT_SECONDS: '30',
  });
  const child = spawn(process.execPath, [MAIN_JS], { env, stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
  const node = {
    id: nodeId,
    url: `http://127.0.0.1:${port}`,
    child,
    browserIds: new Set(),
    warnings: [], // log lines at warn level or above
    tail: [], // last lines, for error messages
    exited: new Promise((r) => child.once('exit', (code, signal) => r({ code, signal }))),
    dirs: [stateDir, tmpDir],
  };
  allNodes.push(node); // known to the last-resort cleanup from its first moment
  let partial = '';
  const onData = (chunk) => {
    partial += chunk.toString();
    const lines = partial.split('\n');
    partial = lines.pop();
    for (const line of lines) {
      node.tail.push(line);
      if (node.tail.length > 40) node.tail.shift();
      let rec;
      try { rec = JSON.parse(line); } catch { continue; }
      if (rec.msg === 'browser launched' && rec.browserId) node.browserIds.add(String(rec.browserId));
      if (typeof rec.level === 'number' && rec.level >= 40 && node.warnings.length < 200) node.warnings.push(rec);
    }
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node ${nodeId} exited while starting:\n${node.tail.join('\n')}`);
    const ready = await fetch(`${node.url}/readyz`, { signal: AbortSignal.timeout(5000) }).then((r) => r.ok, () => false);
    if (ready) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      await node.exited;
      throw new Error(`node ${nodeId} was not ready after 60 s:\n${node.tail.join('\n')}`);
    }
    await sleep(200);
  }
  // The pool's own view also names its browsers (in case a log line was missed).
  for (const b of (await getJson(`${node.url}/v1/pool`)).browsers) node.browserIds.add(b.id);
  return node;
}

async function getJson(url) {
  const res = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET ${url}: ${res.status}`);
  return res.json();
}

// ---------------------------------------------------------------- the load

class HttpError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** One request, timed to the last byte of the body; throws HttpError on a non-2xx answer. */
async function call(method, url, body) {
  const t0 = performance.now();
  const res = await fetch(url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const text = await res.text();
  const elapsed = performance.now() - t0;
  if (!res.ok) {
    let code = '';
    try { code = JSON.parse(text).error?.code ?? ''; } catch { /* not JSON */ }
    throw new HttpError(res.status, code, `${method} ${new URL(url).pathname}: ${res.status} ${text.slice(0, 200)}`);
  }
  return { ms: elapsed, json: text ? JSON.parse(text) : null };
}

function newStats() {
  return {
    lat: Object.fromEntries(STEPS.map((s) => [s, []])),
    forwarded: { navigate: [], snapshot: [] },
    local: { navigate: [], snapshot: [] },
    cycles: 0,
    errors: { 429: 0, 503: 0, other: 0 },
    errorSamples: new Map(), // message -> count
    sessionsByNode: new Map(),
    leakedSessions: 0,
  };
}

function recordError(stats, err) {
  const status = err instanceof HttpError ? err.status : 0;
  if (status === 429) stats.errors[429]++;
  else if (status === 503) stats.errors[503]++;
  else stats.errors.other++;
  const key = err instanceof HttpError ? `${err.status} ${err.code}` : `${err.name}: ${err.message}`.slice(0, 160);
  stats.errorSamples.set(key, (stats.errorSamples.get(key) ?? 0) + 1);
}

/**
 * One client: cycles while until() says so (a cycle under way is finished). With two
 * nodes, the session is created on the node whose turn it is (round-robin over all
 * clients' cycles), and either navigate or snapshot (alternating) goes to the node that
 * does not own the session, as does every second delete.
 */
async function client(nodes, counter, until, pageUrl, stats) {
  while (until()) {
    const c = counter.next++;
    const creator = nodes[c % nodes.length];
    const k = Math.floor(c / nodes.length); // independent of the creator's turn
    let session = null;
    let deleted = false;
    const t0 = performance.now();
    try {
      const created = await call('POST', `${creator.url}/v1/sessions`, {});
      session = created.json;
      const owner = nodes.find((n) => n.id === session.node) ?? creator;
      const other = nodes.length > 1 ? nodes.find((n) => n !== owner) : owner;
      stats.sessionsByNode.set(session.node, (stats.sessionsByNode.get(session.node) ?? 0) + 1);
      const navVia = k % 2 === 0 ? other : owner;
      const snapVia = k % 2 === 0 ? owner : other;
      const delVia = k % 2 === 1 ? other : owner;
      const base = (n) => `${n.url}/v1/sessions/${encodeURIComponent(session.id)}`;
      const nav = await call('POST', `${base(navVia)}/roles/default/actions`, { action: 'navigate', url: pageUrl });
      const snap = await call('GET', `${base(snapVia)}/roles/default/snapshot`);
      if (!/Add to Cart/.test(JSON.stringify(snap.json))) throw new Error('snapshot does not show the fixture page');
      const del = await call('DELETE', base(delVia));
      deleted = true;
      const total = performance.now() - t0;
      stats.lat.create.push(created.ms);
      stats.lat.navigate.push(nav.ms);
      stats.lat.snapshot.push(snap.ms);
      stats.lat.delete.push(del.ms);
      stats.lat.cycle.push(total);
      if (nodes.length > 1) {
        (navVia === owner ? stats.local : stats.forwarded).navigate.push(nav.ms);
        (snapVia === owner ? stats.local : stats.forwarded).snapshot.push(snap.ms);
      }
      stats.cycles++;
    } catch (err) {
      recordError(stats, err);
      if (session && !deleted) {
        // Never leave a session behind: delete it on its own node (best effort, counted).
        const owner = nodes.find((n) => n.id === session.node) ?? creator;
        const ok = await call('DELETE', `${owner.url}/v1/sessions/${encodeURIComponent(session.id)}`).then(() => true, () => false);
        if (!ok) stats.leakedSessions++;
      }
      // Back off a little when the service says it is full.
      if (err instanceof HttpError && (err.status === 429 || err.status === 503)) await sleep(250);
    }
  }
}

/** Every SAMPLE_MS: sum of VmRSS over the nodes' Chromium processes, and leased contexts summed over their pools. */
function startSampler(nodes) {
  const s = { peakRss: 0, peakPss: 0, peakLeased: 0, peakLeasedPlusWarm: 0, memSamples: 0, poolSamples: 0, stop: false };
  const every = async (fn) => {
    while (!s.stop) {
      const started = performance.now();
      await fn();
      await sleep(Math.max(0, SAMPLE_MS - (performance.now() - started)));
    }
  };
  // Two loops, so a slow HTTP answer from a busy node does not delay the /proc readings.
  s.done = Promise.all([
    every(async () => {
      const { rss, pss } = memory(chromiumPids(new Set(nodes.flatMap((n) => [...n.browserIds]))));
      s.peakRss = Math.max(s.peakRss, rss);
      s.peakPss = Math.max(s.peakPss, pss);
      s.memSamples++;
    }),
    every(async () => {
      const pools = await Promise.all(nodes.map((n) => getJson(`${n.url}/v1/pool`).catch(() => null)));
      const leased = pools.reduce((sum, p) => sum + (p?.leased ?? 0), 0);
      const warm = pools.reduce((sum, p) => sum + (p?.warm ?? 0), 0);
      s.peakLeased = Math.max(s.peakLeased, leased);
      s.peakLeasedPlusWarm = Math.max(s.peakLeasedPlusWarm, leased + warm);
      s.poolSamples++;
    }),
  ]);
  return s;
}

// ---------------------------------------------------------------- one phase


async function runPhase(nodeCount, { redis, fixtures, workDir }) {
  const label = nodeCount === 1 ? 'one node' : `${nodeCount} nodes`;
  console.log(`\n=== phase: ${label} (${CLIENTS} clients, ${SECONDS} s; ${loadLine()})`);
  const prefix = `ariadne-bench-${process.pid}-${nodeCount}n:`;
  const nodes = [];
  const result = { label, nodeCount, ok: true, checks: [] };
  const check = (ok, text) => {
    result.checks.push({ ok, text });
    if (!ok) result.ok = false;
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
  };
  try {
    // Start nodes one after the other: two Chromium launches at once on a loaded 2-core box crawl.
    for (let i = 1; i <= nodeCount; i++) {
      nodes.push(await startNode({ nodeId: `bench-${nodeCount}n-node${i}`, redisUrl: redis.url, prefix, workDir }));
    }
    // Settle: every node sees the whole cluster, every warm context is ready, nothing is leased.
    const settleDeadline = Date.now() + 30_000;
    let idleContexts = 0;
    for (;;) {
      const [pressures, pools] = await Promise.all([
        Promise.all(nodes.map((n) => getJson(`${n.url}/v1/pressure`).catch(() => null))),
        Promise.all(nodes.map((n) => getJson(`${n.url}/v1/pool`).catch(() => null))),
      ]);
      idleContexts = pools.reduce((n, p) => n + (p ? p.leased + p.warm : 0), 0);
      if (pressures.every((p) => p?.nodes === nodeCount) && pools.every((p) => p && p.warm >= 1 && p.leased === 0)) break;
      if (Date.now() > settleDeadline) { console.log('note: the nodes had not settled after 30 s; starting anyway'); break; }
      await sleep(200);
    }
    const idle = memory(chromiumPids(new Set(nodes.flatMap((n) => [...n.browserIds]))));

    const pageUrl = `${fixtures.url}/products.html`;
    const counter = { next: 0 };
    if (WARMUP) {
      // Uncounted: the first cycles pay JIT, connection setup and the first newContext of each browser.
      const warm = newStats();
      const t = performance.now();
      await Promise.all(Array.from({ length: CLIENTS }, () => {
        let left = WARMUP;
        return client(nodes, counter, () => left-- > 0, pageUrl, warm);
      }));
      const errs = warm.errors[429] + warm.errors[503] + warm.errors.other;
      console.log(`warm-up: ${warm.cycles} cycles in ${((performance.now() - t) / 1000).toFixed(1)} s, not counted${errs ? ` (${errs} errors: ${[...warm.errorSamples.keys()].join('; ')})` : ''}`);
    }
    const stats = newStats();
    const sampler = startSampler(nodes);
    const t0 = performance.now();
    const deadline = t0 + SECONDS * 1000;
    await Promise.all(Array.from({ length: CLIENTS }, () => client(nodes, counter, () => performance.now() < deadline, pageUrl, stats)));
    const elapsedS = (performance.now() - t0) / 1000;
    sampler.stop = true;
    await sampler.done;

    Object.assign(result, { stats, elapsedS, idle, peakRss: sampler.peakRss, peakPss: sampler.peakPss, peakLeased: sampler.peakLeased, peakLeasedPlusWarm: sampler.peakLeasedPlusWarm });
    result.throughput = stats.cycles / elapsedS;
    result.rssPerContext = sampler.peakLeased ? sampler.peakRss / sampler.peakLeased : NaN;
    result.pssPerContext = sampler.peakLeased ? sampler.peakPss / sampler.peakLeased : NaN;
    // Rough cost of one more context: growth of Pss from idle to peak over the contexts added
    // (leased + warm; the peaks need not coincide, so this is an estimate).
    const added = sampler.peakLeasedPlusWarm - idleContexts;
    result.marginalPss = added > 0 ? (sampler.peakPss - idle.pss) / added : NaN;

    console.log(`${stats.cycles} cycles in ${elapsedS.toFixed(1)} s = ${result.throughput.toFixed(2)} cycles/s; errors: 429=${stats.errors[429]} 503=${stats.errors[503]} other=${stats.errors.other}`);
    for (const [msg, n] of stats.errorSamples) console.log(`  error x${n}: ${msg}`);
    if (stats.leakedSessions) console.log(`  ${stats.leakedSessions} session(s) could not be deleted after an error`);
    if (nodeCount > 1) console.log(`sessions per node: ${[...stats.sessionsByNode].map(([n, c]) => `${n}=${c}`).join(', ')}`);
    printTable(['ms', 'n', 'p50', 'p95'], STEPS.map((s) => [s, stats.lat[s].length, ms(quantile(stats.lat[s], 0.5)), ms(quantile(stats.lat[s], 0.95))]));
    if (nodeCount > 1) {
      for (const step of ['navigate', 'snapshot']) {
        const f = stats.forwarded[step];
        const l = stats.local[step];
        console.log(`${step}: to the owning node p50 ${ms(quantile(l, 0.5))} ms (n=${l.length}), forwarded by the other node p50 ${ms(quantile(f, 0.5))} ms (n=${f.length})`);
      }
    }
    console.log(`Chromium memory (${sampler.memSamples} samples, every ${SAMPLE_MS} ms; ${sampler.poolSamples} samples of GET /v1/pool): sum of VmRSS idle ${mb(idle.rss)} MB, peak ${mb(sampler.peakRss)} MB; sum of Pss idle ${mb(idle.pss)} MB, peak ${mb(sampler.peakPss)} MB`);
    console.log(`peak leased contexts ${sampler.peakLeased} (leased+warm ${sampler.peakLeasedPlusWarm}, idle ${idleContexts}): ${mb(result.rssPerContext)} MB RSS per leased context (${mb(result.pssPerContext)} MB by Pss); Pss growth per added context ~${mb(result.marginalPss)} MB`);

    // End checks 1: nothing leased anywhere, and Redis agrees. Deleting is synchronous in
    // the API, but give a lagging release a few seconds before calling it a leak.
    // Each figure is polled until it reads 0; the first reading and the wait are printed.
    const endDeadline = performance.now() + END_CHECK_WAIT_MS;
    const t1 = performance.now();
    const watch = nodes.flatMap((n) => [
      { node: n, what: 'GET /v1/pool leased', path: '/v1/pool', read: (j) => j.leased },
      { node: n, what: 'GET /v1/pressure clusterLeased', path: '/v1/pressure', read: (j) => j.clusterLeased, extra: (j) => `, queued = ${j.queued}` },
    ]);
    for (;;) {
      await Promise.all(watch.filter((w) => w.zeroAfter === undefined).map(async (w) => {
        const j = await getJson(`${w.node.url}${w.path}`).catch((e) => ({ error: e.message }));
        w.last = j;
        w.first ??= w.read(j) ?? j.error;
        if (w.read(j) === 0) w.zeroAfter = performance.now() - t1;
      }));
      if (watch.every((w) => w.zeroAfter !== undefined) || performance.now() > endDeadline) break;
      await sleep(100);
    }
    for (const w of watch) {
      const value = w.read(w.last) ?? w.last.error;
      const history = w.zeroAfter === undefined
        ? ` (first read ${w.first}; still not 0 after ${END_CHECK_WAIT_MS / 1000} s)`
        : w.first !== 0 ? ` (first read ${w.first}, 0 after ${ms(w.zeroAfter)} ms)` : '';
      check(value === 0, `${w.node.id}: ${w.what} = ${value}${history}${w.extra && !w.last.error ? w.extra(w.last) : ''}`);
    }
  } catch (err) {
    check(false, `phase failed: ${err.stack ?? err}`);
  } finally {
    // End checks 2: SIGTERM, a clean exit, and no Chromium process left.
    const ids = new Set(nodes.flatMap((n) => [...n.browserIds]));
    const t2 = performance.now();
    for (const n of nodes) n.child.kill('SIGTERM');
    for (const n of nodes) {
      const exit = await Promise.race([n.exited, sleep(STOP_TIMEOUT_MS).then(() => null)]);
      if (!exit) {
        n.child.kill('SIGKILL');
        await n.exited;
      }
      check(exit !== null && exit.code === 0, `${n.id}: SIGTERM -> ${exit ? `exit code ${exit.code}${exit.signal ? ` signal ${exit.signal}` : ''}` : `no exit within ${STOP_TIMEOUT_MS / 1000} s (SIGKILLed)`}`);
    }
    let left = chromiumPids(ids);
    for (let i = 0; i < 50 && left.length; i++) { await sleep(100); left = chromiumPids(ids); }
    check(ids.size > 0 && left.length === 0, left.length
      ? `${left.length} Chromium process(es) of the phase's nodes outlived them (pids ${left.join(' ')}; killed now)`
      : `no Chromium process of the phase's nodes is left (browsers ${[...ids].join(', ')}; stopped in ${ms(performance.now() - t2)} ms)`);
    killAll(left);
    const warnings = nodes.flatMap((n) => n.warnings.map((w) => `${n.id}: ${w.level >= 50 ? 'ERROR' : 'warn'} ${w.msg}${w.err ? ` (${String(w.err.message ?? w.err).slice(0, 160)})` : ''}`));
    if (warnings.length) {
      console.log(`log lines at warn level or above: ${warnings.length}`);
      const counts = new Map();
      for (const w of warnings) counts.set(w, (counts.get(w) ?? 0) + 1);
      for (const [w, c] of counts) console.log(`  x${c} ${w}`);
    }
    for (const n of nodes) for (const d of n.dirs) rmSync(d, { recursive: true, force: true });
  }
  return result;
}

// ---------------------------------------------------------------- main

if (!existsSync(MAIN_JS)) {
  console.error(`${path.relative(ROOT, MAIN_JS)} is missing: run npx tsc -b first (npm run bench:cluster does).`);
  process.exit(2);
}

const workDir = mkdtempSync(path.join(tmpdir(), 'ariadne-cluster-bench-'));
let redis = null;
let fixtures = null;
let cleaned = null;
const cleanup = () => (cleaned ??= (async () => {
  // Last resort (normally the phases stopped their nodes): SIGTERM, 5 s, SIGKILL, then
  // any Chromium process of ours, found by marker or by our temp dir in its profile path.
  const running = allNodes.filter((n) => n.child.exitCode === null && n.child.signalCode === null);
  for (const n of running) n.child.kill('SIGTERM');
  await Promise.race([Promise.all(running.map((n) => n.exited)), sleep(5000)]);
  for (const n of running) if (n.child.exitCode === null && n.child.signalCode === null) { n.child.kill('SIGKILL'); await n.exited; }
  killAll(chromiumPids(new Set(allNodes.flatMap((n) => [...n.browserIds])), processTable(), workDir));
  await redis?.stop().catch(() => {});
  await fixtures?.close().catch(() => {});
  rmSync(workDir, { recursive: true, force: true });
})());
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.once(sig, () => {
    console.error(`\n${sig}: cleaning up...`);
    cleanup().finally(() => process.exit(130));
  });
}

const results = [];
try {
  console.log(`cluster-load: ${CLIENTS} clients x ${SECONDS} s per phase; nodes: POOL_BROWSERS=1, POOL_MAX_CONTEXTS=${MAX_CONTEXTS}, POOL_WARM_CONTEXTS=1, QUEUE_TIMEOUT_SECONDS=30`);
  console.log(`node ${process.version}, ${new Date().toISOString()}, ${loadLine()}`);
  fixtures = await startStaticServer();
  redis = await startRedis(workDir);
  console.log(`redis-server pid ${redis.pid} on ${redis.url} (AOF on, ${workDir}/redis)`);
  for (const count of [1, 2]) results.push(await runPhase(count, { redis, fixtures, workDir }));

  console.log(`\n=== one node vs two nodes (${loadLine()})`);
  const [a, b] = results;
  const row = (name, f) => [name, f(a), f(b)];
  const p = (step, q) => (r) => ms(quantile(r.stats?.lat[step] ?? [], q));
  printTable(['', a.label, b.label], [
    row('completed cycles', (r) => r.stats?.cycles ?? 'n/a'),
    row('throughput (cycles/s)', (r) => (r.throughput ?? NaN).toFixed(2)),
    ...STEPS.map((s) => row(`${s} p50 / p95 (ms)`, (r) => `${p(s, 0.5)(r)} / ${p(s, 0.95)(r)}`)),
    row('errors 429 / 503 / other', (r) => (r.stats ? `${r.stats.errors[429]} / ${r.stats.errors[503]} / ${r.stats.errors.other}` : 'n/a')),
    row('peak leased contexts', (r) => r.peakLeased ?? 'n/a'),
    row('idle / peak Chromium RSS (MB)', (r) => `${mb(r.idle?.rss)} / ${mb(r.peakRss)}`),
    row('RSS per leased context (MB)', (r) => mb(r.rssPerContext)),
    row('idle / peak Chromium Pss (MB)', (r) => `${mb(r.idle?.pss)} / ${mb(r.peakPss)}`),
    row('Pss per leased context (MB)', (r) => mb(r.pssPerContext)),
    row('Pss growth per added context (MB)', (r) => mb(r.marginalPss)),
    row('end checks', (r) => (r.ok ? 'pass' : 'FAIL')),
  ]);
  if (a.throughput && b.throughput) console.log(`throughput ratio, two nodes / one node: ${(b.throughput / a.throughput).toFixed(2)}`);
  if (!results.every((r) => r.ok)) process.exitCode = 1;
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
  let left = [];
  for (let i = 0; i < 30; i++) {
    left = chromiumPids(new Set(allNodes.flatMap((n) => [...n.browserIds])), processTable(), workDir);
    if (!left.length) break;
    await sleep(100);
  }
  console.log(left.length ? `WARNING: ${left.length} Chromium process(es) still present` : 'cleanup: redis-server stopped, temp dir removed, no Chromium process of this bench is left.');
  if (left.length) process.exitCode = 1;
}
