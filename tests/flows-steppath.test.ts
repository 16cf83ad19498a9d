import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, DiskArtifacts, liveFlowSession, parsePlan, roleNameRepeated, runFlow, RulesPlanner, type RunEvent } from '@ariadne/flows';
import { captureJpeg, indexRefs, prepareStepLocator, quietly, type PageState } from '@ariadne/page';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';
import { traceEvents } from './helpers/zip.js';

// Flow steps off the critical path (issue 12 §4): a step's locator is gathered before the
// action and its Playwright proof read after it (proven against the page as it was, even
// when the action removes the element); a step's screenshot is captured in the background
// and on disk before its event goes out and before the case ends.

let svc: TestService;
let fx: FixtureServer;
let dir: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  dir = mkdtempSync(path.join(tmpdir(), 'ariadne-steppath-'));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A fresh session's page, opened on a fixture, with a full snapshot taken. */
async function onPage<T>(page: string, fn: (state: PageState) => Promise<T>): Promise<T> {
  const { sessions } = svc.service;
  const created = await sessions.create('local', { roles: [{ name: 'default' }] });
  const live = await sessions.use('local', created.id);
  try {
    return await live.role('default').run(undefined, async (state) => {
      await state.page.goto(`${fx.url}/${page}`);
      await state.snapshot(5000);
      return fn(state);
    });
  } finally {
    await sessions.end(created.id, 'closed', 'test');
  }
}

const refsOf = (state: PageState, role: string, name: string) =>
  [...indexRefs(state.lastSnapshot!.tree).values()].filter((n) => n.role === role && n.name === name).map((n) => n.ref!);

describe('step locators: gathered before the action, proven after it', () => {
  it('a button that removes its own row: the container locator is proven though the element is gone when it is read', async () => {
    const got = await onPage('step-path.html', async (state) => {
      const [, second] = refsOf(state, 'button', 'Remove');
      const proof = await prepareStepLocator(state, second);
      // Role + name is not unique (three Remove buttons): nothing is ready before the action.
      expect(proof.ready).toBeNull();
      await state.page.locator(`aria-ref=${second}`).click();
      const after = await state.page.getByRole('heading', { name: 'Desk Lamp Pro', exact: true }).count();
      return { locator: await proof.settle(), after, status: await state.page.locator('#status').textContent() };
    });
    expect(got.after).toBe(0);
    expect(got.status).toBe('2 items');
    // The exact heading anchor ("Desk Lamp Pro", not a substring that also matches "Desk Lamp").
    expect(got.locator).toEqual({
      code: "page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Desk Lamp Pro', exact: true }) }).getByRole('button', { name: 'Remove', exact: true })",
      strategy: 'container',
      source: 'synthesized',
    });
  });

  it('a unique role + name is proven in the same round trip and ready before the action', async () => {
    const got = await onPage('app/login.html', async (state) => {
      const [ref] = refsOf(state, 'button', 'Log in');
      const proof = await prepareStepLocator(state, ref);
      return { ready: proof.ready, settled: await proof.settle() };
    });
    expect(got.ready).toEqual({ code: "page.getByRole('button', { name: 'Log in', exact: true })", strategy: 'role', source: 'role-name' });
    expect(got.settled).toEqual(got.ready);
  });

  it('role + name the snapshot shows repeated: the bridge is asked in the first round trip, and the locator is the same', async () => {
    const got = await onPage('step-path.html', async (state) => {
      const [, second] = refsOf(state, 'button', 'Remove');
      const [notes] = refsOf(state, 'textbox', 'Notes');
      const tree = state.lastSnapshot!.tree;
      const guess = { remove: roleNameRepeated(tree, second), notes: roleNameRepeated(tree, notes), missing: roleNameRepeated(tree, 'e9999') };
      const lazy = await (await prepareStepLocator(state, second)).settle();
      const eager = await prepareStepLocator(state, second, { roleNameRepeated: true });
      // A wrong guess costs a round trip's worth of bridge work, never the locator.
      const wrong = await prepareStepLocator(state, notes, { roleNameRepeated: true });
      return { guess, lazy, eager: { ready: eager.ready, settled: await eager.settle() }, wrong: { ready: wrong.ready, settled: await wrong.settle() } };
    });
    expect(got.guess).toEqual({ remove: true, notes: false, missing: false });
    expect(got.eager.ready).toBeNull();
    expect(got.eager.settled).toEqual(got.lazy);
    expect(got.lazy?.strategy).toBe('container');
    expect(got.wrong.settled).toEqual({ code: "page.getByRole('textbox', { name: 'Notes', exact: true })", strategy: 'role', source: 'role-name' });
  });

  it('a ref that does not resolve answers ref_not_found at once', async () => {
    const err = await onPage('step-path.html', async (state) => {
      const e = await prepareStepLocator(state, 'e9999').then(() => null, (x) => x);
      return { code: e?.code };
    });
    expect(err.code).toBe('ref_not_found');
  });
});

describe("a step's stated effect", () => {
  it('typing into an editable element that is not a field reads its text back (and fails when the text did not land)', async () => {
    const { sessions } = svc.service;
    const run = async (field: string) => {
      const created = await sessions.create('local', { roles: [{ name: 'default' }] });
      const live = await sessions.use('local', created.id);
      try {
        return await runFlow({
          runId: `steppath-editable-${field}`,
          url: `${fx.url}/step-path.html`,
          plan: parsePlan(['#Case 1: notes', `- Type "Buy more lamps" into "${field}"`].join('\n')),
          planner: new RulesPlanner(),
          session: liveFlowSession(live),
          settings: { ...DEFAULT_SETTINGS, trace: false, screenshots: false, actionTimeoutMs: 5000, describeWaitMs: 500 },
        });
      } finally {
        await sessions.end(created.id, 'closed', 'test');
      }
    };
    const ok = await run('Notes');
    expect(ok.status, JSON.stringify(ok.cases[0].steps.filter((s) => s.error))).toBe('passed');
    expect(ok.cases[0].steps[0]).toMatchObject({ action: 'fill', status: 'passed' });
    const cut = await run('Short note');
    expect(cut.status).toBe('failed');
    expect(cut.cases[0].steps[0].error).toMatchObject({ code: 'effect_not_observed', details: { expected: 'Buy more lamps', observed: 'Buy more' } });
  });
});

describe('step screenshots: captured in the background, on disk before the step is reported', () => {
  it('captureJpeg answers a JPEG of the viewport', async () => {
    const jpeg = await onPage('step-path.html', (state) => captureJpeg(state.page, { quality: 40 }));
    expect(jpeg.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(jpeg.length).toBeGreaterThan(1000);
  });

  it('every step event comes after its screenshot file exists, in step order, before case_finished', async () => {
    const parsed = parsePlan([
      '#Case 1: remove two rows',
      '- Click "Remove" in the "Desk Lamp Pro" item',
      '- Click "Remove" in the "Floor Lamp" item',
      '- Verify "1 items" is visible',
    ].join('\n'));
    const { sessions } = svc.service;
    const created = await sessions.create('local', { roles: [{ name: 'default' }] });
    const live = await sessions.use('local', created.id);
    const runDir = path.join(dir, 'events');
    const seen: { type: string; n?: number; fileThere?: boolean }[] = [];
    try {
      const report = await runFlow({
        runId: 'steppath',
        url: `${fx.url}/step-path.html`,
        plan: parsed,
        planner: new RulesPlanner(),
        session: liveFlowSession(live),
        settings: { ...DEFAULT_SETTINGS, trace: false, actionTimeoutMs: 5000, describeWaitMs: 500 },
        artifacts: new DiskArtifacts(runDir),
        emit: (e: RunEvent) => {
          if (e.type === 'step') seen.push({ type: 'step', n: e.step.n, fileThere: e.step.screenshot ? existsSync(path.join(runDir, e.step.screenshot)) : undefined });
          else seen.push({ type: e.type });
        },
      });
      expect(report.status, JSON.stringify(report.cases[0].steps.filter((s) => s.error))).toBe('passed');
      const steps = report.cases[0].steps;
      // Each step has its picture: its own, or (an assertion on an unchanged page) its step's.
      expect(steps.map((s) => s.screenshot)).toEqual(steps.map((s) => `c1-s${s.screenshotOf ?? s.n}.jpg`));
      const stepEvents = seen.filter((e) => e.type === 'step');
      expect(stepEvents.map((e) => e.n)).toEqual(steps.map((s) => s.n));
      expect(stepEvents.every((e) => e.fileThere === true)).toBe(true);
      expect(seen.findIndex((e) => e.type === 'case_finished')).toBeGreaterThan(seen.findLastIndex((e) => e.type === 'step'));
      // The removed rows' buttons carry proven container locators (read after they were gone).
      const clicks = steps.filter((s) => s.action === 'click');
      expect(clicks.map((s) => s.locator?.code)).toEqual([
        "page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Desk Lamp Pro', exact: true }) }).getByRole('button', { name: 'Remove', exact: true })",
        "page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Floor Lamp', exact: true }) }).getByRole('button', { name: 'Remove', exact: true })",
      ]);
      expect(clicks.every((s) => s.locator?.verified === true)).toBe(true);
    } finally {
      await sessions.end(created.id, 'closed', 'test');
    }
  });
});

describe('quietly(): Ariadne\'s probing stays out of a trace', () => {
  it('an evaluate run quietly is not in the trace (nor its DOM snapshots); the same call outside is', async () => {
    const zip = path.join(dir, 'quiet-trace.zip');
    await onPage('step-path.html', async (state) => {
      const tracing = state.page.context().tracing;
      await tracing.start({ snapshots: true });
      try {
        expect(await quietly(state.page, () => state.page.locator('#status').evaluate((el) => `quiet:${el.id}`))).toBe('quiet:status');
        expect(await state.page.locator('#items').evaluate((el) => `loud:${el.id}`)).toBe('loud:items');
      } finally {
        await tracing.stop({ path: zip });
      }
    });
    const events = traceEvents(zip);
    const selectors = events.filter((e) => e.type === 'before').map((e) => e.params?.selector).filter(Boolean);
    expect(selectors).toContain('#items');
    expect(selectors).not.toContain('#status');
    expect(JSON.stringify(events)).not.toContain('quiet:');
  });

  it('an error thrown inside keeps its own message: no Playwright internal reaches a report', async () => {
    await onPage('step-path.html', async (state) => {
      const err = await quietly(state.page, async () => { throw new Error('No element that can take a click matches "Remove"'); }).catch((e: Error) => e);
      expect(err.message).toBe('No element that can take a click matches "Remove"');
      const pw = await quietly(state.page, () => state.page.locator('#no-such-thing').click({ timeout: 50 })).catch((e: Error) => e);
      expect(pw.message).not.toContain('_wrapApiCall');
    });
  });
});
