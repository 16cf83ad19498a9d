import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bullConnection, bullPrefix, QUEUES } from '@ariadne/cluster';
import { checkSchedule, schedulerIdOf } from '@ariadne/suites';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { destroyServer, spawnServer, waitUntil, type ServerProcess } from './helpers/process.js';
import { startRedis, type TestRedis } from './helpers/redis-server.js';
import { startTestService, type Api } from './helpers/service.js';

// Suite schedules (issue 13): a cron on a suite is a BullMQ job scheduler keyed by the
// suite id. Two server processes on one Redis both run workers for the schedule queue;
// each tick must start exactly one suite run (trigger type "schedule"), the schedule
// must survive both nodes going away, and deleting the suite must stop it.

describe('schedule validation (pure)', () => {
  const now = Date.parse('2026-03-02T10:00:30Z');
  const code = (f: () => void) => {
    try {
      f();
      return null;
    } catch (err) {
      return (err as { code?: string }).code ?? 'thrown';
    }
  };
  it('accepts crons at least the minimum apart, in a time zone', () => {
    expect(code(() => checkSchedule({ cron: '*/5 * * * *' }, 60, now))).toBeNull();
    expect(code(() => checkSchedule({ cron: '0 9 * * 1-5', timezone: 'Europe/Paris' }, 60, now))).toBeNull();
    expect(code(() => checkSchedule({ cron: '0 * * * * *' }, 60, now))).toBeNull();
    // The test-only lower bound lets a seconds cron through.
    expect(code(() => checkSchedule({ cron: '*/3 * * * * *' }, 1, now))).toBeNull();
  });
  it('refuses bad expressions, unknown zones and crons firing more often than the minimum', () => {
    expect(code(() => checkSchedule({ cron: 'every day at 9' }, 60, now))).toBe('invalid_schedule');
    expect(code(() => checkSchedule({ cron: '61 * * * *' }, 60, now))).toBe('invalid_schedule');
    expect(code(() => checkSchedule({ cron: '0 9 * * *', timezone: 'Mars/Olympus' }, 60, now))).toBe('invalid_schedule');
    expect(code(() => checkSchedule({ cron: '*/30 * * * * *' }, 60, now))).toBe('invalid_schedule');
    // Two ticks a few seconds apart once an hour: the shortest gap counts, not the average.
    expect(code(() => checkSchedule({ cron: '0,5 0 * * * *' }, 60, now))).toBe('invalid_schedule');
  });
});

describe('a scheduled suite on two nodes', () => {
  let fx: FixtureServer;
  let redis: TestRedis;
  const nodes: ServerProcess[] = [];
  const KEY = 'sched-key-0123456789abcdef';
  const ENV = {
    API_KEYS: `${KEY}:alice`,
    SECRETS_KEY: randomBytes(32).toString('hex'),
    // Test only: a schedule every few seconds (the default minimum is 60 s).
    SUITE_SCHEDULE_MIN_SECONDS: '1',
    LEASE_TTL_MS: '3000',
    HEARTBEAT_MS: '1000',
    RUN_ASSERT_TIMEOUT_MS: '1500',
    // The fixture server is on 127.0.0.1, denied by default once API keys are set.
    EGRESS_ALLOW: '127.0.0.1/32',
  };
  // The re-scheduled cron's period. Its ticks are told from the first cron's (every 3 s) by
  // the grid: a first-cron tick on an odd multiple of 3 s is off the 2-second grid.
  const TICK_MS = 2000;
  const spawn = (id: string) => spawnServer({ env: { ...ENV, REDIS_URL: redis.url, NODE_ID: id }, readyTimeoutMs: 150_000 }).then((n) => {
    nodes.push(n);
    return n;
  });

  beforeAll(async () => {
    [fx, redis] = await Promise.all([startFixtureServer(), startRedis()]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all(nodes.map((n) => destroyServer(n)));
    await redis?.destroy();
    await fx?.close();
  });

  const history = async (api: Api, id: string) => {
    const res = await api.get(`/v1/suites/${id}/runs?limit=100`);
    expect(res.status).toBe(200);
    return res.body.runs as any[];
  };
  /**
   * Every tick appears once: distinct ticks, each of type schedule, each after `since` on
   * the TICK_MS grid. Ticks before it may come from the suite's first cron (every 3 s): a
   * loaded machine can take longer than one of those ticks to send the re-schedule.
   */
  const checkOnce = (runs: any[], since: number) => {
    for (const r of runs) expect(r.trigger.type).toBe('schedule');
    const ticks = runs.map((r) => Date.parse(r.trigger.scheduledFor));
    expect(new Set(ticks).size).toBe(ticks.length);
    for (const t of ticks) {
      if (t > since) expect(t % TICK_MS, new Date(t).toISOString()).toBe(0);
      else expect(t % TICK_MS === 0 || t % 3000 === 0, new Date(t).toISOString()).toBe(true);
    }
    return ticks;
  };
  const runsOfSuite = async (api: Api, id: string) => ((await api.get('/v1/runs?limit=100')).body.runs as any[]).filter((r) => r.suite?.id === id);

  it('fires once per tick across the cluster, survives a restart of every node, and stops when deleted', async () => {
    const [a, b] = await Promise.all([spawn('node-a'), spawn('node-b')]);
    const bad = await a.api.post('/v1/suites', { name: 'm', baseUrl: `${fx.url}/`, plans: [{ name: 'p', plan: '#Case 1: x\n- Verify "Vault" is visible' }], schedule: { cron: '*/5 * * *' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_schedule');

    // Created through node A with one cron, re-scheduled through node B: one scheduler.
    const created = await a.api.post('/v1/suites', {
      name: 'monitor',
      baseUrl: `${fx.url}/suites/`,
      plans: [{ name: 'vault', plan: '#Case 1: The vault is up\n- Verify "Vault" is visible', path: 'vault.html' }],
      options: { trace: false, screenshots: false },
      schedule: { cron: '*/3 * * * * *' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const patched = await b.api.request('PATCH', `/v1/suites/${id}`, { schedule: { cron: `*/${TICK_MS / 1000} * * * * *`, timezone: 'UTC' } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.schedule).toMatchObject({ cron: '*/2 * * * * *', timezone: 'UTC', next: expect.any(String) });
    const patchedAt = Date.now();

    const first = await waitUntil(async () => {
      const h = await history(a.api, id);
      return h.filter((r) => Date.parse(r.trigger.scheduledFor) > patchedAt).length >= 4 && h;
    }, 90_000, 'four scheduled suite runs', 500).catch((err) => {
      throw new Error(`${err.message}\n${[a, b].map((n) => n.output().split('\n').filter((l) => /schedul|warn|error/i.test(l)).slice(-10).join('\n')).join('\n')}`);
    });
    const ticks = checkOnce(first, patchedAt);
    // BullMQ itself handed each tick to one worker: the Redis claim behind it never refused one.
    for (const n of [a, b]) expect(n.output()).not.toContain('schedule tick already started');
    const started = [a, b].map((n) => n.output().split('scheduled suite run started').length - 1);
    expect(started[0] + started[1]).toBeGreaterThanOrEqual(first.length);
    // After the re-schedule, one suite run per 2-second tick: none doubled by the second node.
    const after = ticks.filter((t) => t > patchedAt).sort((x, y) => x - y);
    const span = (after[after.length - 1] - after[0]) / TICK_MS + 1;
    expect(after.length).toBe(span);
    // Each suite run is an ordinary run recorded with its trigger.
    const runs = await runsOfSuite(b.api, id);
    expect(runs.length).toBeGreaterThanOrEqual(first.length);
    for (const r of runs) expect(r.suite.trigger).toMatchObject({ type: 'schedule', scheduledFor: expect.any(String) });
    const one = await waitUntil(async () => {
      const r = (await a.api.get(`/v1/runs/${runs[runs.length - 1].id}`)).body;
      return !['queued', 'running'].includes(r.status) && r;
    }, 60_000, 'a scheduled run to finish', 500);
    expect(one.status).toBe('passed');

    // Every node goes away; the schedule lives in Redis and a new node picks it up.
    await Promise.all([destroyServer(a), destroyServer(b)]);
    const c = await spawn('node-c');
    const stoppedAt = Date.now();
    const resumed = await waitUntil(async () => {
      const h = await history(c.api, id);
      return h.filter((r) => Date.parse(r.trigger.scheduledFor) > stoppedAt).length >= 2 && h;
    }, 90_000, 'scheduled runs after the restart', 500);
    checkOnce(resumed, patchedAt);

    // Deleting the suite removes its scheduler: no more runs start.
    const runsBefore = (await runsOfSuite(c.api, id)).length;
    expect((await c.api.delete(`/v1/suites/${id}`)).status).toBe(204);
    const q = new Queue(QUEUES.schedules, { connection: bullConnection(redis.url), prefix: bullPrefix('ariadne:') });
    try {
      expect(await q.getJobScheduler(schedulerIdOf(id))).toBeUndefined();
    } finally {
      await q.close();
    }
    // A tick already queued when the suite went may still start one run (at most).
    await new Promise((r) => setTimeout(r, TICK_MS * 3));
    const runsAfter = (await runsOfSuite(c.api, id)).length;
    expect(runsAfter - runsBefore).toBeLessThanOrEqual(1);
    await new Promise((r) => setTimeout(r, TICK_MS * 2));
    expect((await runsOfSuite(c.api, id)).length).toBe(runsAfter);
  }, 360_000);
});

describe('a scheduled suite and the tenant quota', () => {
  it('skips ticks while the tenant is at max_runs, and runs again once it is not', async () => {
    const KEY = 'quota-key-0123456789abcdef';
    const [svc, fx] = await Promise.all([
      startTestService({ API_KEYS: `${KEY}:q:max_runs=1`, SUITE_SCHEDULE_MIN_SECONDS: '1', RUN_ASSERT_TIMEOUT_MS: '7000' }, { captureLogs: true }),
      startFixtureServer(),
    ]);
    try {
      const api = svc.api.withToken(KEY);
      // Each run waits 7 s for a text that never shows: ticks every 2 s find the quota taken.
      const created = await api.post('/v1/suites', {
        name: 'slow',
        baseUrl: `${fx.url}/suites/`,
        plans: [{ name: 'wait', plan: '#Case 1: Wait\n- Verify "Never shown" is visible', path: 'vault.html' }],
        options: { trace: false, screenshots: false },
        schedule: { cron: '*/2 * * * * *' },
      });
      expect(created.status).toBe(201);
      const id = created.body.id;
      const history = async () => (await api.get(`/v1/suites/${id}/runs?limit=100`)).body.runs as any[];
      const first = await waitUntil(async () => (await history())[0], 60_000, 'the first scheduled run', 250);
      const firstRun = first.runs[0].runId;
      await waitUntil(() => svc.logs.some((l) => l.includes('scheduled suite run not started') && l.includes('quota_exceeded')), 30_000, 'a tick refused by the quota', 250);
      // While the first run is active, no other suite run was started.
      const during = await history();
      const active = (await api.get(`/v1/runs/${firstRun}`)).body.status;
      if (['queued', 'running'].includes(active)) expect(during).toHaveLength(1);
      // Once it has finished, ticks start runs again.
      await waitUntil(async () => (await history()).some((r) => r.runs[0].runId !== firstRun), 60_000, 'a run after the quota freed', 500);
      expect((await api.delete(`/v1/suites/${id}`)).status).toBe(204);
    } finally {
      await svc.stop();
      await fx.close();
    }
  }, 180_000);
});
