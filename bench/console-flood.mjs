// Server memory under a console flood: a page logs ?n= lines of ?size= bytes every
// ?every= ms without end (default 2,000 x 1 KB per 10 ms tick), watched by stream clients:
// some that read everything and some that never read (slow consumers). The real server
// entry point runs as a child process so its RSS is the server's alone; RSS is sampled from
// /proc every few seconds. Prints figures; asserts nothing.
//
//   npx tsc -b && node bench/console-flood.mjs --seconds=80 --readers=1 --stalled=1

import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { checkNoLeftovers, intArg, machineLine, onCleanup, startStaticServer, table } from './lib.mjs';

const SECONDS = intArg('seconds', 80);
const READERS = Number(process.argv.find((a) => a.startsWith('--readers='))?.split('=')[1] ?? 1);
const STALLED = Number(process.argv.find((a) => a.startsWith('--stalled='))?.split('=')[1] ?? 1);
const LINES = intArg('lines', 2000);
const SIZE = intArg('size', 1024);
const EVERY = intArg('every', 10);
const SAMPLE_MS = intArg('sample', 5000);

const MAIN_JS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../apps/server/dist/main.js');
const stateDir = mkdtempSync(path.join(tmpdir(), 'ariadne-bench-flood-'));
const tmpDir = mkdtempSync(path.join(tmpdir(), 'ariadne-bench-flood-tmp-'));
let child = null;
let fixtures = null;
let out = '';
const sockets = new Set();
const markers = new Set();
const cleanup = onCleanup(async () => {
  for (const ws of sockets) ws.terminate();
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 20_000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  }
  for (const l of out.split('\n')) {
    try { const j = JSON.parse(l); if (j.msg === 'browser launched') markers.add(`--ariadne-browser=${j.browserId}`); } catch { /* not JSON */ }
  }
  await fixtures?.close().catch(() => {});
  await checkNoLeftovers(markers);
  rmSync(stateDir, { recursive: true, force: true });
  rmSync(tmpDir, { recursive: true, force: true });
});

const rssMB = (pid) => {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch { return NaN; }
};

async function freePort() {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => resolve(port)); });
  });
}

async function main() {
  console.log(machineLine());
  fixtures = await startStaticServer();
  const port = await freePort();
  const env = { ...process.env, PORT: String(port), HOST: '127.0.0.1', STATE_DIR: stateDir, TMPDIR: tmpDir, LOG_LEVEL: 'info', POOL_BROWSERS: '1', POOL_MAX_CONTEXTS_PER_BROWSER: '4', POOL_MAX_CONTEXTS: '4', POOL_WARM_CONTEXTS: '0' };
  delete env.REDIS_URL;
  child = spawn(process.execPath, [MAIN_JS], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (d) => { out += d.toString(); if (out.length > 5e6) out = out.slice(-1e6); });
  child.stderr.on('data', (d) => { out += d.toString(); });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/healthz`).catch(() => null))?.status === 200) break;
    if (i > 300 || child.exitCode !== null) throw new Error(`server did not start:\n${out.slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  const create = await fetch(`${base}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ idleTimeoutSeconds: 3600 }) });
  const { id } = await create.json();
  const baseline = rssMB(child.pid);
  console.log(`flood: ${LINES} lines x ${SIZE} B every ${EVERY} ms, ${READERS} reading + ${STALLED} stalled stream client(s), ${SECONDS} s; server RSS at rest ${baseline.toFixed(0)} MB`);

  const clients = [];
  for (let i = 0; i < READERS + STALLED; i++) {
    const stalled = i >= READERS;
    const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/sessions/${id}/stream`, { maxPayload: 0 });
    sockets.add(ws);
    const c = { stalled, events: 0, dropped: 0, close: null, ws };
    ws.on('message', (d) => {
      const s = d.toString();
      if (s.startsWith('{"seq"') || s.includes('"event"')) c.events++;
      if (s.includes('"event":"dropped"')) { try { c.dropped += JSON.parse(s).data?.count ?? 0; } catch { /* partial */ } }
    });
    ws.on('close', (code, reason) => { c.close = `${code} ${reason}`; });
    await new Promise((r, j) => { ws.once('open', r); ws.once('error', j); });
    // A stalled client stops reading from its socket: the server's send queue for it fills up.
    if (stalled) ws._socket.pause();
    clients.push(c);
  }

  const navStarted = Date.now();
  const nav = fetch(`${base}/v1/sessions/${id}/roles/default/actions`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ action: 'navigate', url: `${fixtures.url}/console-flood.html?n=${LINES}&size=${SIZE}&every=${EVERY}`}),
  }).then((r) => console.log(`navigate answered ${r.status} after ${Date.now() - navStarted} ms`), (err) => console.log(`navigate: ${err}`));

  const rows = [];
  let peak = baseline;
  const t0 = Date.now();
  while (Date.now() - t0 < SECONDS * 1000) {
    await new Promise((r) => setTimeout(r, SAMPLE_MS));
    const rss = rssMB(child.pid);
    peak = Math.max(peak, rss);
    const t1 = Date.now();
    const health = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(10_000) }).then((r) => r.status).catch(() => 'no answer');
    rows.push([`${Math.round((Date.now() - t0) / 1000)} s`, rss.toFixed(0), `+${(rss - baseline).toFixed(0)}`, `${health} in ${Date.now() - t1} ms`,
      clients.map((c) => `${c.stalled ? 'stalled' : 'reader'}:${c.events}${c.dropped ? `/-${c.dropped}` : ''}${c.close ? ` closed ${c.close}` : ''}`).join(' ')]);
    console.log(rows.at(-1).join('  '));
  }
  await nav;
  const cons = await fetch(`${base}/v1/sessions/${id}/roles/default/console?limit=1`, { signal: AbortSignal.timeout(20_000) }).then((r) => r.json()).catch((e) => ({ error: String(e) }));
  console.log();
  table(['t', 'RSS MB', 'growth', '/healthz', 'stream clients (events/-dropped, close)'], rows);
  console.log(`\nserver RSS: at rest ${baseline.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, growth at peak +${(peak - baseline).toFixed(0)} MB (target: under +100 MB)`);
  console.log(`console log: ${JSON.stringify({ total: cons.total, dropped: cons.dropped, returned: cons.entries?.length ?? cons.messages?.length, keys: Object.keys(cons) })}`);
  await fetch(`${base}/v1/sessions/${id}`, { method: 'DELETE', signal: AbortSignal.timeout(20_000) }).catch(() => {});
}

main().catch((err) => { console.error(err); process.exitCode = 1; }).finally(() => cleanup());
