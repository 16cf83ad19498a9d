import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Api } from '../helpers/service.js';
import { browserProcesses, freePort, healthzNode, isNodeOf, killPids, MAIN_JS, redisProcessesIn, waitUntil } from '../helpers/process.js';

// Issue 10, item 8: Chromium runs with its own sandbox where the host allows it. Root
// cannot (the browsers test checks the fallback); here the service runs as an
// unprivileged user (nobody), as the Dockerfile's `node` user would, and must launch
// Chromium sandboxed: no --no-sandbox on its command line, and pages still work.

const root = typeof process.getuid === 'function' && process.getuid() === 0;
const NOBODY = 65534;
const KEY = 'tenancy-sandbox-key-0123456789';

let child: ChildProcess | null = null;
let out = '';
let dir = '';
let url = '';
let exited: Promise<unknown> = Promise.resolve();
let shutdownMs = 0;

const markers = () => out.split('\n').flatMap((l) => {
  try {
    const j = JSON.parse(l) as { msg?: string; browserId?: string };
    return j.msg === 'browser launched' && j.browserId ? [j.browserId] : [];
  } catch {
    return [];
  }
});

beforeAll(async () => {
  if (!root) return;
  dir = mkdtempSync(path.join(tmpdir(), 'ariadne-sandbox-'));
  chownSync(dir, NOBODY, NOBODY);
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, [MAIN_JS], {
    uid: NOBODY,
    gid: NOBODY,
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: dir, TMPDIR: dir, STATE_DIR: path.join(dir, 'state'),
      PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info',
      API_KEYS: `${KEY}:acme`, CHROMIUM_SANDBOX: 'auto',
      POOL_BROWSERS: '1', POOL_MAX_CONTEXTS: '2', POOL_MAX_CONTEXTS_PER_BROWSER: '2', POOL_WARM_CONTEXTS: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr!.on('data', (d: Buffer) => { out += d.toString(); });
  exited = new Promise((resolve) => child!.once('exit', resolve));
  const answer = await waitUntil(async () => {
    if (child!.exitCode !== null) return { node: null };
    const node = await healthzNode(url);
    return node === null ? null : { node };
  }, 60_000, 'the server (as nobody) to start', 150);
  // The node answering must be the one started (isNodeOf).
  if (answer.node === null || !isNodeOf(answer.node, child!.pid!)) throw new Error(`the server did not start on port ${port} (answered by ${answer.node ?? 'nobody: it exited'}):\n${out.slice(-3000)}`);
});

afterAll(async () => {
  if (!child) return;
  const ids = markers();
  if (child.exitCode === null) {
    const t0 = Date.now();
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
    shutdownMs = Date.now() - t0;
    console.log(`server as nobody stopped in ${shutdownMs} ms, exit ${child.exitCode} ${child.signalCode}`);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  }
  killPids([...browserProcesses(ids), ...redisProcessesIn(dir)]);
  rmSync(dir, { recursive: true, force: true });
});

describe('Chromium sandbox', () => {
  it.skipIf(!root)('is on when the service runs as an unprivileged user (auto)', async () => {
    const api = new Api(url, KEY);
    const pool = (await api.get('/v1/pool')).body;
    expect(pool.sandbox, out.slice(-2000)).toBe(true);
    const pid = pool.browsers[0].pid;
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).not.toContain('--no-sandbox');
    expect(out).not.toMatch(/WITHOUT its sandbox/);

    // Pages work inside the sandbox: a session, a page, a snapshot.
    const s = await api.post('/v1/sessions', {});
    expect(s.status, JSON.stringify(s.body)).toBe(201);
    const nav = await api.post(`/v1/sessions/${s.body.id}/roles/default/actions`, { action: 'navigate', url: 'data:text/html,<button>Sandboxed</button>' });
    void nav; // data: may be refused by ALLOWED_SCHEMES; the snapshot below is what counts
    const snap = await api.get(`/v1/sessions/${s.body.id}/roles/default/snapshot`);
    expect(snap.status).toBe(200);
    // Its renderers run under the sandboxed browser.
    const tree = browserProcesses([pool.browsers[0].id]);
    expect(tree.length).toBeGreaterThan(1);
    expect((await api.delete(`/v1/sessions/${s.body.id}`)).status).toBe(204);
  });
});
