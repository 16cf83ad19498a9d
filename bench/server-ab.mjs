#!/usr/bin/env node
// Two Ariadne servers side by side, each with its own Chromium and N sessions on the shop,
// polled over REST (one snapshot in flight per session, 4 undici pools) in alternating rounds:
// does a change of Node flags or environment move throughput? (bench/README, "Where the rest
// of REST's gap is".) Rounds alternate A/B, so drift on a shared machine hits both.
//
//   BENCH_AB_NODE_ARGS_B="--max-semi-space-size=32" node bench/server-ab.mjs [--n=40] [--rounds=8] [--seconds=6]
//   BENCH_AB_ENV_B='{"LOG_BUFFER_BYTES":"0"}' node bench/server-ab.mjs
//   (BENCH_AB_NODE_ARGS_A / BENCH_AB_ENV_A for side A; with nothing set, an A/A control run.)
//
// Run the A/A control first: here the second server started was favoured by 2-5 % with
// identical sides, so only a ratio well outside the control's means anything. Prints figures,
// asserts nothing.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { openSessions, poll, restSnapshot, startServer } from './concurrency.mjs';
import { intArg, machineLine, median, onCleanup, processCpuMs, startStaticServer, table } from './lib.mjs';

const N = intArg('n', 40);
const ROUNDS = intArg('rounds', 8);
const SECONDS = intArg('seconds', 6);
const CLIENTS = 4;

/**
 * One side: a server as concurrency.mjs starts it, but with Node's defaults unless given
 * flags (it is the thing compared), N sessions on the shop, its callers. Added to `sides`.
 */
async function startSide(name, workDir, pageUrl, sides) {
  const nodeArgs = (process.env[`BENCH_AB_NODE_ARGS_${name}`] ?? '').split(' ').filter(Boolean);
  const env = JSON.parse(process.env[`BENCH_AB_ENV_${name}`] || '{}');
  const server = await startServer(workDir, N, nodeArgs, { name, env });
  const side = { name, server, ids: [], pools: [], label: [nodeArgs.join(' '), Object.keys(env).length ? JSON.stringify(env) : ''].filter(Boolean).join(' ') || '(defaults)' };
  side.stop = async () => {
    for (const p of side.pools) await p.close().catch(() => {});
    await server.stop();
  };
  sides.push(side); // stopped by the cleanup from here on, also if opening sessions fails
  side.ids = await openSessions(server, N, pageUrl);
  side.pools = Array.from({ length: CLIENTS }, () => new Pool(server.url, { connections: Math.ceil(N / CLIENTS) + 1 }));
  return side;
}

/** Every session polled back to back for ms (after 0.5 s uncounted): snapshots/s and server CPU per snapshot. */
async function round(side, ms) {
  const targets = side.ids.map((id, i) => ({ id, pool: side.pools[i % CLIENTS] }));
  const r = await poll(targets, restSnapshot, { warmMs: 500, ms, cpu: () => processCpuMs(side.server.child.pid) });
  if (r.errors > 0) throw new Error(`side ${side.name}: ${r.errors} snapshots failed`);
  return { perSecond: (r.count / r.elapsed) * 1000, cpuMsPerSnapshot: r.cpuMs / r.count };
}

async function main() {
  console.log(`server-ab: two servers, N=${N} sessions each on the shop, REST, ${ROUNDS} alternating rounds of ${SECONDS} s`);
  console.log(machineLine());
  const workDir = mkdtempSync(path.join(tmpdir(), 'ariadne-ab-'));
  const fixtures = await startStaticServer();
  const sides = [];
  // Once, from the finally below or from a Ctrl-C.
  const cleanup = onCleanup(async () => {
    for (const s of sides) await s.stop().catch(() => {});
    await fixtures.close();
    rmSync(workDir, { recursive: true, force: true });
  });
  try {
    for (const name of ['A', 'B']) await startSide(name, workDir, `${fixtures.url}/app/products.html`, sides);
    const [A, B] = sides;
    for (const s of sides) await round(s, 4000); // uncounted: JIT and caches warm on both
    const rows = [];
    for (let r = 0; r < ROUNDS; r++) {
      const out = {};
      for (const s of r % 2 ? [B, A] : [A, B]) out[s.name] = await round(s, SECONDS * 1000);
      rows.push(out);
      console.log(`round ${r + 1}: A ${out.A.perSecond.toFixed(0)}/s, ${out.A.cpuMsPerSnapshot.toFixed(2)} ms CPU · B ${out.B.perSecond.toFixed(0)}/s, ${out.B.cpuMsPerSnapshot.toFixed(2)} ms CPU · B/A ${(out.B.perSecond / out.A.perSecond).toFixed(3)}`);
    }
    console.log('');
    table(['side', 'settings', 'snapshots/s (median)', 'server CPU ms/snapshot (median)'], sides.map((s) => [
      s.name, s.label, median(rows.map((o) => o[s.name].perSecond)).toFixed(0), median(rows.map((o) => o[s.name].cpuMsPerSnapshot)).toFixed(2),
    ]));
    console.log(`\nmedian of the per-round B/A throughput ratios: ${median(rows.map((o) => o.B.perSecond / o.A.perSecond)).toFixed(3)} (compare with an A/A control run)`);
  } finally {
    await cleanup();
  }
}

main().then(() => process.exit(0), (err) => { console.error(err); process.exit(1); });
