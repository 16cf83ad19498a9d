import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, DiskArtifacts, liveFlowSession, parsePlan, runFlow, RulesPlanner, type RunEvent } from '@ariadne/flows';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';
import { traceEvents, zipEntries } from './helpers/zip.js';
import { expectAbout, jpegSize } from './helpers/images.js';

// The agent loop with the offline rules planner, in-process against a real session of
// the pool (real Chromium) on the fixture shop: plans that pass, a plan that must fail
// (a wrong expected text), a multi-role plan, and a step it cannot interpret.

let svc: TestService;
let fx: FixtureServer;
let dir: string;

const plan = (name: string) => readFileSync(path.join(FIXTURES_DIR, 'app/plans', name), 'utf8');

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  dir = mkdtempSync(path.join(tmpdir(), 'ariadne-flows-'));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function run(source: string, opts: { variables?: Record<string, string>; trace?: boolean; id: string; limits?: Partial<typeof DEFAULT_SETTINGS.limits>; signal?: AbortSignal }) {
  const parsed = parsePlan(source, { variables: opts.variables });
  const { sessions } = svc.service;
  const created = await sessions.create('local', { roles: parsed.roles.map((name) => ({ name })) });
  const live = await sessions.use('local', created.id);
  const events: RunEvent[] = [];
  try {
    const report = await runFlow({
      runId: opts.id,
      url: `${fx.url}/app/login.html`,
      plan: parsed,
      planner: new RulesPlanner(),
      session: liveFlowSession(live),
      settings: { ...DEFAULT_SETTINGS, trace: opts.trace ?? false, actionTimeoutMs: 5000, describeWaitMs: 500, limits: { ...DEFAULT_SETTINGS.limits, ...opts.limits } },
      signal: opts.signal,
      artifacts: new DiskArtifacts(path.join(dir, opts.id)),
      emit: (e) => events.push(e),
    });
    return { report, events };
  } finally {
    await sessions.end(created.id, 'closed', 'test');
  }
}

describe('rules planner, end to end', () => {
  it('runs the shop plan: login, repeated cards, cart, checkout with a split OTP input', async () => {
    const { report, events } = await run(plan('shop.md'), { variables: { USER: 'alice', PASSWORD: 'secret' }, trace: true, id: 'shop' });
    const failed = report.cases.flatMap((c) => c.steps.filter((s) => s.status === 'failed'));
    expect(failed, JSON.stringify(failed, null, 2)).toEqual([]);
    expect(report.status).toBe('passed');
    expect(report.totals).toMatchObject({ cases: 4, passed: 4, failed: 0 });
    const [c1, c2, c3] = report.cases;
    // Every action step has a verified locator, taken before the action.
    const click = c2.steps.find((s) => s.action === 'click')!;
    expect(click.locator?.verified).toBe(true);
    expect(click.ref).toMatch(/^(f\d+)?e\d+$/);
    // The card's button is not unique by role + name: the locator is scoped or nth.
    expect(click.locator?.code).not.toBe("page.getByRole('button', { name: 'Add to cart', exact: true })");
    const login = c1.steps.find((s) => s.action === 'click')!;
    expect(login.locator?.code).toBe("page.getByRole('button', { name: 'Log in', exact: true })");
    // Secrets: the step text keeps the variable, not its value.
    expect(c1.steps[2].asked).toBe('Type {{PASSWORD}} into "Password"');
    expect(c1.steps[2].secretParams).toEqual(['PASSWORD']);
    // The OTP was typed key by key into the first box of the group.
    const otp = c3.steps.find((s) => s.planStep === 3)!;
    expect(otp.action).toBe('type');
    expect(c3.assertions[0]).toMatchObject({ passed: true, planStep: 6 });
    expect(c3.assertions[0].expect).toContain('toBeVisible()');
    // Case 4: the click opened a confirm dialog, the next step accepted it.
    const click4 = report.cases[3].steps.find((s) => s.planStep === 4)!;
    expect(click4).toMatchObject({ action: 'click', status: 'passed' });
    expect(report.cases[3].steps.find((s) => s.planStep === 5)).toMatchObject({ action: 'handle_dialog', status: 'passed', params: { accept: true } });
    // Screenshots and one trace per case, on disk.
    const files = readdirSync(path.join(dir, 'shop'));
    // One file per step that names a screenshot; a step without one says why, and only the
    // step that ran while a dialog blocked the page is skipped for that reason.
    const steps = report.cases.flatMap((c) => c.steps);
    const shots = steps.filter((s) => s.screenshot).map((s) => s.screenshot);
    expect(files.filter((f) => f.endsWith('.jpg')).sort()).toEqual([...new Set(shots)].sort());
    // Step pictures are scaled to at most 1024 px wide (the viewport is 1600 x 900).
    expectAbout(jpegSize(readFileSync(path.join(dir, 'shop', shots[0]!))), { width: 1024, height: 576 });
    // An assertion that found the page unchanged shares the picture of the step before it
    // (tests/capture-reuse.test.ts says what counts as unchanged).
    const shared = steps.filter((s) => s.screenshotOf !== undefined);
    expect(shared.length).toBeGreaterThan(0);
    for (const s of shared) {
      expect(s.action, s.asked).toBe('assert');
      const c = report.cases.find((x) => x.steps.includes(s))!;
      expect(s.screenshot).toBe(c.steps.find((o) => o.n === s.screenshotOf)!.screenshot);
    }
    for (const s of steps) if (!s.screenshot) expect(['dialog', 'failed'], `step ${s.n} ${s.asked}`).toContain(s.screenshotSkipped);
    expect(steps.filter((s) => s.screenshotSkipped === 'dialog')).toHaveLength(1);
    expect(shots.length).toBeGreaterThanOrEqual(steps.length - 2);
    expect(c1.trace).toBe('c1-default-trace.zip');
    expect(files).toContain('c3-default-trace.zip');
    // A trace holds the case's actions with their DOM snapshots, and no screencast: its
    // frames cost a fifth of a run (bench/flows.mjs); the steps' screenshots are the pictures.
    const traceZip = path.join(dir, 'shop', 'c2-default-trace.zip');
    const recorded = traceEvents(traceZip);
    expect(recorded.filter((e) => e.type === 'before').length).toBeGreaterThan(0);
    expect(recorded.filter((e) => e.type === 'frame-snapshot').length).toBeGreaterThan(0);
    expect(recorded.filter((e) => e.type === 'screencast-frame')).toHaveLength(0);
    expect(zipEntries(traceZip).filter((e) => e.name.endsWith('.jpeg'))).toHaveLength(0);
    // Events: run, cases and steps, in order.
    expect(events[0].type).toBe('run_started');
    expect(events.at(-1)).toMatchObject({ type: 'run_finished', status: 'passed' });
    expect(events.filter((e) => e.type === 'step')).toHaveLength(report.totals.steps);
  });

  it('fails a wrong expected text, says what the page shows, and goes on with the next case', async () => {
    const { report } = await run(plan('wrong-text.md'), { id: 'wrong' });
    expect(report.status).toBe('failed');
    const [c1, c2] = report.cases;
    expect(c1.status).toBe('failed');
    const a = c1.assertions[0];
    expect(a).toMatchObject({ passed: false, planStep: 5 });
    expect(a.error?.code).toBe('assertion_failed');
    expect(a.actual).toContain('Welcome, alice');
    // The case stopped at the failed assertion: step 6 never ran.
    expect(c1.steps.some((s) => s.planStep === 6)).toBe(false);
    expect(c2.status).toBe('passed');
  });

  it('runs a multi-role plan: what the admin publishes, the customer sees', async () => {
    const message = `Sale ends ${Date.now()}`;
    const { report } = await run(plan('multi-role.md'), { variables: { PASSWORD: 'secret', MESSAGE: message }, id: 'roles' });
    expect(report.cases.map((c) => c.status), JSON.stringify(report.cases.map((c) => c.steps.filter((s) => s.error)))).toEqual(['passed', 'passed']);
    expect(report.cases[0].steps.every((s) => s.role === 'admin')).toBe(true);
    expect(report.cases[1].steps.every((s) => s.role === 'customer')).toBe(true);
  });

  it('says which step it could not interpret, and fails a Verify with no matching assertion', async () => {
    const { report } = await run('#Case 1: vague\n- Go to /app/products.html\n- Make the page feel faster\n- Verify "Products" is visible', { id: 'vague' });
    const c = report.cases[0];
    expect(c.status).toBe('failed');
    const bad = c.steps.find((s) => s.status === 'failed')!;
    expect(bad.planStep).toBe(2);
    expect(bad.error?.code).toBe('step_not_understood');
    expect(bad.error?.message).toContain('could not interpret step 2 ("Make the page feel faster")');
    expect(c.missingAssertions).toEqual([{ planStep: 3, text: 'Verify "Products" is visible' }]);
  });

  it('reports an ambiguous target with its candidates', async () => {
    const { report } = await run('#Case 1: ambiguous\n- Go to /app/products.html\n- Click "Add to cart"', { id: 'amb' });
    const bad = report.cases[0].steps.find((s) => s.status === 'failed')!;
    expect(bad.error?.code).toBe('ambiguous_target');
    expect((bad.error?.details?.candidates as unknown[]).length).toBe(4);
  });

  it('enforces the step limit and the case wall time, and stops at a cancel', async () => {
    const steps = await run('#Case 1: many\n- Go to /app/products.html\n- Wait 10 ms\n- Wait 10 ms\n- Verify "Products" is visible\n#Case 2: next\n- Verify "Products" is visible', { id: 'lim1', limits: { maxStepsPerCase: 2 } });
    expect(steps.report.cases[0]).toMatchObject({ status: 'failed', error: { code: 'limit_exceeded', details: { limit: 'steps', max: 2 } } });
    expect(steps.report.cases[0].steps).toHaveLength(2);
    expect(steps.report.cases[1].status).toBe('passed');

    const slow = await run('#Case 1: slow\n- Wait 3 seconds\n- Verify "Log in" is visible', { id: 'lim2', limits: { caseTimeoutMs: 1000 } });
    expect(slow.report.cases[0]).toMatchObject({ status: 'failed', error: { code: 'timeout' } });
    expect(slow.report.cases[0].durationMs).toBeLessThan(2500);

    const ac = new AbortController();
    setTimeout(() => ac.abort(), 800);
    const cancelled = await run('#Case 1: a\n- Wait 3 seconds\n#Case 2: b\n- Verify "Log in" is visible', { id: 'lim3', signal: ac.signal });
    expect(cancelled.report.status).toBe('cancelled');
    expect(cancelled.report.cases.map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
  });

  it('runs a one-sentence case', async () => {
    const { report } = await run('log in as alice with {{PASSWORD}}, add the Blue Mug to the cart, then confirm "Added Blue Mug to the cart" is visible', { id: 'sentence', variables: { PASSWORD: 'secret' } });
    const c = report.cases[0];
    expect(c.status, JSON.stringify(c.steps.map((s) => [s.action, s.status, s.error?.message]))).toBe('passed');
    expect(c.steps.map((s) => [s.planStep, s.action])).toEqual([[1, 'fill'], [1, 'fill'], [1, 'click'], [2, 'click'], [3, 'assert']]);
    expect(c.assertions[0]).toMatchObject({ planStep: 3, passed: true });
  });
});
