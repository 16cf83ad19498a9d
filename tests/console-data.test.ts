import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { RunStore, type RunRecord } from '@ariadne/flows';
import { SuiteStore } from '@ariadne/suites';
import { ConsoleData } from '../apps/server/src/console/data.js';

// What the console's lists read (apps/server/src/console/data.ts), against a real Redis:
// the runs list pages newest first and filters by status, suite, environment and text
// (its raw-JSON shortcut must give what parsing every record gives, quotes and case
// included), never shows another tenant's run; a suite's strip and rates come from its
// history, and a finished suite run's status is remembered.

const prefix = `test-console-${randomUUID()}:`;
let redis: Redis;
let data: ConsoleData;
let runs: RunStore;
let suites: SuiteStore;
const all: RunRecord[] = [];
let suiteA: string;

function rec(i: number, tenant: string, suiteId: string | null): RunRecord {
  const createdAt = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
  const status = i % 5 === 0 ? 'failed' : 'passed';
  const asked = i % 7 === 0 ? 'Click the "Pay \\\\ now" button' : `Open item ${i}`;
  return {
    id: randomUUID(), tenant, status, createdAt, updatedAt: createdAt, attempts: 1,
    request: { url: 'https://x.example/', plan: '', planner: 'rules', ...(suiteId ? { suite: { id: suiteId, plan: 'main', trigger: { type: 'github', environment: i % 2 ? 'staging' : 'prod' } } } : {}) },
    report: { runId: '', url: '', planner: 'rules', status, startedAt: createdAt, durationMs: 1, usage: { turns: 0, inputTokens: 0, outputTokens: 0 }, totals: { cases: 1, passed: status === 'passed' ? 1 : 0, flaky: 0, failed: status === 'failed' ? 1 : 0, skipped: 0, cancelled: 0, steps: 1, assertions: 0, failedAssertions: 0 },
      cases: [{ index: 1, name: `Case ${i % 3 === 0 ? 'Checkout' : 'Browse'}`, status: status as 'passed' | 'failed', completed: true, summary: '', assertions: [], missingAssertions: [], startedAt: createdAt, durationMs: 1, usage: { turns: 0, inputTokens: 0, outputTokens: 0 }, steps: [{ n: 1, asked, action: 'click', status: 'passed', startedAt: createdAt, durationMs: 1, role: 'default' } as never] }] },
  } as RunRecord;
}

beforeAll(async () => {
  redis = new Redis('redis://127.0.0.1:6379', { lazyConnect: false });
  runs = new RunStore(redis, prefix, 3600);
  suites = new SuiteStore(redis, prefix, null);
  data = new ConsoleData(redis, prefix, suites, runs);
  suiteA = (await suites.create('alice', { name: 'A', baseUrl: 'https://x.example/', plans: [{ name: 'main', plan: '#Case 1: x\n- Click "A"' }] })).id;
  for (let i = 0; i < 80; i++) {
    const r = rec(i, 'alice', i % 2 ? suiteA : null);
    all.push(r);
    await runs.create(r);
  }
  // Another tenant's runs share nothing with alice's list.
  for (let i = 0; i < 5; i++) await runs.create(rec(i, 'bob', suiteA));
});

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys);
  redis.disconnect();
});

const newestFirst = () => [...all].sort((a, b) => b.createdAt.localeCompare(a.createdAt));

describe('console runs list', () => {
  it('pages newest first with hasNext, unfiltered', async () => {
    const want = newestFirst().map((r) => r.id);
    const got: string[] = [];
    for (let p = 1; ; p++) {
      const page = await data.runList('alice', {}, p, 25);
      got.push(...page.rows.map((r) => r.id));
      if (!page.hasNext) break;
      expect(page.rows).toHaveLength(25);
    }
    expect(got).toEqual(want);
  });

  it('filters like a plain scan would, for every filter and page', async () => {
    const filters = [
      { status: 'failed' as const },
      { suite: suiteA },
      { environment: 'staging' },
      { text: 'checkout' },
      { text: 'CLICK THE "PAY \\\\ NOW"' },
      { text: 'pay \\\\ now', status: 'passed' as const, suite: suiteA },
      { text: 'nothing like this' },
    ];
    for (const f of filters) {
      const t = f.text?.toLowerCase();
      const want = newestFirst().filter((r) => (!f.status || r.status === f.status) && (!f.suite || r.request.suite?.id === f.suite)
        && (!f.environment || r.request.suite?.trigger?.environment === f.environment)
        && (!t || r.report!.cases.some((c) => c.name.toLowerCase().includes(t) || c.steps.some((s) => s.asked.toLowerCase().includes(t))))).map((r) => r.id);
      const got: string[] = [];
      for (let p = 1; p < 10; p++) {
        const page = await data.runList('alice', f, p, 10);
        got.push(...page.rows.map((r) => r.id));
        if (!page.hasNext) break;
      }
      expect(got, JSON.stringify(f)).toEqual(want);
      if (f.text === 'nothing like this') expect(want).toEqual([]);
      else expect(want.length, JSON.stringify(f)).toBeGreaterThan(0);
    }
  });

  it('computes a suite\'s strip and rates from its history and remembers finished statuses', async () => {
    const s = await suites.get('alice', suiteA);
    const now = Date.now();
    const mk = async (minutesAgo: number, status: 'passed' | 'failed' | 'running', flaky = false) => {
      const r = rec(1, 'alice', suiteA);
      r.status = status;
      if (flaky) r.report!.totals.flaky = 1;
      r.createdAt = new Date(now - minutesAgo * 60_000).toISOString();
      await runs.create(r);
      await suites.recordRun(suiteA, { id: randomUUID(), createdAt: r.createdAt, baseUrl: '', trigger: { type: 'manual' }, runs: [{ plan: 'main', runId: r.id }], suiteId: suiteA });
      return r;
    };
    await mk(20 * 86_400 / 60, 'failed');
    await mk(3 * 86_400 / 60, 'passed', true);
    await mk(2 * 86_400 / 60, 'passed');
    const running = await mk(1, 'running');
    const sum = await data.summary(s, 100, now);
    expect(sum.strip.map((h) => h.status)).toEqual(['running', 'passed', 'flaky', 'failed']);
    expect(sum.passRate7).toBe(1);
    expect(sum.flakyRate7).toBe(0.5);
    expect(sum.passRate30).toBeCloseTo(2 / 3);
    expect(sum.flakyRate30).toBeCloseTo(1 / 3);
    // Finished ones are remembered; the running one is read again next time.
    await runs.update(running.id, (r) => { r.status = 'passed'; });
    const again = await data.summary(s, 100, now);
    expect(again.strip[0].status).toBe('passed');
    expect(await redis.keys(`${prefix}console:suiterun-status:*`)).toHaveLength(4);
  });
});
