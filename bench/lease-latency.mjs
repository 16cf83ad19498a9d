// Lease latency: POST /v1/sessions until the first GET snapshot of the new session is
// answered, over HTTP, sequentially, in two configurations: POOL_WARM_CONTEXTS=0 (every
// lease pays newContext + newPage) and POOL_WARM_CONTEXTS=2 (a lease takes a ready
// context). Both services are started in this process, one after the other, each with its
// own embedded Redis and Chromium; iterations then alternate between them (the order
// flipping every round) so load drift on a shared machine hits both alike. Before each
// iteration both pools are left to settle (nothing leased, warm set full), so no
// background work of the other service overlaps the measurement. Prints figures only.
//
//   npm run bench:lease            (after npx tsc -b)
//   node bench/lease-latency.mjs --iterations=20 --warmup=2

import { performance } from 'node:perf_hooks';
import {
  checkNoLeftovers, fmt, intArg, machineLine, median, min, onCleanup, p90, startBenchService, table, timed,
} from './lib.mjs';

const ITERATIONS = intArg('iterations', 20);
const WARMUP = intArg('warmup', 2);
const SETTLE_TIMEOUT_MS = 15_000;

const markers = new Set();
const configs = [];
const cleanup = onCleanup(async () => {
  for (const c of configs) await c.svc.stop().catch((err) => console.error('stop failed:', err));
  await checkNoLeftovers(markers);
});

/** Wait until a pool is at rest: nothing leased, the warm set full again. */
async function settle(c) {
  const t0 = performance.now();
  for (;;) {
    const s = c.svc.service.pool.stats();
    if (s.leased === 0 && s.warm >= c.warmContexts) return true;
    if (performance.now() - t0 > SETTLE_TIMEOUT_MS) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function startConfig(label, warmContexts) {
  const svc = await startBenchService({ POOL_WARM_CONTEXTS: String(warmContexts) });
  for (const m of svc.markers) markers.add(m);
  const c = { label, warmContexts, svc, create: [], snapshot: [], lease: [], unsettled: 0, foundWarm: 0 };
  configs.push(c);
  return c;
}

async function iteration(c, counted) {
  for (const other of configs) if (!(await settle(other)) && counted) c.unsettled++;
  const { url, service } = c.svc;
  const warmBefore = service.pool.stats().warm;
  const t0 = performance.now();
  const created = await timed('POST', `${url}/v1/sessions`, {});
  const snap = await timed('GET', `${url}/v1/sessions/${created.json.id}/roles/default/snapshot`);
  const total = performance.now() - t0;
  await timed('DELETE', `${url}/v1/sessions/${created.json.id}`);
  if (!counted) return; // the first requests pay JIT and connection setup
  if (warmBefore > 0) c.foundWarm++;
  c.create.push(created.ms);
  c.snapshot.push(snap.ms);
  c.lease.push(total);
}

console.log(`lease-latency: ${ITERATIONS} iterations per configuration (+${WARMUP} warm-up, not counted), sequential, alternating, 1 browser each`);
console.log(machineLine());
try {
  const cold = await startConfig('cold', 0);
  const warm = await startConfig('warm', 2);
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    const order = i % 2 === 0 ? [cold, warm] : [warm, cold];
    for (const c of order) await iteration(c, i >= WARMUP);
  }
  console.log('');
  const rows = [];
  for (const c of [cold, warm]) {
    const name = `${c.label} (POOL_WARM_CONTEXTS=${c.warmContexts})`;
    rows.push([`${name}  create only`, fmt(median(c.create)), fmt(p90(c.create)), fmt(min(c.create))]);
    rows.push([`${name}  first snapshot`, fmt(median(c.snapshot)), fmt(p90(c.snapshot)), fmt(min(c.snapshot))]);
    rows.push([`${name}  lease = create + snapshot`, fmt(median(c.lease)), fmt(p90(c.lease)), fmt(min(c.lease))]);
  }
  table(['ms', 'median', 'p90', 'min'], rows);
  console.log('');
  console.log(`warm/cold ratio, lease (medians):       ${(median(warm.lease) / median(cold.lease)).toFixed(2)}`);
  console.log(`warm/cold ratio, create only (medians): ${(median(warm.create) / median(cold.create)).toFixed(2)}`);
  // Minimums are the least disturbed by other load on a shared machine.
  console.log(`warm/cold ratio, lease (minimums):      ${(min(warm.lease) / min(cold.lease)).toFixed(2)}`);
  console.log(`warm iterations that found a warm context ready: ${warm.foundWarm}/${ITERATIONS}`);
  const unsettled = cold.unsettled + warm.unsettled;
  if (unsettled) console.log(`note: a pool had not settled after ${SETTLE_TIMEOUT_MS} ms before ${unsettled} iteration(s)`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
