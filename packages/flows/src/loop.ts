import { setMaxListeners } from 'node:events';
import type { LiveSession } from '@ariadne/pool';
import { checkNavigationUrl, guardNavigation, runNavigation, toAppError } from '@ariadne/page';
import type { Plan, PlanCase } from './plan.js';
import type { Planner } from './planners/planner.js';
import { CaseStop, CaseTools, errorOf, type ArtifactSink, type FlowSession, type FlowSettings } from './tools.js';
import { computeTotals, type CaseReport, type RunEvent, type RunReport, type RunStatus } from './types.js';

// The agent loop of a run: every role opens the start URL, then the cases run in
// order in the same browser state (a login in case 1 carries into case 2), each as
// snapshot → decide → act → record through the planner. Guards: steps, model turns
// and tokens per case and per run, wall time per case and per run, cancellation.
// A case passes only if it completed, every mandatory assertion was recorded and
// passed, and no assertion failed.

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

  try {
    if (o.openStartUrl !== false) {
      for (const role of o.session.roles()) {
        await o.session.run(role, async (state) => {
          const target = checkNavigationUrl(o.url, o.settings.allowedSchemes);
          await guardNavigation(state.page, target);
          await runNavigation(state.page, () => state.page.goto(target, { waitUntil: 'load', timeout: o.settings.navigationTimeoutMs })).catch((err) => {
            throw toAppError(err, { action: 'navigate', state });
          });
        });
      }
    }
    if (o.settings.trace && o.artifacts) {
      for (const role of o.session.roles()) {
        const t = o.session.context(role).tracing;
        // start() opens a first chunk whose call-stack temp dir a later startChunk() would
        // orphan (one playwright-tracing-* dir per run): discard that chunk at once, and
        // record one chunk per case below.
        await t.start({ screenshots: true, snapshots: true, title: `run ${o.runId} ${role}` })
          .then(() => t.stopChunk())
          .then(() => tracing.add(role), () => {});
      }
    }

    for (let i = 0; i < o.plan.cases.length; i++) {
      const c = o.plan.cases[i];
      const r = report.cases[i];
      if (runAbort.signal.aborted) {
        r.status = runAbort.signal.reason === 'cancelled' ? 'cancelled' : 'skipped';
        r.summary = runAbort.signal.reason === 'cancelled' ? 'The run was cancelled before this case.' : 'The run ran out of time before this case.';
        continue;
      }
      const caseStarted = Date.now();
      r.startedAt = new Date(caseStarted).toISOString();
      emit({ type: 'case_started', case: c.index, name: c.name });
      const caseAbort = new AbortController();
      // Every model request and every racing action listens on it for a while.
      setMaxListeners(1000, caseAbort.signal);
      const relay = () => caseAbort.abort(runAbort.signal.reason);
      runAbort.signal.addEventListener('abort', relay, { once: true });
      const caseTimer = setTimeout(() => caseAbort.abort('case_timeout'), limits.caseTimeoutMs);
      caseTimer.unref?.();
      const tools = new CaseTools(c, r, o.session, o.settings, caseAbort.signal, emit, o.artifacts ?? null, runUsage);
      for (const role of tracing) await o.session.context(role).tracing.startChunk({ title: `Case ${c.index}: ${c.name}` }).catch(() => {});
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
      for (const role of tracing) {
        const name = `c${c.index}-${role}-trace.zip`;
        const path = o.artifacts!.tracePath(name);
        const ok = await o.session.context(role).tracing.stopChunk({ path }).then(() => true, () => false);
        if (ok) r.trace = r.trace ? `${r.trace},${name}` : name;
      }
      r.usage = { ...tools.usage };
      if (stopped) r.error = stopped.error;
      r.status = stopped?.reason === 'cancelled' ? 'cancelled' : judgeCase(c, r, tools.completed && !stopped, tools.completedPassed);
      r.summary = tools.summary || (r.error ? r.error.message : r.status);
      if (r.status === 'failed' && r.missingAssertions.length && tools.completedPassed && !r.assertions.some((a) => !a.passed)) {
        r.summary = `Not every Verify step was asserted: ${r.missingAssertions.map((m) => `step ${m.planStep} ("${m.text}")`).join(', ')}.`;
      }
      r.durationMs = Date.now() - caseStarted;
      emit({ type: 'case_finished', case: c.index, status: r.status, summary: r.summary, durationMs: r.durationMs });
    }
  } catch (err) {
    report.error = errorOf(err);
  } finally {
    clearTimeout(runTimer);
    o.signal?.removeEventListener('abort', onCancel);
    for (const role of tracing) await o.session.context(role).tracing.stop().catch(() => {});
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
      : report.totals.passed === report.cases.length
        ? 'passed'
        : 'failed';
  report.status = status;
  report.finishedAt = new Date().toISOString();
  report.durationMs = Date.now() - started;
  emit({ type: 'run_finished', status, totals: report.totals, durationMs: report.durationMs });
  return report;
}
