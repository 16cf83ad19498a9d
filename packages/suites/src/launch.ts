import { randomUUID } from 'node:crypto';
import { AppError } from '@ariadne/schema';
import type { RunRecord, RunStatus, SubmitBody } from '@ariadne/flows';
import type { Suite, SuiteRun, SuiteRunTrigger, SuiteStore } from './store.js';

// A suite run: one ordinary run per plan (each served by every /v1/runs route), all
// against the same base URL, grouped under a suite-run id in the suite's history.
// The suite's secrets become run variables that are secret whatever their names.

export interface RunSubmitter {
  submit(tenant: string, body: SubmitBody): Promise<RunRecord>;
}

export function planUrl(base: string, path: string | undefined): string {
  if (!path) return base;
  // "/login" under https://host/app/ keeps the app prefix only when relative ("login").
  return new URL(path, base.endsWith('/') ? base : `${base}/`).toString();
}

export async function launchSuite(store: SuiteStore, runs: RunSubmitter, suite: Suite, opts: { baseUrl?: string; trigger: SuiteRunTrigger; id?: string }): Promise<SuiteRun> {
  const { secrets } = store.secretsOf(suite);
  const baseUrl = opts.baseUrl ?? suite.baseUrl;
  const run: SuiteRun = { id: opts.id ?? randomUUID(), createdAt: new Date().toISOString(), baseUrl, trigger: opts.trigger, runs: [] };
  const variables = { ...suite.variables, ...secrets };
  const secretNames = Object.keys(secrets);
  try {
    for (const p of suite.plans) {
      let url: string;
      try {
        url = planUrl(baseUrl, p.path);
      } catch {
        throw new AppError('invalid_request', `Plan "${p.name}": its path does not make a URL with base ${baseUrl.slice(0, 200)}.`, { field: 'baseUrl' });
      }
      const rec = await runs.submit(suite.tenant, {
        url,
        plan: p.plan,
        ...(suite.planner ? { planner: suite.planner } : {}),
        ...(suite.model ? { model: suite.model } : {}),
        ...(Object.keys(variables).length ? { variables } : {}),
        ...(secretNames.length ? { secretNames } : {}),
        ...(suite.roles ? { roles: suite.roles } : {}),
        ...(suite.options ? { options: suite.options as SubmitBody['options'] } : {}),
        suite: { id: suite.id, plan: p.name, trigger: Object.fromEntries(Object.entries({ ...opts.trigger, suiteRun: run.id }).filter(([k, v]) => typeof v === 'string' && k !== 'hookId')) as Record<string, string> },
      });
      run.runs.push({ plan: p.name, runId: rec.id });
    }
  } finally {
    // Whatever was queued is in the history, even when a later plan was refused.
    if (run.runs.length) await store.recordRun(suite.id, run);
  }
  return run;
}

export type SuiteStatus = 'queued' | 'running' | 'passed' | 'failed' | 'error' | 'cancelled';

/** One status for a suite run from its runs' statuses (missing runs have expired: error). */
export function suiteStatus(statuses: (RunStatus | null)[]): SuiteStatus {
  if (!statuses.length) return 'error';
  if (statuses.every((s) => s === 'queued')) return 'queued';
  if (statuses.some((s) => s === 'queued' || s === 'running')) return 'running';
  if (statuses.some((s) => s === null || s === 'error')) return 'error';
  if (statuses.some((s) => s === 'failed')) return 'failed';
  if (statuses.some((s) => s === 'cancelled')) return 'cancelled';
  return 'passed';
}
