import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processTable, spawnServer } from './helpers/process.js';

// The process tests' own footing: spawnServer finds a free port, starts the server on it
// and waits for /healthz. Between the two, another listener may take the port: a fresh-
// clone run had a service of the same test (listening on port 0) get it, answer /healthz
// for the server that had failed to bind, and then create "node B's" session on node A
// (tests/security/tenancy-cluster). Readiness must come from the server it started.

let decoy: Server;
let port: number;

beforeAll(async () => {
  decoy = createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ ok: true, node: 'decoy-node' }));
  });
  await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
  port = (decoy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => decoy.close(() => resolve())));

describe('spawnServer', () => {
  it('does not take another server answering on its port for the one it started', async () => {
    await expect(spawnServer({ port, readyTimeoutMs: 20_000 })).rejects.toThrow(/answered by another server \(node "decoy-node"\)/);
    // The server it started is gone (killed, or it exited on EADDRINUSE).
    const table = processTable();
    const left = [...table.values()].filter((p) => p.ppid === process.pid && p.cmdline.includes('apps/server/dist/main.js'));
    expect(left).toEqual([]);
  });
});
