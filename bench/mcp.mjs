// MCP figures, printed (never asserted):
//  1. Seed 000's product-card walk through the MCP tools (browser_snapshot →
//     resolve_container → inspect_pattern → extract_anchors → get_locators) on the 12-card
//     grid (tests/fixtures/products.html): tokens (chars / 4) of each tool result and in
//     total, beside the seed's ~2,100 for the container → pattern → anchors walk.
//  2. Per-call latency of the same operations through MCP (Streamable HTTP at /mcp, and
//     stdio via `ariadne mcp`) vs REST, interleaved rounds, medians and p90.
//
// (Playwright MCP itself, @playwright/mcp, is measured beside Ariadne and raw
// playwright-core in lease-latency, snapshot-latency and snapshot-settle.)
//
//   npx tsc -b && node bench/mcp.mjs [--iterations=20] [--quick]

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  checkNoLeftovers, fmt, intArg, runAsScript, machineLine, median, onCleanup, p90, startBenchService, startStaticServer, table,
  timingRow, valueRow,
} from './lib.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEED_TOKENS = 2100;
const tokens = (s) => Math.ceil(s.length / 4);

async function mcpClient(transport) {
  const client = new Client({ name: 'ariadne-bench', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name, args = {}) => {
    const t0 = performance.now();
    const r = await client.callTool({ name, arguments: args });
    const ms = performance.now() - t0;
    const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    if (r.isError) throw new Error(`${name}: ${text}`);
    return { ms, text };
  };
  return { client, transport, call };
}

async function rest(base, method, p, body) {
  const t0 = performance.now();
  const res = await fetch(base + p, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 200)}`);
  return { ms: performance.now() - t0, json: text ? JSON.parse(text) : null };
}

export async function run({ quick = false } = {}) {
  const ITERATIONS = intArg('iterations', quick ? 5 : 20);
  const out = [];
  const markers = new Set();
  let svc = null;
  let fixtures = null;
  const clients = [];
  const cleanup = onCleanup(async () => {
    for (const c of clients) await c.close().catch(() => {});
    await svc?.stop().catch((err) => console.error('stop failed:', err));
    await fixtures?.close().catch(() => {});
    await checkNoLeftovers(markers);
  });
  console.log(`mcp: seed-000 walk through MCP on products.html; latency MCP (HTTP, stdio) vs REST, ${ITERATIONS} interleaved rounds`);
  console.log(machineLine());
  try {
    fixtures = await startStaticServer();
    svc = await startBenchService();
    for (const m of svc.markers) markers.add(m);
    const base = svc.url;
    const url = `${fixtures.url}/products.html`;

    // 1. The walk, as a model would make it.
    const http = await mcpClient(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    clients.push(http.client);
    await http.call('browser_navigate', { url });
    const snap = await http.call('browser_snapshot', {});
    const target = /button "Add to Cart" \[(e\d+)\]/.exec(snap.text)[1]; // the iPhone 15 Pro card, as in the seed
    const walk = [
      ['browser_snapshot', {}, snap.text],
      ['resolve_container', { ref: target }],
      ['inspect_pattern', { ref: target, level: 2 }],
      ['extract_anchors', { ref: target, level: 1 }],
      ['get_locators', { ref: target }],
    ];
    const rows = [];
    let explore = 0;
    let all = 0;
    for (const [name, args, given] of walk) {
      const text = given ?? (await http.call(name, args)).text;
      const t = tokens(text);
      all += t;
      if (['resolve_container', 'inspect_pattern', 'extract_anchors'].includes(name)) explore += t;
      rows.push([`${name}${args.level ? ` (level ${args.level})` : ''}`, String(text.length), String(t)]);
      out.push(valueRow('Ariadne MCP: seed-000 walk, tokens per tool result', `${name}${args.level ? ` (level ${args.level})` : ''}`, 'ariadne', t));
    }
    out.push(valueRow('Ariadne MCP: seed-000 walk, tokens per tool result', 'container + pattern + anchors', 'ariadne', explore, `seed 000: ~${SEED_TOKENS}`));
    rows.push(['container + pattern + anchors', '', String(explore)]);
    rows.push(['whole walk (with snapshot and locators)', '', String(all)]);
    rows.push(['seed 000 (container + pattern + anchors)', '', `~${SEED_TOKENS}`]);
    console.log('\n1. Seed 000 walk through MCP (tokens = chars / 4 of each tool result):');
    table(['tool result', 'chars', 'tokens'], rows);
    const locs = (await http.call('get_locators', { ref: target })).text.split('\n').slice(0, 2).join(' | ');
    console.log(`   best locator: ${locs}`);

    // 2. Latency: the same operation through REST, MCP over HTTP and MCP over stdio.
    const stdio = await mcpClient(new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'bin/ariadne.mjs'), 'mcp', '--server', base], stderr: 'ignore' }));
    clients.push(stdio.client);
    await stdio.call('browser_navigate', { url });
    await stdio.call('browser_snapshot', {});
    const sid = (await rest(base, 'POST', '/v1/sessions', {})).json.id;
    const role = `/v1/sessions/${sid}/roles/default`;
    await rest(base, 'POST', `${role}/actions`, { action: 'navigate', url });
    await rest(base, 'GET', `${role}/snapshot?format=text`);
    const ops = [
      ['snapshot (text)', () => rest(base, 'GET', `${role}/snapshot?format=text&maxTokens=6000`), (c) => c.call('browser_snapshot', {})],
      ['click by ref', () => rest(base, 'POST', `${role}/actions`, { action: 'click', ref: target, snapshot: 'diff' }), (c) => c.call('browser_click', { target })],
      ['resolve_container', () => rest(base, 'GET', `${role}/explore/container?ref=${target}&format=text`), (c) => c.call('resolve_container', { ref: target })],
      ['inspect_pattern', () => rest(base, 'GET', `${role}/explore/pattern?ref=${target}&level=2&format=text`), (c) => c.call('inspect_pattern', { ref: target, level: 2 })],
      ['get_locators', () => rest(base, 'GET', `${role}/locators?ref=${target}`), (c) => c.call('get_locators', { ref: target })],
    ];
    const samples = new Map(ops.map(([n]) => [n, { rest: [], http: [], stdio: [] }]));
    for (let i = 0; i < ITERATIONS + 2; i++) {
      for (const [name, viaRest, viaMcp] of ops) {
        const s = samples.get(name);
        const r = await viaRest();
        const h = await viaMcp(http);
        const o = await viaMcp(stdio);
        if (i < 2) continue; // warm-up
        s.rest.push(r.ms);
        s.http.push(h.ms);
        s.stdio.push(o.ms);
      }
    }
    const lat = [];
    for (const [name] of ops) {
      const s = samples.get(name);
      lat.push([name, `${fmt(median(s.rest))} / ${fmt(p90(s.rest))}`, `${fmt(median(s.http))} / ${fmt(p90(s.http))}`, `${fmt(median(s.stdio))} / ${fmt(p90(s.stdio))}`, `+${fmt(median(s.http) - median(s.rest))}`]);
      const M = `Ariadne MCP vs REST: ${name}`;
      out.push(timingRow(M, 'REST', 'ariadne', s.rest, { baseline: s.rest, ratioTo: 'REST' }));
      out.push(timingRow(M, 'MCP Streamable HTTP (/mcp)', 'ariadne', s.http, { baseline: s.rest, ratioTo: 'REST' }));
      out.push(timingRow(M, 'MCP stdio (ariadne mcp)', 'ariadne', s.stdio, { baseline: s.rest, ratioTo: 'REST' }));
    }
    console.log(`\n2. Latency per call, ms, median / p90 over ${ITERATIONS} interleaved rounds (MCP includes its text rendering):`);
    table(['operation', 'REST', 'MCP HTTP (/mcp)', 'MCP stdio', 'MCP HTTP − REST (median)'], lat);
    await rest(base, 'DELETE', `/v1/sessions/${sid}`);
    return { rows: out };
  } finally {
    await cleanup();
  }
}

// As a script it prints its own tables; the rows are for bench/run-all.mjs.
runAsScript(import.meta.url, run, { print: false });
