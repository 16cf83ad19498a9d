import { afterAll, describe, expect, it } from 'vitest';
import { LOG_FLUSH_MS } from '@ariadne/server';
import { destroyServer, spawnServer, waitUntil, type ServerProcess } from './helpers/process.js';

// The request line of every call used to be its own write to stdout: a pipe whose reader
// (here this test, in production a terminal, Docker's log driver or journald) was woken
// once per request. Under a snapshot load those wake-ups cost the server and the callers
// as much CPU as the rest of the HTTP exchange. Lines now go out in batches
// (LOG_BUFFER_BYTES, flushed at least every 200 ms and on exit).

let server: ServerProcess | null = null;
afterAll(async () => { if (server) await destroyServer(server); });

describe('log lines on stdout', () => {
  it('go out in batches, each request still gets its line, and a clean stop loses none', async () => {
    server = await spawnServer({ env: { LOG_BUFFER_BYTES: '4096' } });
    let chunks = 0;
    server.child.stdout!.on('data', () => { chunks++; });
    const ids: string[] = [];
    const started = Date.now();
    for (let i = 0; i < 60; i++) {
      const rid = `batch-${i}-${Date.now()}`;
      const res = await server.api.request('GET', '/v1/sessions', undefined, { 'x-request-id': rid });
      expect(res.status).toBe(200);
      ids.push(rid);
    }
    // Every line arrives within the flush interval (plus slack for a loaded machine).
    await waitUntil(() => ids.every((rid) => server!.output().includes(rid)), 5000, 'the 60 request lines');
    // One write per line would be ~60 reads here; batches are a handful: one per 4 KB, and
    // one per flush (every LOG_FLUSH_MS) while the requests ran (many on a loaded machine), never 30: a
    // write per line came in 41-44 reads.
    const allowed = Math.min(30, 10 + Math.ceil(server.output().length / 4096) + Math.ceil((Date.now() - started) / LOG_FLUSH_MS));
    expect(chunks, `stdout arrived in ${chunks} reads for 60 requests (allowed ${allowed})`).toBeLessThan(allowed);

    // Requests answered just before SIGTERM still have their lines after the exit.
    const last: string[] = [];
    for (let i = 0; i < 10; i++) {
      const rid = `last-${i}-${Date.now()}`;
      expect((await server.api.request('GET', '/v1/sessions', undefined, { 'x-request-id': rid })).status).toBe(200);
      last.push(rid);
    }
    server.child.kill('SIGTERM');
    await server.exited;
    const out = server.output();
    for (const rid of last) expect(out, rid).toContain(rid);
    expect(out).toContain('Ariadne stopped');
  });
});
