import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, waitUntil } from './process.js';

// A redis-server of the test's own (free port, AOF on, temp dir) that the test can
// stop and start again on the same port and data, as a Redis restart would.

export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  client(): Redis;
  stop(signal?: NodeJS.Signals): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-test-redis-'));
  let child: ChildProcess | null = null;
  const clients: Redis[] = [];
  const url = `redis://127.0.0.1:${port}`;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''], { stdio: 'ignore' });
    await waitUntil(async () => {
      const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on('error', () => {});
      try {
        await c.connect();
        return (await c.ping()) === 'PONG';
      } finally {
        c.disconnect();
      }
    }, 10_000, 'redis-server to start');
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
  await start();
  return {
    url,
    port,
    dir,
    client() {
      const c = new Redis(url, { maxRetriesPerRequest: 1 });
      c.on('error', () => {});
      clients.push(c);
      return c;
    },
    stop,
    start,
    async destroy() {
      for (const c of clients) c.disconnect();
      await stop('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
