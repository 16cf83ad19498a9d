// Cost of the egress proxy: the same browser, two contexts side by side, one direct and
// one through an egress proxy channel (the way the pool runs every context), on the
// fixture shop (a page with scripts and fetches) and on large.html (5,000 elements).
// Interleaved rounds, the order alternating, so load drift hits both alike. Also the
// policy decision itself (resolve + check) for an IP literal and for a name.
// Prints medians only, no pass/fail.
//
//   npm run bench:egress            (after npx tsc -b)
//   node bench/egress.mjs --iterations=15 --warmup=2

import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS, DEFAULT_VIEWPORT } from '@ariadne/pool';
import { EgressPolicy, EgressProxy } from '@ariadne/egress';
import { checkNoLeftovers, fmt, intArg, machineLine, median, onCleanup, p90, startStaticServer, table } from './lib.mjs';

const ITERATIONS = intArg('iterations', 15);
const WARMUP = intArg('warmup', 2);
const MARKER = `--ariadne-bench=${process.pid}`;

let browser = null;
let fixtures = null;
let proxy = null;
const cleanup = onCleanup(async () => {
  await browser?.close().catch(() => {});
  await proxy?.close().catch(() => {});
  await fixtures?.close().catch(() => {});
  await checkNoLeftovers(new Set([MARKER]));
});

console.log(`egress: direct vs through the egress proxy, ${ITERATIONS} interleaved rounds (+${WARMUP} warm-up, not counted)`);
console.log(machineLine());
try {
  fixtures = await startStaticServer();
  // The fixture server is on 127.0.0.1: a strict policy that allows it, as tests do.
  const policy = new EgressPolicy({ mode: 'strict', allow: ['127.0.0.1/32'] });
  proxy = new EgressProxy(policy);
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    args: [...CHROMIUM_FLAGS, MARKER],
    handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false,
  });
  const channel = await proxy.open();
  const variants = {
    direct: await (await browser.newContext({ viewport: DEFAULT_VIEWPORT })).newPage(),
    proxied: await (await browser.newContext({ viewport: DEFAULT_VIEWPORT, proxy: { server: channel.url } })).newPage(),
  };
  const pages = [
    ['shop load', `${fixtures.url}/app/products.html`, false],
    ['large.html load', `${fixtures.url}/large.html?n=5000`, false],
    ['large.html snapshot', `${fixtures.url}/large.html?n=5000`, true],
  ];
  const results = {};
  for (let round = 0; round < WARMUP + ITERATIONS; round++) {
    const order = round % 2 ? ['proxied', 'direct'] : ['direct', 'proxied'];
    for (const [label, url, snapshot] of pages) {
      for (const v of order) {
        const page = variants[v];
        if (snapshot) await page.goto(url, { waitUntil: 'load' });
        const t0 = performance.now();
        if (snapshot) await page.ariaSnapshot({ mode: 'ai' });
        else await page.goto(url, { waitUntil: 'load' });
        const ms = performance.now() - t0;
        if (round >= WARMUP) ((results[label] ??= {})[v] ??= []).push(ms);
      }
    }
  }
  const rows = Object.entries(results).map(([label, r]) => [
    label, fmt(median(r.direct)), fmt(median(r.proxied)), fmt(median(r.proxied) - median(r.direct)), fmt(p90(r.direct)), fmt(p90(r.proxied)),
  ]);
  table(['ms', 'direct median', 'proxied median', 'difference', 'direct p90', 'proxied p90'], rows);
  if (channel.denials.length) console.log(`unexpected denials: ${JSON.stringify(channel.denials.slice(0, 3))}`);

  const decide = async (host) => {
    const ts = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await policy.decide(host, 80);
      ts.push(performance.now() - t0);
    }
    return ts;
  };
  const lit = await decide('127.0.0.1');
  const name = await decide('localhost');
  table(['policy.decide, ms', 'median', 'p90'], [['IP literal', median(lit).toFixed(3), p90(lit).toFixed(3)], ['name (system resolver)', median(name).toFixed(3), p90(name).toFixed(3)]]);
} finally {
  await cleanup();
}
