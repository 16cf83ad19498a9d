import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
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
  await stopOrphanedRedis(opts.dataDir, opts.logger);
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

interface ProcEntry { pid: number; ppid: number; cmdline: string }

function readProc(pid: number): ProcEntry | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (fields[0] === 'Z' || fields[0] === 'X') return null; // exited, not reaped yet
    return { pid, ppid: Number(fields[1]), cmdline: readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ') };
  } catch {
    return null;
  }
}

/** redis-server processes serving dataDir: redis chdirs into its --dir, so its cwd tells (Linux /proc). */
export function findRedisServing(dataDir: string): ProcEntry[] {
  let dir: string;
  let entries: string[];
  try {
    dir = realpathSync(dataDir); // what /proc/<pid>/cwd shows, symlinks resolved
    entries = readdirSync('/proc');
  } catch {
    return []; // no such dir yet, or not Linux: nothing to look for
  }
  const out: ProcEntry[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const p = readProc(Number(entry));
    if (!p || !/(^|\/)redis-server( |$)/.test(p.cmdline)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) === dir) out.push(p);
    } catch {
      /* another user's process, or gone */
    }
  }
  return out;
}

/**
 * A service killed with SIGKILL (or by the OOM killer) cannot stop its redis-server: it
 * keeps running, orphaned, on this data dir. Starting a second one on the same AOF files
 * would corrupt them, so stop the orphan first (SIGTERM: it flushes the AOF and exits).
 * A redis-server whose parent is still a live Node process belongs to a running service
 * sharing this STATE_DIR: refuse rather than pull its Redis away.
 */
export async function stopOrphanedRedis(dataDir: string, logger?: EmbeddedRedisOptions['logger']): Promise<void> {
  for (const proc of findRedisServing(dataDir)) {
    const parent = proc.ppid > 1 ? readProc(proc.ppid) : null;
    if (parent && /(^|\/)node( |$)/.test(parent.cmdline)) {
      throw new Error(
        `${path.resolve(dataDir)} is in use by the redis-server (pid ${proc.pid}) of another running service (pid ${parent.pid}); give each service its own STATE_DIR.`,
      );
    }
    logger?.warn({ pid: proc.pid, dataDir }, 'stopping an orphaned redis-server left by an earlier run');
    const signal = (sig: NodeJS.Signals) => { try { process.kill(proc.pid, sig); } catch { /* gone */ } };
    signal('SIGTERM');
    const deadline = Date.now() + 10_000;
    while (readProc(proc.pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    if (readProc(proc.pid)) {
      signal('SIGKILL');
      while (readProc(proc.pid)) await new Promise((r) => setTimeout(r, 50));
    }
  }
}
