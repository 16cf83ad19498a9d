// Lease latency with tenant isolation (every browser serves one tenant) against shared
// browsers (POOL_ISOLATION=none), both with API keys, over HTTP, sequentially:
// POST /v1/sessions until the first GET snapshot of the new session is answered.
//
//   warm tenant:   one tenant leasing again and again (its browser keeps a warm context);
//   two tenants:   two tenants taking turns (the warm budget is spread over both);
//   new tenant:    a tenant's very first lease (it claims the spare browser).
//
// Both services run in this process (own embedded Redis, 1 spare browser, 8 contexts);
// iterations alternate between them, and both pools are left to settle before each one,
// so background work of one never overlaps a measurement of the other. Prints figures.
//
//   node bench/tenant-lease-latency.mjs --iterations=20 --warm=2     (after npx tsc -b)

import { performance } from 'node:perf_hooks';
import { checkNoLeftovers, fmt, intArg, machineLine, median, min, onCleanup, p90, startBenchService, table } from './lib.mjs';

const ITERATIONS = intArg('iterations', 20);
const WARMUP = intArg('warmup', 2);
const WARM = intArg('warm', 2);
const NEW_TENANTS = intArg('new-tenants', 6);
const SETTLE_TIMEOUT_MS = 20_000;

const keyOf = (t) => `bench-tenant-key-${t}-0123456789`;
const TENANTS = ['alpha', 'beta', ...Array.from({ length: NEW_TENANTS }, (_, i) => `new${i}`)];
const API_KEYS = TENANTS.map((t) => `${keyOf(t)}:${t}`).join(',');

const markers = new Set();
const configs = [];
const cleanup = onCleanup(async () => {
  for (const c of configs) await c.svc.stop().catch((err) => console.error('stop failed:', err));
  await checkNoLeftovers(markers);
});

async function call(method, url, tenant, body) {
  const t0 = performance.now();
  const res = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${keyOf(tenant)}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - t0;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 300)}`);
  return { ms, json: text ? JSON.parse(text) : null };
}

async function settle(c) {
  const t0 = performance.now();
  for (;;) {
    const s = c.svc.service.pool.stats();
    if (s.leased === 0 && s.warming === 0 && s.warm >= WARM) return true;
    if (performance.now() - t0 > SETTLE_TIMEOUT_MS) return false;
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function lease(c, tenant) {
  for (const other of configs) if (!(await settle(other))) c.unsettled++;
  const t0 = performance.now();
  const created = await call('POST', `${c.svc.url}/v1/sessions`, tenant, {});
  await call('GET', `${c.svc.url}/v1/sessions/${created.json.id}/roles/default/snapshot`, tenant);
  const total = performance.now() - t0;
  await call('DELETE', `${c.svc.url}/v1/sessions/${created.json.id}`, tenant);
  return total;
}

async function startConfig(label, isolation) {
  const svc = await startBenchService({ API_KEYS, POOL_ISOLATION: isolation, POOL_WARM_CONTEXTS: String(WARM), POOL_BROWSERS: '1' });
  for (const m of svc.markers) markers.add(m);
  const c = { label, svc, warmTenant: [], twoTenants: [], newTenant: [], unsettled: 0, browsersMax: 0 };
  svc.service.pool.on('browser-launched', () => {
    c.browsersMax = Math.max(c.browsersMax, svc.service.pool.stats().browsers.length);
  });
  configs.push(c);
  return c;
}

console.log(`tenant-lease-latency: ${ITERATIONS} iterations per case (+${WARMUP} warm-up), POOL_WARM_CONTEXTS=${WARM}, sequential, alternating`);
console.log(machineLine());
try {
  const shared = await startConfig('shared browsers (POOL_ISOLATION=none)', 'none');
  const isolated = await startConfig('tenant browsers (POOL_ISOLATION=tenant)', 'tenant');
  const both = (i) => (i % 2 === 0 ? [shared, isolated] : [isolated, shared]);
  // 1. One warm tenant.
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (const c of both(i)) {
      const ms = await lease(c, 'alpha');
      if (i >= WARMUP) c.warmTenant.push(ms);
    }
  }
  // 2. Two tenants taking turns.
  for (let i = 0; i < WARMUP + ITERATIONS; i++) {
    for (const c of both(i)) {
      const ms = await lease(c, i % 2 === 0 ? 'beta' : 'alpha');
      if (i >= WARMUP) c.twoTenants.push(ms);
    }
  }
  // 3. First lease of a tenant never seen before.
  for (let i = 0; i < NEW_TENANTS; i++) {
    for (const c of both(i)) c.newTenant.push(await lease(c, `new${i}`));
  }
  console.log('');
  const rows = [];
  for (const c of [shared, isolated]) {
    rows.push([`${c.label}  warm tenant`, fmt(median(c.warmTenant)), fmt(p90(c.warmTenant)), fmt(min(c.warmTenant))]);
    rows.push([`${c.label}  two tenants in turn`, fmt(median(c.twoTenants)), fmt(p90(c.twoTenants)), fmt(min(c.twoTenants))]);
    rows.push([`${c.label}  new tenant, first lease (n=${c.newTenant.length})`, fmt(median(c.newTenant)), fmt(p90(c.newTenant)), fmt(min(c.newTenant))]);
  }
  table(['lease = create + first snapshot, ms', 'median', 'p90', 'min'], rows);
  console.log('');
  console.log(`isolated/shared ratio, warm tenant (medians):        ${(median(isolated.warmTenant) / median(shared.warmTenant)).toFixed(2)}`);
  console.log(`isolated/shared ratio, two tenants in turn (medians): ${(median(isolated.twoTenants) / median(shared.twoTenants)).toFixed(2)}`);
  console.log(`isolated/shared ratio, new tenant (medians):          ${(median(isolated.newTenant) / median(shared.newTenant)).toFixed(2)}`);
  for (const c of [shared, isolated]) console.log(`${c.label}: browsers at the end ${c.svc.service.pool.stats().browsers.length}, most at once ${Math.max(c.browsersMax, 1)}`);
  const unsettled = shared.unsettled + isolated.unsettled;
  if (unsettled) console.log(`note: a pool had not settled after ${SETTLE_TIMEOUT_MS} ms before ${unsettled} lease(s)`);
} catch (err) {
  console.error(err);
  process.exitCode = 1;
} finally {
  await cleanup();
}
