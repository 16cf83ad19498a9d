import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type Api, type TestService } from './helpers/service.js';
import {
  browserProcesses, destroyServer, isAlive, playwrightTempDirs, redisProcessesIn, spawnServer, waitUntil, type ServerProcess,
} from './helpers/process.js';

// What happens when things die: a Chromium process killed under live sessions, and the
// whole service stopped by SIGTERM, SIGINT or SIGKILL (the real entry point, as a child
// process), then restarted on the same state dir. Processes are matched by their
// --ariadne-browser marker or state dir, never by name, since other Chromiums run here.

let fx: FixtureServer;
const spawned: ServerProcess[] = [];

beforeAll(async () => {
  fx = await startFixtureServer();
});
afterAll(async () => {
  for (const proc of spawned) await destroyServer(proc);
  await fx?.close();
});

async function spawn(opts: Parameters<typeof spawnServer>[0] = {}): Promise<ServerProcess> {
  const proc = await spawnServer(opts);
  spawned.push(proc);
  return proc;
}

async function use(api: Api, id: string, role = 'default') {
  const nav = await api.action(id, { action: 'navigate', url: `${fx.url}/env.html` }, role);
  expect(nav.status, JSON.stringify(nav.body)).toBe(200);
  const snap = await api.snapshot(id, '', role);
  expect(snap.status).toBe(200);
  expect(snap.body.snapshot).toContain('heading "Environment"');
}

function exitWithin(proc: ServerProcess, ms: number) {
  return Promise.race([
    proc.exited,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`server did not exit within ${ms} ms:\n${proc.output().slice(-2000)}`)), ms)),
  ]);
}

function userDataDir(pid: number): string | null {
  const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  return cmd.find((a) => a.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length) ?? null;
}

describe('a killed browser', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ POOL_BROWSERS: '2', POOL_MAX_CONTEXTS_PER_BROWSER: '6', POOL_MAX_CONTEXTS: '12', POOL_WARM_CONTEXTS: '1' });
  });
  afterAll(async () => {
    await svc?.stop();
  });

  it('crashes only its own sessions, is replaced, and leaves nothing behind', async () => {
    const api = svc.api;
    const pool0 = (await api.get('/v1/pool')).body;
    expect(pool0.browsers).toHaveLength(2);
    expect(pool0.restarts).toBe(0);

    // Fresh contexts (a userAgent) go to the least-loaded browser: one session on each.
    const onBrowser = new Map<string, string>();
    for (let i = 0; i < 4 && onBrowser.size < 2; i++) {
      const res = await api.post('/v1/sessions', { roles: [{ name: 'default', userAgent: `AriadneTest/crash-${i}` }] });
      expect(res.status).toBe(201);
      const browserId = res.body.roles[0].browserId;
      expect(pool0.browsers.map((b: any) => b.id)).toContain(browserId);
      if (!onBrowser.has(browserId)) onBrowser.set(browserId, res.body.id);
    }
    expect(onBrowser.size).toBe(2);
    const [[victimId, doomed], [survivorId, survivor]] = [...onBrowser.entries()];
    await use(api, doomed);
    await use(api, survivor);

    const victim = pool0.browsers.find((b: any) => b.id === victimId);
    expect(victim.pid).toBeGreaterThan(0);
    const victimProcs = browserProcesses([victimId]);
    expect(victimProcs).toContain(victim.pid);
    expect(victimProcs.length).toBeGreaterThan(1); // zygotes, renderers, utilities
    const profileDir = userDataDir(victim.pid);
    expect(profileDir).toMatch(/playwright_chromiumdev_profile-/);

    process.kill(victim.pid, 'SIGKILL');

    const crashed = await waitUntil(async () => {
      const res = await api.snapshot(doomed);
      return res.status === 410 ? res : null;
    }, 10_000, 'the doomed session to answer 410');
    expect(crashed.body.error.code).toBe('session_crashed');
    const info = await api.get(`/v1/sessions/${doomed}`);
    expect(info.status).toBe(410);
    expect(info.body.error).toMatchObject({ code: 'session_crashed', details: { status: 'crashed', reason: 'browser_crashed' } });
    expect((await api.get('/v1/sessions')).body.sessions.map((s: any) => s.id)).not.toContain(doomed);

    // The other browser's session never noticed.
    await use(api, survivor);
    expect((await api.get(`/v1/sessions/${survivor}`)).body.roles[0].browserId).toBe(survivorId);

    // The pool replaces the dead browser: a new id and pid, both connected.
    const pool1 = await waitUntil(async () => {
      const p = (await api.get('/v1/pool')).body;
      return p.restarts === 1 && p.browsers.length === 2 && p.browsers.every((b: any) => b.connected) ? p : null;
    }, 15_000, 'the replacement browser');
    const replacement = pool1.browsers.find((b: any) => b.id !== survivorId);
    expect(replacement.id).not.toBe(victimId);
    expect(replacement.pid).not.toBe(victim.pid);
    expect(isAlive(replacement.pid)).toBe(true);

    // Every process of the dead browser is gone, and Playwright removed its profile dir.
    await waitUntil(() => victimProcs.every((pid) => !isAlive(pid)), 10_000, 'the dead browser\'s processes to exit');
    await waitUntil(() => !playwrightTempDirs(profileDir!.replace(/\/[^/]+$/, '')).includes(profileDir!.split('/').pop()!), 10_000, 'its profile dir to be removed');

    // New sessions work, on the replacement too.
    const fresh: string[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < 4 && !seen.has(replacement.id); i++) {
      const res = await api.post('/v1/sessions', { roles: [{ name: 'default', userAgent: `AriadneTest/after-${i}` }] });
      expect(res.status).toBe(201);
      fresh.push(res.body.id);
      seen.add(res.body.roles[0].browserId);
    }
    expect(seen.has(replacement.id)).toBe(true);
    for (const id of fresh) await use(api, id);

    // Only live sessions hold contexts.
    const live = (await api.get('/v1/sessions')).body.sessions.length;
    expect((await api.get('/v1/pool')).body.leased).toBe(live);
    expect((await api.get('/healthz')).status).toBe(200);
  });
});

// One state dir, four runs: each run checks how the previous one ended (starting a
// server is the expensive part on this machine, so the runs are chained).
describe('a long-lived server', () => {
  it('a traced flow run leaves no playwright-tracing temp dir behind', async () => {
    const proc = await spawn();
    const plan = '#Case 1: Log in page\n- Verify "Username" is visible\n\n#Case 2: Environment page\n- Go to /env.html\n- Verify "Environment" is visible\n';
    const res = await proc.api.post('/v1/runs', { url: `${fx.url}/app/login.html`, plan });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const run = await waitUntil(async () => {
      const r = await proc.api.get(`/v1/runs/${res.body.id}`);
      return ['queued', 'running'].includes(r.body.status) ? null : r.body;
    }, 90_000, 'the run to finish', 250);
    expect(run.status).toBe('passed');
    expect(run.report.cases.every((c: { trace?: string }) => c.trace)).toBe(true);
    // Every case was traced, and the server (still running) keeps no tracing dir for any.
    expect(readdirSync(proc.tmpDir).filter((n) => n.startsWith('playwright-tracing-'))).toEqual([]);
  });
});

describe('stopping the service', () => {
  let stateDir = '';
  let closedByTerm: string[] = [];
  let closedByInt: string[] = [];

  it('SIGTERM: exits 0, ends its sessions, leaves no Chromium, Redis or temp dir', async () => {
    const proc = await spawn({ env: { POOL_BROWSERS: '2', POOL_WARM_CONTEXTS: '2' } });
    stateDir = proc.stateDir;
    const a = await proc.api.createSession({ roles: [{ name: 'admin' }, { name: 'customer', userAgent: 'AriadneTest/term' }] });
    const b = await proc.api.createSession();
    closedByTerm = [a, b];
    await use(proc.api, a, 'admin');
    await use(proc.api, b);

    expect(proc.browserMarkers()).toHaveLength(2);
    const chromium = proc.chromiumPids();
    expect(chromium.length).toBeGreaterThan(2);
    const redis = proc.redisPid()!;
    expect(isAlive(redis)).toBe(true);
    expect(proc.playwrightTemp().length).toBeGreaterThan(0);

    // An action still running when the signal comes is allowed to finish.
    const inFlight = proc.api.action(b, { action: 'wait_for', time: 2000 });
    await new Promise((r) => setTimeout(r, 300));
    proc.child.kill('SIGTERM');
    const finished = await inFlight;
    expect(finished.status, JSON.stringify(finished.body)).toBe(200);
    expect(await exitWithin(proc, 20_000)).toEqual({ code: 0, signal: null });
    expect(proc.output()).toContain('Ariadne stopped');
    expect(chromium.filter(isAlive)).toEqual([]);
    expect(proc.chromiumPids()).toEqual([]);
    expect(isAlive(redis)).toBe(false);
    expect(redisProcessesIn(proc.stateDir)).toEqual([]);
    expect(proc.playwrightTemp()).toEqual([]);
  });

  it('SIGINT: exits 0 and leaves nothing behind; on restart the sessions it closed answer 410', async () => {
    expect(stateDir).not.toBe('');
    const proc = await spawn({ stateDir });
    // The embedded Redis (AOF) of the same state dir still has the first run's records.
    for (const id of closedByTerm) {
      const res = await proc.api.get(`/v1/sessions/${id}`);
      expect(res.status, JSON.stringify(res.body)).toBe(410);
      expect(res.body.error).toMatchObject({ code: 'session_closed', details: { status: 'closed', reason: 'server_shutdown' } });
    }
    expect((await proc.api.snapshot(closedByTerm[0], '', 'admin')).status).toBe(410);
    expect((await proc.api.get('/v1/sessions')).body.total).toBe(0);
    expect((await proc.api.get('/v1/sessions/00000000-0000-4000-8000-000000000000')).status).toBe(404);

    const id = await proc.api.createSession({ roles: [{ name: 'a' }, { name: 'b' }] });
    closedByInt = [id];
    await use(proc.api, id, 'a');
    const chromium = proc.chromiumPids();
    expect(chromium.length).toBeGreaterThan(1);
    const redis = proc.redisPid()!;

    proc.child.kill('SIGINT');
    expect(await exitWithin(proc, 20_000)).toEqual({ code: 0, signal: null });
    expect(chromium.filter(isAlive)).toEqual([]);
    expect(proc.chromiumPids()).toEqual([]);
    expect(isAlive(redis)).toBe(false);
    expect(redisProcessesIn(proc.stateDir)).toEqual([]);
    expect(proc.playwrightTemp()).toEqual([]);
  });

  it('SIGKILL: Chromium exits by itself; a restart takes over the orphaned Redis and answers 410 session_lost', async () => {
    expect(stateDir).not.toBe('');
    const proc = await spawn({ stateDir });
    expect((await proc.api.get(`/v1/sessions/${closedByInt[0]}`)).body.error.code).toBe('session_closed');
    const id = await proc.api.createSession({ roles: [{ name: 'admin' }, { name: 'customer' }] });
    await use(proc.api, id, 'admin');
    const chromium = proc.chromiumPids();
    expect(chromium.length).toBeGreaterThan(1);
    const redis = proc.redisPid()!;

    proc.child.kill('SIGKILL');
    expect(await exitWithin(proc, 5000)).toEqual({ code: null, signal: 'SIGKILL' });
    // Playwright talks to Chromium over a pipe; when the server dies the pipe closes and
    // Chromium shuts itself down. Nothing can stop the redis-server child, though.
    await waitUntil(() => chromium.every((pid) => !isAlive(pid)), 10_000, 'Chromium to exit after its server was killed');
    expect(proc.chromiumPids()).toEqual([]);
    expect(isAlive(redis)).toBe(true);
    expect(redisProcessesIn(stateDir)).toEqual([redis]);
    // No cleanup code runs on SIGKILL: Playwright's temp dirs stay in the server's own temp
    // dir (STATE_DIR/tmp/<pid>), which the next server on this state dir removes.
    const leftovers = proc.playwrightTemp();
    expect(leftovers.length).toBeGreaterThan(0);
    expect(existsSync(proc.ownTmpDir)).toBe(true);

    // Restart without cleaning up: the new server stops the orphan (which flushes its
    // AOF) rather than run a second Redis on the same files.
    const again = await spawn({ stateDir });
    expect(isAlive(redis)).toBe(false);
    expect(again.output()).toContain('stopping an orphaned redis-server');
    expect(existsSync(proc.ownTmpDir)).toBe(false);
    expect(again.output()).toContain('removed the temp dirs of servers that did not stop cleanly');
    expect(redisProcessesIn(stateDir)).toEqual([again.redisPid()]);
    const res = await again.api.get(`/v1/sessions/${id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(410);
    expect(res.body.error).toMatchObject({ code: 'session_lost', details: { status: 'lost', reason: 'node_restarted' } });
    const op = await again.api.snapshot(id, '', 'admin');
    expect(op.status).toBe(410);
    expect(op.body.error.code).toBe('session_lost');
    // Older records survived the orphan's shutdown too.
    expect((await again.api.get(`/v1/sessions/${closedByTerm[1]}`)).body.error.code).toBe('session_closed');
    expect((await again.api.get('/v1/sessions')).body.total).toBe(0);
    await use(again.api, await again.api.createSession());

    // A live service's Redis is not an orphan: a second service on its state dir is refused.
    await expect(spawnServer({ stateDir, readyTimeoutMs: 20_000 })).rejects.toThrow(/in use by the redis-server/);
    expect(redisProcessesIn(stateDir)).toEqual([again.redisPid()]);
    expect((await again.api.get('/readyz')).status).toBe(200);

    again.child.kill('SIGTERM');
    expect(await exitWithin(again, 20_000)).toEqual({ code: 0, signal: null });
    expect(again.chromiumPids()).toEqual([]);
    expect(redisProcessesIn(stateDir)).toEqual([]);
    expect(again.playwrightTemp()).toEqual([]);
    expect(existsSync(again.ownTmpDir)).toBe(false);
    console.info(`after SIGKILL: Chromium exited by itself; Playwright temp dirs left in its TMPDIR: ${leftovers.join(', ') || 'none'}`);
  }, 120_000);
});
