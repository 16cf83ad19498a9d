import { randomUUID } from 'node:crypto';
import { AppError } from '@ariadne/schema';
import type { RunRecord, RunStatus, SubmitBody } from '@ariadne/flows';
import type { Suite, SuiteRun, SuiteRunTrigger, SuiteStore } from './store.js';

// A suite run: one ordinary run per plan (each served by every /v1/runs route), all
// against the same base URL, grouped under a suite-run id in the suite's history.
// The suite's secrets become run variables that are secret whatever their names, stored
// in each run record only sealed and opened by the worker that runs it.

export interface RunSubmitter {
  submit(tenant: string, body: SubmitBody): Promise<RunRecord>;
}

export function planUrl(base: string, path: string | undefined): string {
  if (!path) return base;
  // "/login" under https://host/app/ keeps the app prefix only when relative ("login").
  return new URL(path, base.endsWith('/') ? base : `${base}/`).toString();
}

export async function launchSuite(store: SuiteStore, runs: RunSubmitter, suite: Suite, opts: { baseUrl?: string; trigger: SuiteRunTrigger; id?: string; origin?: string; onRecorded?: (run: SuiteRun) => void }): Promise<SuiteRun> {
  const { secrets } = store.secretsOf(suite);
  const baseUrl = opts.baseUrl ?? suite.baseUrl;
  const run: SuiteRun = { id: opts.id ?? randomUUID(), createdAt: new Date().toISOString(), baseUrl, trigger: opts.trigger, runs: [], suiteId: suite.id, ...(opts.origin ? { origin: opts.origin } : {}) };
  // The suite's retries are a run option like any other (a suite's options.retries yields to it).
  const options = { ...(suite.options ?? {}), ...(suite.retries !== undefined ? { retries: suite.retries } : {}) } as SubmitBody['options'];
  const variables = suite.variables;
  // Secrets go apart: the run record keeps them sealed (SECRETS_KEY), never in clear.
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
        ...(secretNames.length ? { secretNames, secrets } : {}),
        ...(suite.roles ? { roles: suite.roles } : {}),
        ...(options && Object.keys(options).length ? { options } : {}),
        suite: { id: suite.id, plan: p.name, trigger: Object.fromEntries(Object.entries({ ...opts.trigger, suiteRun: run.id }).filter(([k, v]) => typeof v === 'string' && k !== 'hookId')) as Record<string, string> },
      });
      run.runs.push({ plan: p.name, runId: rec.id });
    }
  } finally {
    // Whatever was queued is in the history, even when a later plan was refused.
    if (run.runs.length) {
      await store.recordRun(suite.id, run);
      // Its runs may all be done already: the notifier checks (once, cluster-wide).
      opts.onRecorded?.(run);
    }
  }
  return run;
}

/** flaky: every run passed, some case only on a retry. */
export type SuiteStatus = 'queued' | 'running' | 'passed' | 'flaky' | 'failed' | 'error' | 'cancelled';

/** A suite run's status from its run records (a missing one has expired), flaky cases counted. */
export function suiteStatusOf(recs: (Pick<RunRecord, 'status' | 'report'> | null)[]): SuiteStatus {
  const status = suiteStatus(recs.map((r) => r?.status ?? null));
  return status === 'passed' && recs.some((r) => (r?.report?.totals.flaky ?? 0) > 0) ? 'flaky' : status;
}

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
