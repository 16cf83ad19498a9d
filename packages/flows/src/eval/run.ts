import { call, type Api } from '../cli-api.js';
import type { EvalCase } from './cases.js';

// Runs eval cases through an Ariadne server (POST /v1/runs, one run per case, one at a
// time so turns, tokens and time are the case's own) and gives each a verdict:
//   solved  — it should pass and passed (and, for a corpus episode, the page shows the
//             outcome); or it should fail and failed.
//   honest  — it should pass and failed, saying so (a failed step, a limit, a model error).
//   silent  — it passed but should have failed, or passed while the page shows a wrong
//             outcome: the result an operator must never get from a deploy check.

export type Verdict = 'solved' | 'honest' | 'silent';

export interface EvalPlannerOptions {
  planner: string;
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  /** Run options passed through (maxTokensPerRun, caseTimeoutSeconds, trace ...). */
  options?: Record<string, unknown>;
}

export interface EvalResult {
  id: string;
  expect: 'pass' | 'fail';
  verdict: Verdict;
  /** The run's status for this case (passed, failed, ...), or "refused" when the run was not accepted. */
  status: string;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  retries: number;
  durationMs: number;
  /** Why it failed (the first failed step or the case summary), or why a pass was wrong. */
  why?: string;
  runId?: string;
}

export interface EvalTotals {
  cases: number;
  solved: number;
  honest: number;
  silent: number;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  durationMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function finished(api: Api, id: string): Promise<any> {
  for (;;) {
    const run = (await call(api, 'GET', `/v1/runs/${id}`)).body;
    if (!['queued', 'running'].includes(run?.status)) return run;
    await sleep(150);
  }
}

/** One eval case: its run, then its verdict. */
export async function runEvalCase(api: Api, c: EvalCase, p: EvalPlannerOptions): Promise<EvalResult> {
  const started = Date.now();
  const body = {
    url: c.url,
    plan: c.plan,
    planner: p.planner,
    ...(p.model ? { model: p.model } : {}),
    ...(p.apiKey ? { apiKey: p.apiKey } : {}),
    ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}),
    ...(c.variables ? { variables: c.variables } : {}),
    options: { screenshots: false, trace: false, ...(p.options ?? {}) },
  };
  const base = { id: c.id, expect: c.expect, turns: 0, inputTokens: 0, outputTokens: 0, retries: 0 };
  const created = await call(api, 'POST', '/v1/runs', body);
  if (created.status !== 202) {
    const e = created.body?.error;
    // A plan the service will not run: an honest failure (nothing was claimed), unless it should fail.
    return { ...base, status: 'refused', verdict: c.expect === 'fail' ? 'solved' : 'honest', durationMs: Date.now() - started, why: e ? `${e.code}: ${e.message}` : `POST /v1/runs answered ${created.status}` };
  }
  const run = await finished(api, created.body.id);
  const cases: any[] = run.report?.cases ?? [];
  const usage = cases.reduce((u, k) => ({ turns: u.turns + (k.usage?.turns ?? 0), inputTokens: u.inputTokens + (k.usage?.inputTokens ?? 0), outputTokens: u.outputTokens + (k.usage?.outputTokens ?? 0), retries: u.retries + (k.usage?.retries ?? 0) }), { turns: 0, inputTokens: 0, outputTokens: 0, retries: 0 });
  const passed = cases.length > 0 && cases.every((k) => k.status === 'passed');
  const failedCase = cases.find((k) => k.status !== 'passed');
  const failedStep = failedCase?.steps?.find((s: any) => s.status === 'failed');
  const why = passed
    ? undefined
    : failedStep?.error
      ? `${failedStep.error.code}: ${failedStep.error.message}`
      : failedCase?.summary || run.error?.message || run.status;
  let verdict: Verdict;
  let note = why;
  if (c.expect === 'fail') verdict = passed ? 'silent' : 'solved';
  else if (!passed) verdict = 'honest';
  else if (c.judge) {
    const seen = await c.judge();
    verdict = seen.ok ? 'solved' : 'silent';
    if (!seen.ok) note = `passed, but the page disagrees: ${seen.why}`;
  } else verdict = 'solved';
  if (verdict === 'silent' && c.expect === 'fail') note = 'passed, but this plan must fail';
  return { ...base, ...usage, status: passed ? 'passed' : failedCase?.status ?? run.status, verdict, durationMs: Date.now() - started, ...(note ? { why: note } : {}), runId: created.body.id };
}

/** Every case in turn; onResult hears each verdict as it comes. */
export async function runEval(api: Api, cases: EvalCase[], p: EvalPlannerOptions, onResult: (r: EvalResult) => void = () => {}): Promise<{ results: EvalResult[]; totals: EvalTotals }> {
  const results: EvalResult[] = [];
  for (const c of cases) {
    const r = await runEvalCase(api, c, p);
    results.push(r);
    onResult(r);
  }
  return { results, totals: evalTotals(results) };
}

export function evalTotals(results: EvalResult[]): EvalTotals {
  const t: EvalTotals = { cases: results.length, solved: 0, honest: 0, silent: 0, turns: 0, inputTokens: 0, outputTokens: 0, durationMs: 0 };
  for (const r of results) {
    t[r.verdict]++;
    t.turns += r.turns;
    t.inputTokens += r.inputTokens;
    t.outputTokens += r.outputTokens;
    t.durationMs += r.durationMs;
  }
  return t;
}

const VERDICT_WORDS: Record<Verdict, string> = { solved: 'solved', honest: 'honest failure', silent: 'SILENT WRONG' };

/** One line per case. */
export function formatResult(r: EvalResult): string {
  const tokens = `${r.inputTokens}+${r.outputTokens} tok`;
  return `${VERDICT_WORDS[r.verdict].padEnd(14)} ${r.id}  [expect ${r.expect}, ${r.status}]  ${r.turns} turns, ${tokens}, ${(r.durationMs / 1000).toFixed(1)} s${r.retries ? `, ${r.retries} retries` : ''}${r.why ? `\n               ${r.why.replace(/\s+/g, ' ').slice(0, 300)}` : ''}`;
}

/** The totals block. */
export function formatTotals(t: EvalTotals, who: string): string {
  const pct = (x: number) => (t.cases ? `${Math.round((100 * x) / t.cases)}%` : 'n/a');
  return [
    `${who}: ${t.cases} case(s)`,
    `  solved ${t.solved} (${pct(t.solved)}), honest failure ${t.honest} (${pct(t.honest)}), silent wrong ${t.silent} (${pct(t.silent)})`,
    `  ${t.turns} model turns, ${t.inputTokens} input + ${t.outputTokens} output tokens, ${(t.durationMs / 1000).toFixed(1)} s`,
  ].join('\n');
}
