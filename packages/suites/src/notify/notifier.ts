import { TERMINAL, type DeliveryRecord, type RunNotifier, type RunRecord, type RunReport, type RunStore } from '@ariadne/flows';
import type { FetchLike } from '@ariadne/egress';
import { suiteStatusOf } from '../launch.js';
import { shownUrl, type Suite, type SuiteRun, type SuiteStore } from '../store.js';
import { deliver, type RetryPolicy } from './deliver.js';
import { githubDescription, githubState, githubStatusBody, outcomeOf, slackMessage, webhookPayload } from './messages.js';

// What the service tells the outside about runs (issue 13), hooked into the run
// processor (packages/flows) on whichever node runs the run:
// - started: the first run of a suite run whose trigger names a repo and a sha posts
//   GitHub's "pending" (once per suite run, SET NX), in the background.
// - callback: a run's own callbackUrl gets its final report, signed with the run's
//   callbackSecret, tried with backoff.
// - finished: when the last run of a suite run is done, the suite's notify targets and
//   the final GitHub status go out, exactly once cluster-wide (SET NX on the suite run).
//   A run that finishes before its suite run was fully queued leaves this to the
//   launcher, which checks again once it has recorded the suite run (launched()).
// Every delivery (each try: time, duration, answer or error) is recorded on the run(s);
// none ever fails a run.

export const GITHUB_TOKEN_SECRET = 'GITHUB_TOKEN';
export const DEFAULT_GITHUB_API = 'https://api.github.com';

export interface NotifierDeps {
  runs: RunStore;
  suites: SuiteStore;
  fetch: FetchLike;
  retry: RetryPolicy;
  /** PUBLIC_URL (no trailing slash), or '' to use fallbackOrigin. */
  publicUrl: string;
  /**
   * Report links without PUBLIC_URL: this node's configured URL (a function when it is
   * known only once the node listens). Never a request's Host header: a delivery sent
   * with `Host: attacker.example` would get a signed link to there.
   */
  fallbackOrigin: string | (() => string);
  /**
   * Signs a run's report page link (GET /v1/runs/:id/report?exp=&sig=), so the people a
   * commit status or a Slack message reaches can open it without an API key. Without it
   * (or when signing fails) the link is the plain `${base}/v1/runs/<id>/report`.
   */
  signReportUrl?: (runId: string, tenant: string, base: string) => Promise<string>;
  logger?: { info(o: object, m?: string): void; warn(o: object, m?: string): void };
  /** How long the final status waits for a "pending" still being tried (ms). */
  pendingWaitMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class Notifier implements RunNotifier {
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(private readonly d: NotifierDeps) {}

  /** Report links for these runs, signed ahead (the message builders are synchronous). */
  private async reportUrlFor(tenant: string, runIds: string[]): Promise<(runId: string) => string> {
    // Never a suite run's recorded origin (the starting request's Host): see fallbackOrigin.
    const fallback = this.d.fallbackOrigin;
    const base = this.d.publicUrl || (typeof fallback === 'function' ? fallback() : fallback);
    const plain = (runId: string) => `${base}/v1/runs/${runId}/report`;
    const sign = this.d.signReportUrl;
    if (!sign) return plain;
    const signed = new Map<string, string>();
    await Promise.all(runIds.map(async (id) => {
      try {
        signed.set(id, await sign(id, tenant, base));
      } catch (err) {
        this.d.logger?.warn({ runId: id, err: (err as Error).message }, 'report link could not be signed: sending the plain link');
      }
    }));
    return (runId) => signed.get(runId) ?? plain(runId);
  }

  /** Background work this notifier started (tests and shutdown may wait for it). */
  async idle(): Promise<void> {
    while (this.inflight.size) await Promise.allSettled([...this.inflight]);
  }

  private track(p: Promise<unknown>): void {
    const q = p.catch((err) => this.d.logger?.warn({ err: (err as Error).message }, 'notification failed')).finally(() => this.inflight.delete(q));
    this.inflight.add(q);
  }

  private async record(runIds: string[], d: DeliveryRecord): Promise<void> {
    await Promise.all(runIds.map((id) => this.d.runs.addDelivery(id, d).catch(() => {})));
    this.d.logger?.[d.delivered ? 'info' : 'warn']({ kind: d.kind, event: d.event, url: d.url, delivered: d.delivered, tries: d.attempts.length, status: d.attempts[d.attempts.length - 1]?.status, suiteRun: d.suiteRun }, d.delivered ? 'delivered' : 'delivery failed');
  }

  // ---- a run's own callbackUrl ----

  async callback(rec: RunRecord, report: RunReport): Promise<RunReport['callback']> {
    const url = rec.request.callbackUrl;
    if (!url) return undefined;
    const { callbackSecret } = await this.d.runs.secret(rec.id).catch(() => ({} as { callbackSecret?: string }));
    const res = await deliver(this.d.fetch, { url, body: JSON.stringify(report), event: 'run.finished', ...(callbackSecret ? { secret: callbackSecret } : {}) }, this.d.retry);
    await this.record([rec.id], { kind: 'callback', event: 'run.finished', url: shownUrl('callback', url), delivered: res.delivered, attempts: res.attempts });
    return { url, attempts: res.attempts.length, delivered: res.delivered, ...(res.status !== undefined ? { status: res.status } : {}), ...(res.delivered || !res.error ? {} : { error: res.error }) };
  }

  // ---- GitHub commit statuses ----

  private githubTarget(suite: Suite, run: SuiteRun): { token: string; url: string } | null {
    const { repo, sha } = run.trigger;
    if (!repo || !sha || !/^[\w.-]+\/[\w.-]+$/.test(repo) || !/^[0-9a-f]{7,64}$/i.test(sha)) return null;
    const token = this.d.suites.secretsOf(suite).secrets[GITHUB_TOKEN_SECRET];
    if (!token) return null;
    const base = (suite.github?.apiBase ?? DEFAULT_GITHUB_API).replace(/\/+$/, '');
    return { token, url: `${base}/repos/${repo}/statuses/${sha}` };
  }

  private async postStatus(suite: Suite, run: SuiteRun, state: string, description: string, targetUrl: string): Promise<void> {
    const gh = this.githubTarget(suite, run);
    if (!gh) return;
    const res = await deliver(this.d.fetch, {
      url: gh.url,
      body: githubStatusBody(suite, state, description, targetUrl),
      event: `github.status.${state}`,
      headers: { authorization: `Bearer ${gh.token}`, accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
    }, this.d.retry);
    await this.record(run.runs.map((r) => r.runId), { kind: 'github_status', event: 'commit_status', state, url: gh.url, delivered: res.delivered, attempts: res.attempts, suiteRun: run.id });
  }

  started(rec: RunRecord): void {
    const suiteRunId = rec.request.suite?.trigger?.suiteRun;
    if (!suiteRunId || !rec.request.suite?.trigger?.repo || !rec.request.suite.trigger.sha) return;
    this.track((async () => {
      if (!(await this.d.suites.claimFlag(suiteRunId, 'pending'))) return;
      try {
        const suite = await this.d.suites.byId(rec.request.suite!.id);
        if (!suite) return;
        // The suite run may still be being queued (it is recorded once all its runs are):
        // wait a little for it, so the delivery is listed on each of its runs.
        let recorded = await this.d.suites.suiteRun(suiteRunId);
        for (let i = 0; !recorded && i < 25; i++) {
          await sleep(200);
          recorded = await this.d.suites.suiteRun(suiteRunId);
        }
        const run: SuiteRun = recorded ?? {
          id: suiteRunId, createdAt: rec.createdAt, baseUrl: rec.request.url, runs: [{ plan: rec.request.suite!.plan, runId: rec.id }],
          trigger: { type: (rec.request.suite!.trigger!.type ?? 'manual') as SuiteRun['trigger']['type'], repo: rec.request.suite!.trigger!.repo, sha: rec.request.suite!.trigger!.sha },
        };
        await this.postStatus(suite, run, 'pending', `Running ${suite.plans.length} plan(s)…`, (await this.reportUrlFor(rec.tenant, [rec.id]))(rec.id));
      } finally {
        await this.d.suites.claimFlag(suiteRunId, 'pending-done');
      }
    })());
  }

  // ---- the end of a suite run ----

  async finished(rec: RunRecord): Promise<void> {
    const suiteRunId = rec.request.suite?.trigger?.suiteRun;
    if (!suiteRunId) return;
    const run = await this.d.suites.suiteRun(suiteRunId);
    // Not yet recorded: the launcher checks once it is (launched()).
    if (!run) return;
    await this.settle(run);
  }

  /** After a suite run is recorded: its runs may all have finished already. */
  launched(run: SuiteRun): void {
    this.track(this.settle(run));
  }

  /** If every run of the suite run is done, notify once (whichever node gets here first). */
  private async settle(run: SuiteRun): Promise<void> {
    const recs = await Promise.all(run.runs.map((r) => this.d.runs.get(r.runId).catch(() => null)));
    if (recs.some((r) => r && !TERMINAL.includes(r.status))) return;
    if (!run.suiteId || !(await this.d.suites.claimFlag(run.id, 'notified'))) return;
    const suite = await this.d.suites.byId(run.suiteId);
    if (!suite) return;
    const status = suiteStatusOf(recs);
    const outcome = outcomeOf(run, recs, status);
    const reportUrl = await this.reportUrlFor(suite.tenant, run.runs.map((r) => r.runId));
    const tasks: Promise<void>[] = [];
    if (this.githubTarget(suite, run)) {
      tasks.push((async () => {
        // The final state must land after "pending": wait for a pending still being tried.
        if (await this.d.suites.hasFlag(run.id, 'pending')) {
          const until = Date.now() + (this.d.pendingWaitMs ?? 120_000);
          while (!(await this.d.suites.hasFlag(run.id, 'pending-done')) && Date.now() < until) await sleep(200);
        }
        await this.postStatus(suite, run, githubState(status), githubDescription(outcome), reportUrl(outcome.focusRunId));
      })());
    }
    const targets = suite.notify ?? [];
    if (targets.length) {
      const sec = this.d.suites.secretsOf(suite);
      const failed = status === 'failed' || status === 'error';
      for (const [i, t] of targets.entries()) {
        const url = sec.notifyUrls?.[i];
        if (!url) continue;
        const wanted = t.on.includes('always') || (failed ? t.on.includes('failure') : (status === 'passed' || status === 'flaky') && t.on.includes('success'));
        if (!wanted) continue;
        const body = t.type === 'slack'
          ? slackMessage(suite, run, outcome, reportUrl(outcome.focusRunId))
          : webhookPayload(suite, run, recs, outcome, reportUrl);
        tasks.push((async () => {
          const res = await deliver(this.d.fetch, { url, body: JSON.stringify(body), event: 'suite_run.finished', ...(sec.notifySecret ? { secret: sec.notifySecret } : {}) }, this.d.retry);
          await this.record(run.runs.map((r) => r.runId), { kind: t.type, event: 'suite_run.finished', url: t.shown, delivered: res.delivered, attempts: res.attempts, suiteRun: run.id });
        })());
      }
    }
    await Promise.all(tasks);
  }
}
