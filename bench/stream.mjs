// WebSocket stream figures: (1) round-trip of a snapshot sent as a stream command
// against the same snapshot over HTTP, on the same page, interleaved; (2) events per
// second the stream delivers when a page floods its console, to one and to three
// watching clients. Prints medians; asserts nothing.
//
//   npm run bench:stream            (after npx tsc -b)
//   node bench/stream.mjs --iterations=30 --events=3000 --rounds=5

import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import {
  checkNoLeftovers, fmt, intArg, machineLine, median, min, onCleanup, p90, startBenchService, startStaticServer, table, timed,
} from './lib.mjs';

const ITERATIONS = intArg('iterations', 30);
const EVENTS = intArg('events', 3000);
const ROUNDS = intArg('rounds', 5);

const markers = new Set();
let svc = null;
let fixtures = null;
const sockets = new Set();
const cleanup = onCleanup(async () => {
  for (const ws of sockets) ws.terminate();
  await svc?.stop().catch((err) => console.error('stop failed:', err));
  await fixtures?.close().catch(() => {});
  await checkNoLeftovers(markers);
});

/** A stream client: send({op, params}) resolves with the reply; onEvent sees pushed events. */
function connect(base, id) {
  const ws = new WebSocket(`${base.replace(/^http/, 'ws')}/v1/sessions/${id}/stream`, { maxPayload: 0 });
  sockets.add(ws);
  const pending = new Map();
  let next = 1;
  const client = {
    ws,
    onEvent: () => {},
    send(op, params = {}) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        ws.send(JSON.stringify({ id, op, params }));
      });
    },
    close() { ws.close(); sockets.delete(ws); },
  };
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString());
    if (msg.id !== undefined && pending.has(msg.id)) {
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      msg.error ? p.reject(Object.assign(new Error(msg.error.message), msg.error)) : p.resolve(msg.result);
    } else if (msg.event === 'hello') {
      client.ready?.();
    } else if (msg.seq !== undefined) {
      client.onEvent(msg);
    }
  });
  return new Promise((resolve, reject) => {
    client.ready = () => resolve(client);
    ws.once('error', reject);
  });
}

console.log(`stream: snapshot round-trip WS vs HTTP (${ITERATIONS} interleaved), console events/s (${EVENTS} events x ${ROUNDS} rounds)`);
console.log(machineLine());
try {
  fixtures = await startStaticServer();
  svc = await startBenchService({ POOL_WARM_CONTEXTS: '1', STREAM_MESSAGES_PER_SECOND: '100000' });
  for (const m of svc.markers) markers.add(m);
  const base = svc.url;
  const { json: session } = await timed('POST', `${base}/v1/sessions`, {});
  const id = session.id;

  // 1. Round trip of the same snapshot, over the socket and over HTTP.
  const rows = [];
  for (const [label, page] of [['products.html (12 cards)', 'products.html'], ['large.html?n=1000', 'large.html?n=1000']]) {
    await timed('POST', `${base}/v1/sessions/${id}/roles/default/actions`, { action: 'navigate', url: `${fixtures.url}/${page}` });
    const client = await connect(base, id);
    const ws = [];
    const http = [];
    for (let i = 0; i < ITERATIONS + 3; i++) {
      const order = i % 2 === 0 ? ['ws', 'http'] : ['http', 'ws'];
      for (const kind of order) {
        const t0 = performance.now();
        if (kind === 'ws') await client.send('snapshot', {});
        else await timed('GET', `${base}/v1/sessions/${id}/roles/default/snapshot`);
        const ms = performance.now() - t0;
        if (i >= 3) (kind === 'ws' ? ws : http).push(ms);
      }
    }
    client.close();
    rows.push([label, fmt(median(ws)), fmt(p90(ws)), fmt(median(http)), fmt(p90(http)), (median(ws) / median(http)).toFixed(2)]);
  }
  console.log('\nSnapshot round trip (ms), same page, interleaved:');
  table(['page', 'WS p50', 'WS p90', 'HTTP p50', 'HTTP p90', 'WS/HTTP'], rows);

  // 2. Events delivered per second: a page that logs EVENTS console messages at once.
  const evRows = [];
  for (const watchers of [1, 3]) {
    const rates = [];
    for (let r = 0; r < ROUNDS; r++) {
      const clients = await Promise.all(Array.from({ length: watchers }, () => connect(base, id)));
      const done = clients.map((c) => new Promise((resolve) => {
        let first = 0;
        let count = 0;
        c.onEvent = (e) => {
          if (e.event !== 'console') return;
          if (count === 0) first = performance.now();
          count++;
          if (e.data.text === `flood ${EVENTS - 1}`) resolve({ count, ms: performance.now() - first });
        };
      }));
      await timed('POST', `${base}/v1/sessions/${id}/roles/default/actions`, { action: 'navigate', url: `${fixtures.url}/console-flood.html?n=${EVENTS}` });
      const results = await Promise.race([Promise.all(done), new Promise((r) => setTimeout(() => r(null), 60_000))]);
      for (const c of clients) c.close();
      if (!results) throw new Error('events did not all arrive within 60 s');
      // Per client: events it received over the time from its first to its last.
      for (const x of results) rates.push((x.count / x.ms) * 1000);
    }
    evRows.push([String(watchers), fmt(median(rates)), fmt(min(rates)), String(rates.length)]);
  }
  console.log(`\nConsole events delivered per second per client (${EVENTS} events per round):`);
  table(['watching clients', 'events/s p50', 'events/s min', 'samples'], evRows);

  await timed('DELETE', `${base}/v1/sessions/${id}`);
} finally {
  await cleanup();
}
