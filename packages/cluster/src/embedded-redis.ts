import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { Redis } from 'ioredis';

// Embedded mode: with no REDIS_URL the service runs its own redis-server as a child
// process, AOF on, data under the state dir, so a restart of the service loses nothing.

export interface EmbeddedRedisOptions {
  dataDir: string;
  port?: number; // 0 or undefined: a free port
  binary?: string;
  logger?: { info: (o: object, msg?: string) => void; warn: (o: object, msg?: string) => void };
}

export interface EmbeddedRedis {
  url: string;
  port: number;
  pid: number;
  stop(): Promise<void>;
}

export function findRedisBinary(explicit?: string): string | null {
  if (explicit) return existsSync(explicit) ? explicit : null;
  for (const candidate of ['/usr/bin/redis-server', '/usr/local/bin/redis-server']) {
    if (existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const found = which.stdout.trim();
  return found || null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export class RedisBinaryMissingError extends Error {
  constructor() {
    super(
      'No redis-server binary found. Install it (Debian: `apt-get install -y redis-server`) ' +
        'or point the service at an existing Redis with REDIS_URL=redis://host:6379.',
    );
  }
}

export async function startEmbeddedRedis(opts: EmbeddedRedisOptions): Promise<EmbeddedRedis> {
  const binary = findRedisBinary(opts.binary);
  if (!binary) throw new RedisBinaryMissingError();
  mkdirSync(opts.dataDir, { recursive: true });
  const port = opts.port || (await freePort());
  const child: ChildProcess = spawn(
    binary,
    [
      '--port', String(port),
      '--bind', '127.0.0.1',
      '--dir', path.resolve(opts.dataDir),
      '--appendonly', 'yes',
      '--appendfsync', 'everysec',
      '--save', '',
      '--daemonize', 'no',
      '--protected-mode', 'yes',
      '--loglevel', 'warning',
    ],
    // Own process group: Ctrl-C on the terminal must reach only the service, which
    // then stops Redis last, after recording the sessions it ends.
    { stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  // ...and if the service exits without stop() (a forced exit), Redis goes with it.
  const killOnExit = () => child.kill('SIGTERM');
  process.once('exit', killOnExit);
  child.once('exit', () => process.removeListener('exit', killOnExit));
  let output = '';
  child.stdout?.on('data', (d: Buffer) => { output = (output + d.toString()).slice(-4000); });
  child.stderr?.on('data', (d: Buffer) => { output = (output + d.toString()).slice(-4000); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const url = `redis://127.0.0.1:${port}`;
  // Wait until it answers PING (or died).
  const deadline = Date.now() + 15_000;
  let ready = false;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    probe.on('error', () => {});
    try {
      await probe.connect();
      // AOF loading answers LOADING errors until done.
      if ((await probe.ping()) === 'PONG') ready = true;
    } catch {
      /* not yet */
    } finally {
      probe.disconnect();
    }
    if (ready) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error(`embedded redis-server did not start on port ${port}: ${output.trim()}`);
  }
  opts.logger?.info({ port, dataDir: opts.dataDir, pid: child.pid }, 'embedded redis-server started');

  let stopping: Promise<void> | null = null;
  return {
    url,
    port,
    pid: child.pid!,
    stop() {
      if (stopping) return stopping;
      stopping = (async () => {
        if (child.exitCode !== null) return;
        // SIGTERM: redis flushes the AOF and exits.
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}
