#!/usr/bin/env node
// Where a process's CPU went, by part: reads a V8 .cpuprofile (e.g. the server's, from
// `BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR" node bench/concurrency.mjs`) and puts
// every busy sample in the part of its innermost frame that belongs to one (playwright-core,
// Fastify, Node's HTTP, our packages ...), then lists the hottest functions of one part.
//
//   node bench/cpuprofile-parts.mjs FILE.cpuprofile [--top=15] [--part=ariadne]
//
// Shares are of busy samples (idle left out). Prints figures, asserts nothing.

import { readFileSync } from 'node:fs';
import path from 'node:path';

// First match wins, tried from the innermost frame outwards: a socket write made by
// Fastify's reply counts as Node's HTTP, one made by Playwright's pipe as playwright-core.
const PARTS = [
  ['garbage collection', (url, fn) => fn === '(garbage collector)'],
  ['ariadne', (url) => /\/(apps|packages)\/[^/]+\/dist\//.test(url)],
  ['playwright-core', (url) => url.includes('node_modules/playwright-core/')],
  ['fastify and its dependencies', (url) => /node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio|fast-json-stringify|fast-querystring|pino|ajv|abstract-logging)\//.test(url)],
  ['ws', (url) => url.includes('node_modules/ws/')],
  ['ioredis / bullmq', (url) => /node_modules\/(ioredis|bullmq)\//.test(url)],
  ["node's http", (url) => /node:_http|^_http_|node:internal\/http/.test(url)],
];

function parts(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map();
  for (const s of profile.samples) counts.set(s, (counts.get(s) ?? 0) + 1);
  const byPart = new Map();
  const selfByPart = new Map();
  let busy = 0;
  for (const [id, k] of counts) {
    const leaf = byId.get(id);
    if (leaf.callFrame.functionName === '(idle)') continue;
    busy += k;
    let part = null;
    for (let cur = id; cur && !part; cur = parent.get(cur)) {
      const { url, functionName } = byId.get(cur).callFrame;
      part = PARTS.find(([, test]) => test(url, functionName))?.[0] ?? null;
    }
    part ??= `other: ${leaf.callFrame.functionName || '(anonymous)'}`;
    byPart.set(part, (byPart.get(part) ?? 0) + k);
    const { functionName, url, lineNumber } = leaf.callFrame;
    const key = `${functionName || '(anonymous)'} ${url.split('/').slice(-2).join('/')}:${lineNumber + 1}`;
    const fns = selfByPart.get(part) ?? new Map();
    fns.set(key, (fns.get(key) ?? 0) + k);
    selfByPart.set(part, fns);
  }
  return { busy, total: profile.samples.length, byPart, selfByPart };
}

function main() {
  const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
  if (!file) {
    console.error('usage: node bench/cpuprofile-parts.mjs FILE.cpuprofile [--top=15] [--part=NAME]');
    process.exit(2);
  }
  const top = Number(process.argv.find((a) => a.startsWith('--top='))?.slice(6) ?? 15);
  const only = process.argv.find((a) => a.startsWith('--part='))?.slice(7) ?? 'ariadne';
  const { busy, total, byPart, selfByPart } = parts(JSON.parse(readFileSync(file, 'utf8')));
  const pct = (k) => `${((100 * k) / busy).toFixed(1)} %`;
  console.log(`${path.basename(file)}: ${busy} busy samples of ${total} (${((100 * busy) / total).toFixed(1)} % busy)\n`);
  const rows = [...byPart].sort((a, b) => b[1] - a[1]);
  const named = rows.filter(([p]) => !p.startsWith('other: '));
  const other = rows.filter(([p]) => p.startsWith('other: '));
  for (const [p, k] of named) console.log(`${pct(k).padStart(7)}  ${p}`);
  console.log(`${pct(other.reduce((a, [, k]) => a + k, 0)).padStart(7)}  other (largest: ${other.slice(0, 4).map(([p, k]) => `${p.slice(7)} ${pct(k)}`).join(', ')})`);
  const fns = selfByPart.get(only);
  if (fns) {
    console.log(`\nhottest functions in "${only}" (self time):`);
    for (const [fn, k] of [...fns].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(k).padStart(7)}  ${fn}`);
  }
}

main();
