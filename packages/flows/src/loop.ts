import { scrubTraceFile } from './trace-scrub.js';
import { setMaxListeners } from 'node:events';
import type { LiveSession } from '@ariadne/pool';
import { checkNavigationUrl, guardNavigation, runNavigation, toAppError } from '@ariadne/page';
import type { Plan, PlanCase } from './plan.js';
import type { Planner } from './planners/planner.js';
import { CaseStop, CaseTools, errorOf, type ArtifactSink, type FlowSession, type FlowSettings } from './tools.js';
import { PhaseClock } from './timing.js';
import { computeTotals, type CaseAttempt, type CaseReport, type RunEvent, type RunReport, type RunStatus } from './types.js';

// The agent loop of a run: every role opens the start URL, then the cases run in
// order in the same browser state (a login in case 1 carries into case 2), each as
// snapshot → decide → act → record through the planner. Guards: steps, model turns
// and tokens per case and per run, wall time per case and per run, cancellation.
// A case passes only if it completed, every mandatory assertion was recorded and
// passed, and no assertion failed. A failed case may be tried again (retries) in fresh
// browser contexts that start from the cookies, storage and URL each role had when the
// case first started; a case that passes only then is "flaky", never "passed".

export function liveFlowSession(live: LiveSession): FlowSession {
  return {
    roles: () => [...live.roles.keys()],
    run: (role, fn) => live.role(role).run(undefined, fn),
    context: (role) => live.role(role).context,
    pageIds: (role) => [...live.role(role).pages.keys()],
  };
}

export interface RunFlowOptions {
  runId: string;
  url: string;
  plan: Plan;
  planner: Planner;
  session: FlowSession;
  settings: FlowSettings;
  signal?: AbortSignal;
  emit?: (e: RunEvent) => void;
  artifacts?: ArtifactSink | null;
  replayOf?: string;
  /** Open the start URL in every role first (default true). */
  openStartUrl?: boolean;
  /** Handed the report as soon as it exists: it fills in as the run goes (partial reports). */
  onReport?: (r: RunReport) => void;
  /** A failed case is tried again up to this many times (needs freshSession). */
  retries?: number;
  /**
   * New browser contexts for a retry, one per role, each created with the storage state
   * given (the previous session is the caller's to end). The run goes on in them.
   */
  freshSession?: (start: CaseStart) => Promise<FlowSession>;
}

/** Where each role stood when a case started: what a retry starts again from. */
export type CaseStart = Record<string, { url: string; storageState: unknown }>;

async function openAt(session: FlowSession, role: string, url: string, settings: FlowSettings): Promise<void> {
  await session.run(role, async (state) => {
    const target = checkNavigationUrl(url, settings.allowedSchemes);
    await guardNavigation(state.page, target);
    await runNavigation(state.page, () => state.page.goto(target, { waitUntil: 'load', timeout: settings.navigationTimeoutMs })).catch((err) => {
      throw toAppError(err, { action: 'navigate', state });
    });
  });
}

async function captureStart(session: FlowSession, fallbackUrl: string): Promise<CaseStart> {
  const out: CaseStart = {};
  for (const role of session.roles()) {
    const url = await session.run(role, async (state) => state.page.url()).catch(() => fallbackUrl);
    const storageState = await session.context(role).storageState().catch(() => undefined);
    out[role] = { url: /^https?:/i.test(url) ? url : fallbackUrl, storageState };
  }
  return out;
}

function newCaseReport(c: PlanCase): CaseReport {
  return {
    index: c.index,
    name: c.name,
    status: 'skipped',
    completed: false,
    summary: '',
    steps: [],
    assertions: [],
    missingAssertions: [],
    startedAt: new Date().toISOString(),
    durationMs: 0,
    usage: { turns: 0, inputTokens: 0, outputTokens: 0 },
  };
}

/** Decide a case's status from what was recorded. */
export function judgeCase(c: PlanCase, r: CaseReport, completed: boolean, completedPassed: boolean): CaseReport['status'] {
  r.missingAssertions = c.steps
    .filter((s) => s.mandatory && !r.assertions.some((a) => a.planStep === s.index && a.passed))
    .map((s) => ({ planStep: s.index, text: s.text }));
  const failedAssertion = r.assertions.some((a) => !a.passed);
  r.completed = completed;
  return completed && completedPassed && !failedAssertion && r.missingAssertions.length === 0 ? 'passed' : 'failed';
}

export async function runFlow(o: RunFlowOptions): Promise<RunReport> {
  const started = Date.now();
  const emit = o.emit ?? (() => {});
  const limits = o.settings.limits;
  const report: RunReport = {
    runId: o.runId,
    url: o.url,
    planner: o.planner.name,
    ...(o.planner.model ? { model: o.planner.model } : {}),
    status: 'running',
    startedAt: new Date(started).toISOString(),
    durationMs: 0,
    cases: o.plan.cases.map(newCaseReport),
    totals: computeTotals([]),
    usage: { turns: 0, inputTokens: 0, outputTokens: 0 },
    ...(o.replayOf ? { replayOf: o.replayOf } : {}),
  };
  o.onReport?.(report);
  emit({ type: 'run_started', runId: o.runId, planner: o.planner.name, cases: o.plan.cases.map((c) => ({ index: c.index, name: c.name })) });

  // The run's own abort: the caller's cancel, or the run's wall-time limit.
  const runAbort = new AbortController();
  const onCancel = () => runAbort.abort('cancelled');
  if (o.signal?.aborted) runAbort.abort('cancelled');
  o.signal?.addEventListener('abort', onCancel, { once: true });
  const runTimer = setTimeout(() => runAbort.abort('run_timeout'), limits.runTimeoutMs);
  runTimer.unref?.();
  const runUsage = { inputTokens: 0, outputTokens: 0 };
  const tracing = new Set<string>();
  const clock = new PhaseClock();

  let session = o.session;
  const retries = o.freshSession ? Math.max(0, o.retries ?? 0) : 0;
  const startTracing = async () => {
    if (!o.settings.trace || !o.artifacts) return;
    for (const role of session.roles()) {
      const t = session.context(role).tracing;
      // start() opens a first chunk whose call-stack temp dir a later startChunk() would
      // orphan (one playwright-tracing-* dir per run): discard that chunk at once, and
      // record one chunk per case below.
      // DOM snapshots (what the trace viewer shows before, at and after each action), no
      // screencast: the screencast encoded a JPEG of every painted frame for the whole
      // case, 0.2x of a 10-step run (bench/flows.mjs: 1.39x to 1.20x of a run without
      // artifacts), while the report's pictures are the steps' own screenshots. Its frames
      // were also pixels no secret scrubbing can reach (docs/suites-and-webhooks.md, "Secrets at rest in runs").
      await t.start({ screenshots: false, snapshots: true, title: `run ${o.runId} ${role}` })
        .then(() => t.stopChunk())
        .then(() => tracing.add(role), () => {});
    }
  };

  /** One try of a case: fills the case's report (steps, assertions, status, summary). */
  const attemptCase = async (c: PlanCase, r: CaseReport, attempt: number): Promise<void> => {
    const caseStarted = Date.now();
    r.startedAt = new Date(caseStarted).toISOString();
    const caseAbort = new AbortController();
    // Every model request and every racing action listens on it for a while.
    setMaxListeners(1000, caseAbort.signal);
    const relay = () => caseAbort.abort(runAbort.signal.reason);
    runAbort.signal.addEventListener('abort', relay, { once: true });
    const caseTimer = setTimeout(() => caseAbort.abort('case_timeout'), limits.caseTimeoutMs);
    caseTimer.unref?.();
    const tools = new CaseTools(c, r, session, o.settings, caseAbort.signal, emit, o.artifacts ?? null, runUsage, attempt);
    clock.lap('other');
    for (const role of tracing) await session.context(role).tracing.startChunk({ title: `Case ${c.index}: ${c.name}${attempt > 1 ? ` (attempt ${attempt})` : ''}` }).catch(() => {});
    clock.lap('trace chunk');
    let stopped: CaseStop | null = null;
    try {
      await o.planner.runCase(c, tools);
    } catch (err) {
      if (err instanceof CaseStop) stopped = err;
      else r.error = errorOf(err);
    } finally {
      clearTimeout(caseTimer);
      runAbort.signal.removeEventListener('abort', relay);
    }
    // The steps' screenshots were written in the background: all on disk before the case ends.
    clock.lap('case');
    await tools.drain();
    clock.lap('drain');
    for (const role of tracing) {
      const name = `c${c.index}${attempt > 1 ? `-r${attempt}` : ''}-${role}-trace.zip`;
      const path = o.artifacts!.tracePath(name);
      // Secret values typed in this case are replaced by {{NAME}} inside the zip.
      const ok = await session.context(role).tracing.stopChunk({ path }).then(() => scrubTraceFile(path, o.settings.secrets), () => false);
      if (ok) r.trace = r.trace ? `${r.trace},${name}` : name;
    }
    clock.lap('trace chunk');
    r.usage = { ...tools.usage };
    if (stopped) r.error = stopped.error;
    r.status = stopped?.reason === 'cancelled' ? 'cancelled' : judgeCase(c, r, tools.completed && !stopped, tools.completedPassed);
    r.summary = tools.summary || (r.error ? r.error.message : r.status);
    if (r.status === 'failed' && r.missingAssertions.length && tools.completedPassed && !r.assertions.some((a) => !a.passed)) {
      r.summary = `Not every Verify step was asserted: ${r.missingAssertions.map((m) => `step ${m.planStep} ("${m.text}")`).join(', ')}.`;
    }
    r.durationMs = Date.now() - caseStarted;
  };

  try {
    if (o.openStartUrl !== false) {
      for (const role of session.roles()) await openAt(session, role, o.url, o.settings);
    }
    clock.lap('start URL');
    await startTracing();
    clock.lap('trace start');

    for (let i = 0; i < o.plan.cases.length; i++) {
      const c = o.plan.cases[i];
      const r = report.cases[i];
      if (runAbort.signal.aborted) {
        r.status = runAbort.signal.reason === 'cancelled' ? 'cancelled' : 'skipped';
        r.summary = runAbort.signal.reason === 'cancelled' ? 'The run was cancelled before this case.' : 'The run ran out of time before this case.';
        continue;
      }
      // The run's token cap was reached by an earlier case: the cases left are not started
      // (each would stop at its first model turn), and say why.
      const spent = runUsage.inputTokens + runUsage.outputTokens;
      if (spent >= limits.maxTokensPerRun) {
        r.status = 'skipped';
        r.summary = `The run reached its limit of ${limits.maxTokensPerRun} tokens (${spent} used) before this case.`;
        r.error = { code: 'limit_exceeded', message: r.summary, details: { limit: 'run_tokens', max: limits.maxTokensPerRun, used: spent } };
        continue;
      }
      emit({ type: 'case_started', case: c.index, name: c.name });
      // Where each role stands now: a retry starts its fresh contexts from there.
      const start = retries ? await captureStart(session, o.url) : null;
      const firstStart = Date.now();
      const attempts: CaseAttempt[] = [];
      const usage: CaseReport['usage'] = { turns: 0, inputTokens: 0, outputTokens: 0 };
      for (let attempt = 1; ; attempt++) {
        await attemptCase(c, r, attempt);
        usage.turns += r.usage.turns;
        usage.inputTokens += r.usage.inputTokens;
        usage.outputTokens += r.usage.outputTokens;
        if (r.usage.retries) usage.retries = (usage.retries ?? 0) + r.usage.retries;
        if (r.status !== 'failed' || !start || attempt > retries || runAbort.signal.aborted) break;
        attempts.push({
          attempt, status: r.status, summary: r.summary, startedAt: r.startedAt, durationMs: r.durationMs,
          ...(r.error ? { error: r.error } : {}), ...(r.trace ? { trace: r.trace } : {}),
          steps: r.steps, assertions: r.assertions, missingAssertions: r.missingAssertions,
        });
        emit({ type: 'case_retry', case: c.index, attempt: attempt + 1, reason: r.summary });
        try {
          const next = await o.freshSession!(start);
          session = next;
          tracing.clear();
          for (const role of session.roles()) await openAt(session, role, start[role]?.url ?? o.url, o.settings);
          await startTracing();
        } catch (err) {
          // No fresh context to retry in: the case stays failed, and says why it was not retried.
          const e = errorOf(err);
          attempts.pop();
          r.summary = `${r.summary} (not retried: ${e.message})`;
          break;
        }
        r.steps = [];
        r.assertions = [];
        r.missingAssertions = [];
        r.completed = false;
        delete r.error;
        delete r.trace;
        delete r.healedSteps;
      }
      r.usage = usage;
      if (attempts.length) {
        attempts.push({ attempt: attempts.length + 1, status: r.status, summary: r.summary, startedAt: r.startedAt, durationMs: r.durationMs, ...(r.error ? { error: r.error } : {}), ...(r.trace ? { trace: r.trace } : {}) });
        if (r.status === 'passed') {
          r.status = 'flaky';
          r.summary = `Passed on attempt ${attempts.length} after failing: ${attempts[0].summary}`;
        }
        r.attempts = attempts;
        r.startedAt = new Date(firstStart).toISOString();
        r.durationMs = Date.now() - firstStart;
      }
      emit({ type: 'case_finished', case: c.index, status: r.status, summary: r.summary, durationMs: r.durationMs });
    }
  } catch (err) {
    report.error = errorOf(err);
  } finally {
    clearTimeout(runTimer);
    o.signal?.removeEventListener('abort', onCancel);
    for (const role of tracing) await session.context(role).tracing.stop().catch(() => {});
    clock.lap('trace stop');
  }

  for (const r of report.cases) {
    report.usage.turns += r.usage.turns;
    report.usage.inputTokens += r.usage.inputTokens;
    report.usage.outputTokens += r.usage.outputTokens;
  }
  report.totals = computeTotals(report.cases);
  const status: RunStatus = report.error
    ? 'error'
    : runAbort.signal.reason === 'cancelled'
      ? 'cancelled'
      : report.totals.passed + report.totals.flaky === report.cases.length
        ? 'passed'
        : 'failed';
  report.status = status;
  report.finishedAt = new Date().toISOString();
  report.durationMs = Date.now() - started;
  emit({ type: 'run_finished', status, totals: report.totals, durationMs: report.durationMs });
  clock.done('flow', o.runId);
  return report;
}
