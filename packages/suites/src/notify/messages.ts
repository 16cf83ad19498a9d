import type { RunRecord } from '@ariadne/flows';
import type { SuiteStatus } from '../launch.js';
import type { Suite, SuiteRun } from '../store.js';

// What a finished suite run says to the outside: the counts ("3/4 cases passed"), the
// first failure (case, step, error), and the same facts shaped for a GitHub commit
// status, a Slack incoming webhook and a generic JSON webhook. Built from the stored
// (already scrubbed) reports, so a secret value never gets here.

export interface FirstFailure {
  plan: string;
  runId: string;
  case: string;
  /** The failing step as the plan wrote it, when one failed (else the case's summary says why). */
  step?: string;
  error: string;
}

export interface SuiteOutcome {
  status: SuiteStatus;
  cases: number;
  passed: number;
  flaky: number;
  failure: FirstFailure | null;
  /** The run a link should open: the first failing one, else the first. */
  focusRunId: string;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

export function outcomeOf(run: SuiteRun, recs: (RunRecord | null)[], status: SuiteStatus): SuiteOutcome {
  let cases = 0;
  let passed = 0;
  let flaky = 0;
  let failure: FirstFailure | null = null;
  for (const [i, rec] of recs.entries()) {
    const t = rec?.report?.totals;
    if (t) {
      cases += t.cases;
      passed += t.passed + (t.flaky ?? 0);
      flaky += t.flaky ?? 0;
    }
    if (failure || !rec || rec.status === 'passed') continue;
    const plan = run.runs[i]?.plan ?? '';
    const c = rec.report?.cases.find((x) => x.status === 'failed');
    if (c) {
      const step = c.steps.find((s) => s.status === 'failed');
      failure = { plan, runId: rec.id, case: `Case ${c.index}: ${c.name}`, ...(step ? { step: step.asked } : {}), error: step?.error?.message ?? c.error?.message ?? c.summary };
    } else {
      const err = rec.error ?? rec.report?.error;
      failure = { plan, runId: rec.id, case: '(the run)', error: err?.message ?? `The run ${rec.status === 'cancelled' ? 'was cancelled' : 'did not finish'}.` };
    }
  }
  const focusRunId = failure?.runId ?? run.runs[0]?.runId ?? '';
  return { status, cases, passed, flaky, failure, focusRunId };
}

export function countsLine(o: SuiteOutcome): string {
  return `${o.passed}/${o.cases} cases passed${o.flaky ? ` (${o.flaky} flaky)` : ''}`;
}

/** GitHub's commit state for a suite status. */
export function githubState(status: SuiteStatus): 'success' | 'failure' | 'error' | 'pending' {
  if (status === 'passed' || status === 'flaky') return 'success';
  if (status === 'failed') return 'failure';
  if (status === 'queued' || status === 'running') return 'pending';
  return 'error';
}

export function githubStatusBody(suite: Suite, state: string, description: string, targetUrl: string): string {
  // GitHub keeps 140 characters of a description.
  return JSON.stringify({ state, target_url: targetUrl, description: clip(description, 140), context: `ariadne/${suite.name}` });
}

export function githubDescription(o: SuiteOutcome): string {
  if (o.status === 'cancelled') return `Cancelled: ${countsLine(o)}`;
  if (o.status === 'error' && !o.cases) return `Could not run: ${o.failure?.error ?? 'error'}`;
  return countsLine(o);
}

const ICON: Partial<Record<SuiteStatus, string>> = { passed: '✅', flaky: '⚠️', failed: '❌', error: '🛑', cancelled: '⏹️' };

function where(run: SuiteRun): string {
  const t = run.trigger;
  const bits = [t.environment, t.repo && t.sha ? `${t.repo}@${t.sha.slice(0, 7)}` : t.sha?.slice(0, 7)].filter(Boolean);
  return bits.length ? ` (${bits.join(', ')})` : '';
}

/** A Slack incoming-webhook message: `text` for notifications, `blocks` for the channel. */
export function slackMessage(suite: Suite, run: SuiteRun, o: SuiteOutcome, reportUrl: string): { text: string; blocks: unknown[] } {
  const head = `${ICON[o.status] ?? ''} Suite "${suite.name}" ${o.status}${where(run)}: ${countsLine(o)}`.trim();
  const f = o.failure;
  const failLines = f ? [`Failing: ${f.plan ? `${f.plan} › ` : ''}${f.case}`, ...(f.step ? [`Step: ${f.step}`] : []), `Error: ${clip(f.error, 600)}`] : [];
  const text = [head, ...failLines, `Report: ${reportUrl}`].join('\n');
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const blocks: unknown[] = [
    { type: 'section', text: { type: 'mrkdwn', text: `*${esc(head)}*` } },
    ...(f ? [{ type: 'section', text: { type: 'mrkdwn', text: [`*Failing:* ${esc(`${f.plan ? `${f.plan} › ` : ''}${f.case}`)}`, ...(f.step ? [`*Step:* ${esc(f.step)}`] : []), `*Error:* ${esc(clip(f.error, 600))}`].join('\n') } }] : []),
    { type: 'context', elements: [{ type: 'mrkdwn', text: `<${reportUrl}|Open the report>` }] },
  ];
  return { text, blocks };
}

/** The generic webhook body: the suite run's result, each run with its counts and report link. */
export function webhookPayload(suite: Suite, run: SuiteRun, recs: (RunRecord | null)[], o: SuiteOutcome, reportUrl: (runId: string) => string): unknown {
  return {
    event: 'suite_run.finished',
    suite: { id: suite.id, name: suite.name },
    suiteRun: { id: run.id, status: o.status, createdAt: run.createdAt, baseUrl: run.baseUrl, trigger: Object.fromEntries(Object.entries(run.trigger).filter(([k]) => k !== 'hookId')) },
    summary: countsLine(o),
    cases: o.cases,
    passed: o.passed,
    flaky: o.flaky,
    failure: o.failure,
    reportUrl: reportUrl(o.focusRunId),
    runs: run.runs.map((r, i) => ({ plan: r.plan, runId: r.runId, status: recs[i]?.status ?? null, totals: recs[i]?.report?.totals ?? null, reportUrl: reportUrl(r.runId) })),
  };
}
