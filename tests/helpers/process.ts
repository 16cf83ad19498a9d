import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_NODE_FLAGS } from '@ariadne/server';
import { Api } from './service.js';

// Runs the real entry point (`node apps/server/dist/main.js`) as a child process, so
// tests can send it signals, and finds the processes it owns through /proc: its
// Chromium browsers by the `--ariadne-browser=<id>` marker switch (plus their
// descendants), its embedded redis-server by working directory (redis chdirs into
// its data dir). Other engineers' Chromium processes on this machine are never counted.

export const MAIN_JS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../apps/server/dist/main.js');

export interface ProcInfo {
  pid: number;
  ppid: number;
  state: string;
  cmdline: string;
}

/** Every live process (zombies excluded: an orphan reaped late is still dead). */
export function processTable(): Map<number, ProcInfo> {
  const table = new Map<number, ProcInfo>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // comm may contain spaces and parentheses: parse after the last ')'.
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const state = rest[0];
      if (state === 'Z' || state === 'X') continue;
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      table.set(Number(entry), { pid: Number(entry), ppid: Number(rest[1]), state, cmdline });
    } catch {
      /* exited while we looked */
    }
  }
  return table;
}

export function isAlive(pid: number): boolean {
  return processTable().has(pid);
}

export function descendantsOf(pid: number, table = processTable()): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift()!;
    for (const p of table.values()) {
      if (p.ppid === parent && !out.includes(p.pid)) {
        out.push(p.pid);
        queue.push(p.pid);
      }
    }
  }
  return out;
}

/** Main browser processes carrying one of these markers, and everything under them. */
export function browserProcesses(markers: string[], table = processTable()): number[] {
  const mains = [...table.values()].filter((p) => markers.some((m) => p.cmdline.includes(`--ariadne-browser=${m}`))).map((p) => p.pid);
  return [...new Set(mains.flatMap((pid) => [pid, ...descendantsOf(pid, table)]))];
}

/** redis-server processes whose working directory is inside dir (embedded Redis of that state dir). */
export function redisProcessesIn(dir: string, table = processTable()): number[] {
  const root = path.resolve(dir);
  return [...table.values()]
    .filter((p) => p.cmdline.startsWith('redis-server') || p.cmdline.includes('/redis-server'))
    .filter((p) => {
      try {
        const cwd = readlinkSync(`/proc/${p.pid}/cwd`);
        return cwd === root || cwd.startsWith(`${root}/`);
      } catch {
        return false;
      }
    })
    .map((p) => p.pid);
}

/** Playwright's temp dirs (browser profiles, artifacts) left in a TMPDIR. */
export function playwrightTempDirs(dir: string): string[] {
  try {
    return readdirSync(dir).filter((n) => n.startsWith('playwright'));
  } catch {
    return [];
  }
}

export function killPids(pids: number[], signal: NodeJS.Signals = 'SIGKILL'): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
}

/** Poll fn until it returns something truthy, and return that. */
export async function waitUntil<T>(fn: () => T | Promise<T>, timeoutMs: number, what: string, intervalMs = 100): Promise<Exclude<T, null | undefined | false | 0 | ''>> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v as Exclude<T, null | undefined | false | 0 | ''>;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last instanceof Error ? last.message : JSON.stringify(last)})`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The node id a server answers /healthz with, or null while it does not answer 200. */
export async function healthzNode(url: string): Promise<string | null> {
  const res = await fetch(`${url}/healthz`).catch(() => null);
  if (res?.status !== 200) return null;
  const body = (await res.json().catch(() => ({}))) as { node?: unknown };
  return String(body.node ?? '');
}

/**
 * Is this node id the server process `pid`'s? NODE_ID when it was given one, else the
 * default "<host>-<pid>-<random>" (config.ts). A port found free can be taken by another
 * listener before the server binds it, and that one would answer /healthz too.
 */
export function isNodeOf(node: string, pid: number, nodeId?: string): boolean {
  return nodeId ? node === nodeId : node.includes(`-${pid}-`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  url: string;
  api: Api;
  stateDir: string;
  tmpDir: string;
  /** The server's own temp dir (STATE_DIR/tmp/<pid>): its TMPDIR once it runs. */
  ownTmpDir: string;
  /** Playwright's temp dirs it left, in the TMPDIR it was given or its own temp dir. */
  playwrightTemp(): string[];
  /** Resolves when the process exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** stdout + stderr so far (pino JSON lines). */
  output(): string;
  /** Ids of every browser it launched (from its log), i.e. the markers of its Chromium processes. */
  browserMarkers(): string[];
  /** Pid of the embedded redis-server it started (from its log). */
  redisPid(): number | null;
  /** Every Chromium process that belongs to it: marker matches, their descendants, and its own descendants. */
  chromiumPids(): number[];
}

export interface SpawnOptions {
  env?: Record<string, string>;
  /** Reuse a state dir (restart on the same embedded Redis data). Default: a fresh one. */
  stateDir?: string;
  tmpDir?: string;
  readyTimeoutMs?: number;
  /** Listen on this port instead of a free one found now (no retry on another port). */
  port?: number;
}

export async function spawnServer(opts: SpawnOptions = {}): Promise<ServerProcess> {
  // A port found free can be taken before the server binds it (an outgoing connection of
  // any process may get it as its ephemeral port: seen under load as EADDRINUSE). Then
  // the server refuses to start, and it is started again on another port. The taker may
  // even be another service of the same test, listening on port 0: its /healthz answers
  // 200 on that port, so readiness checks that the node answering is the one started.
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnServerOnce(opts);
    } catch (err) {
      if (attempt >= 3 || opts.port !== undefined || !(err instanceof PortTakenError)) throw err;
    }
  }
}

class PortTakenError extends Error {}

async function spawnServerOnce(opts: SpawnOptions): Promise<ServerProcess> {
  const stateDir = opts.stateDir ?? mkdtempSync(path.join(tmpdir(), 'ariadne-proc-state-'));
  const tmpDir = opts.tmpDir ?? mkdtempSync(path.join(tmpdir(), 'ariadne-proc-tmp-'));
  const port = opts.port ?? await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: '127.0.0.1',
    STATE_DIR: stateDir,
    TMPDIR: tmpDir,
    LOG_LEVEL: 'info',
    // Every line at once: tests read the log as data (browser markers, the Redis pid, a
    // request id) right after the event. Batching has its own test (tests/log-batching).
    LOG_BUFFER_BYTES: '0',
    POOL_BROWSERS: '1',
    POOL_MAX_CONTEXTS_PER_BROWSER: '4',
    POOL_MAX_CONTEXTS: '4',
    // No warm-up: starting is what costs most on a busy 2-core machine.
    POOL_WARM_CONTEXTS: '0',
    ...opts.env,
  };
  // The embedded Redis of this state dir, unless the test gives a shared one (cluster tests).
  if (!opts.env?.REDIS_URL) delete env.REDIS_URL;
  // Started as `npm start` starts it (its V8 flags).
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, MAIN_JS], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let exitedEarly = false;
  void exited.then(() => { exitedEarly = true; });
  const url = `http://127.0.0.1:${port}`;
  const logLines = () =>
    out.split('\n').flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const proc: ServerProcess = {
    child,
    pid: child.pid!,
    url,
    api: new Api(url, opts.env?.API_KEYS ? opts.env.API_KEYS.split(',')[0].split(':')[0] : undefined),
    stateDir,
    tmpDir,
    ownTmpDir: path.join(stateDir, 'tmp', String(child.pid)),
    playwrightTemp: () => [...playwrightTempDirs(tmpDir), ...playwrightTempDirs(proc.ownTmpDir)],
    exited,
    output: () => out,
    browserMarkers: () => logLines().filter((l) => l.msg === 'browser launched').map((l) => String(l.browserId)),
    redisPid: () => {
      const line = logLines().find((l) => l.msg === 'embedded redis-server started');
      return line ? Number(line.pid) : null;
    },
    chromiumPids: () => {
      const table = processTable();
      const own = descendantsOf(child.pid!, table).filter((p) => /chrom/.test(table.get(p)?.cmdline ?? ''));
      return [...new Set([...browserProcesses(proc.browserMarkers(), table), ...own])];
    },
  };
  try {
    const answer = await waitUntil(async () => {
      if (exitedEarly) return { exited: true as const };
      const node = await healthzNode(url);
      return node === null ? null : { node };
    }, opts.readyTimeoutMs ?? 45_000, 'the server to answer /healthz', 150);
    if ('exited' in answer) throw new Error('server exited before it was ready');
    if (!isNodeOf(answer.node, child.pid!, env.NODE_ID)) {
      throw new PortTakenError(`port ${port} is answered by another server (node "${answer.node}"), not by the one started (pid ${child.pid})`);
    }
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    if (!opts.tmpDir) rmSync(tmpDir, { recursive: true, force: true });
    if (!opts.stateDir) rmSync(stateDir, { recursive: true, force: true });
    const taken = err instanceof PortTakenError || new RegExp(`EADDRINUSE[^\\n]*:${port}\\b`).test(out);
    throw new (taken ? PortTakenError : Error)(`${(err as Error).message}\n${out.slice(-3000)}`);
  }
  return proc;
}

/**
 * Last-resort cleanup after a test: SIGKILL the server if it still runs, then anything it
 * left behind (browsers by marker, the redis-server of its state dir), then its dirs.
 */
export async function destroyServer(proc: ServerProcess, opts: { keepStateDir?: boolean } = {}): Promise<void> {
  if (proc.child.exitCode === null && proc.child.signalCode === null) {
    proc.child.kill('SIGKILL');
    await proc.exited;
  }
  killPids([...proc.chromiumPids(), ...redisProcessesIn(proc.stateDir)]);
  await waitUntil(() => proc.chromiumPids().length === 0 && redisProcessesIn(proc.stateDir).length === 0, 10_000, 'leftover processes to die').catch(() => {});
  rmSync(proc.tmpDir, { recursive: true, force: true });
  if (!opts.keepStateDir) rmSync(proc.stateDir, { recursive: true, force: true });
}

/** Run a command to its end (killed with SIGKILL after timeoutMs): its exit code, stdout and stderr. */
export function runToEnd(cmd: string, args: string[], o: { env: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { env: o.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}
