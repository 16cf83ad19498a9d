import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
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
  let port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-test-redis-'));
  let child: ChildProcess | null = null;
  const clients: Redis[] = [];
  let url = `redis://127.0.0.1:${port}`;
  // Ready when the redis-server answering is this one (its dir): a port found free can be
  // taken before the server binds it, and another test's redis-server would answer PING.
  const start = async () => {
    const c0 = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', ''], { stdio: 'ignore' });
    child = c0;
    const answer = await waitUntil(async () => {
      if (c0.exitCode !== null || c0.signalCode !== null) return 'exited';
      const c = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
      c.on('error', () => {});
      try {
        await c.connect();
        const [, served] = (await c.config('GET', 'dir')) as string[];
        return served === realpathSync(dir) ? 'ours' : 'foreign';
      } finally {
        c.disconnect();
      }
    }, 10_000, 'redis-server to start');
    if (answer === 'ours') return;
    if (c0.exitCode === null && c0.signalCode === null) c0.kill('SIGKILL');
    throw new Error(`redis-server could not have port ${port}: ${answer === 'exited' ? 'it exited (port taken?)' : 'another redis-server answers on it'}`);
  };
  // The first start may move to another port; a restart must keep its port (and says so).
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (err) {
      if (attempt >= 3) throw err;
      port = await freePort();
      url = `redis://127.0.0.1:${port}`;
    }
  }
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill(signal);
    await exited;
  };
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
