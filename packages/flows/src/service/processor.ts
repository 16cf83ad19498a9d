import path from 'node:path';
import { WaitingError, type Job } from 'bullmq';
import type { SessionManager } from '@ariadne/pool';
import { isAppError, type RoleSpec } from '@ariadne/schema';
import { parsePlan } from '../plan.js';
import { runFlow, liveFlowSession } from '../loop.js';
import { DiskArtifacts } from '../artifacts.js';
import { errorOf, scrubSecrets, secretVariables, type FlowSettings } from '../tools.js';
import type { FlowMail } from '../mail.js';
import { ReplayPlanner } from '../planners/replay.js';
import { AppError } from '@ariadne/schema';
import type { Planner } from '../planners/planner.js';
import type { RunEvent, RunReport } from '../types.js';
import { TERMINAL, type RunRecord, type RunStore } from './run-store.js';
import { egressDenial, type FetchLike } from '@ariadne/egress';

// The BullMQ processor of the "runs" queue. It runs inside a server process (the
// worker host is inline there), so each run leases its contexts from that node's pool
// like any session. The record is always finalized (passed / failed / error /
// cancelled) unless the process dies; then BullMQ's stalled-job check hands the job to
// another worker, which starts the run over (attempts counts it), and a job that
// stalls too often is marked failed by the host's 'failed' hook with its partial report.

export interface RunJobData {
  runId: string;
}

export interface PlannerFactory {
  (rec: RunRecord, secret: { apiKey?: string }, fallback: () => Planner): Promise<Planner> | Planner;
}

export interface RunProcessorDeps {
  store: RunStore;
  sessions: SessionManager;
  nodeId: string;
  runsDir: string;
  settings: FlowSettings;
  planners: PlannerFactory;
  logger?: { info(o: object, m?: string): void; warn(o: object, m?: string): void };
  /** The run's inbox, for steps that read email (absent: this service receives no mail). */
  mail?: (tenant: string) => FlowMail;
  /** The fetch callbacks use: the service's egress-checking one (packages/egress). */
  fetch?: FetchLike;
  /** True once this node is shutting down (its browsers may be closed under a run). */
  shuttingDown?: () => boolean;
}

/** Did the run fail because its browser went away (not because of the page)? */
function lostItsBrowser(report: RunReport): boolean {
  const codes = [report.error?.code, ...report.cases.flatMap((c) => [c.error?.code, ...c.steps.map((s) => s.error?.code)])];
  return codes.some((c) => typeof c === 'string' && /^session_(crashed|closed|expired|lost)$/.test(c));
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function settingsFor(base: FlowSettings, rec: RunRecord): FlowSettings {
  const o = rec.request.options ?? {};
  const l = base.limits;
  return {
    ...base,
    trace: o.trace ?? base.trace,
    screenshots: o.screenshots ?? base.screenshots,
    limits: {
      maxStepsPerCase: Math.min(o.maxStepsPerCase ?? l.maxStepsPerCase, l.maxStepsPerCase),
      maxTurnsPerCase: Math.min(o.maxTurnsPerCase ?? l.maxTurnsPerCase, l.maxTurnsPerCase),
      maxTokensPerCase: Math.min(o.maxTokensPerCase ?? l.maxTokensPerCase, l.maxTokensPerCase),
      maxTokensPerRun: Math.min(o.maxTokensPerRun ?? l.maxTokensPerRun, l.maxTokensPerRun),
      caseTimeoutMs: Math.min((o.caseTimeoutSeconds ?? Infinity) * 1000, l.caseTimeoutMs),
      runTimeoutMs: Math.min((o.runTimeoutSeconds ?? Infinity) * 1000, l.runTimeoutMs),
    },
  };
}

/** POST the final report to the run's callbackUrl: a few tries, recorded, never fatal. */
export async function deliverCallback(url: string, report: RunReport, attempts = 3, fetchFn: FetchLike = fetch): Promise<NonNullable<RunReport['callback']>> {
  let last: { status?: number; error?: string } = {};
  for (let i = 1; i <= attempts; i++) {
    try {
      // The timeout covers the whole exchange, body included: a callback never hangs a run.
      const res = await fetchFn(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'ariadne-runs' },
        body: JSON.stringify(report),
        signal: AbortSignal.timeout(5000),
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => {});
      if (res.status >= 200 && res.status < 300) return { url, attempts: i, delivered: true, status: res.status };
      last = { status: res.status, error: `HTTP ${res.status}` };
    } catch (err) {
      const denied = egressDenial(err);
      // A refusal by the egress policy does not change on retry.
      if (denied) return { url, attempts: i, delivered: false, error: `egress_denied: ${denied.message}` };
      last = { error: (err as Error).name === 'TimeoutError' ? 'timeout (5 s)' : (err as Error).message };
    }
    if (i < attempts) await sleep(300 * 2 ** (i - 1));
  }
  return { url, attempts, delivered: false, ...last };
}

export function createRunProcessor(d: RunProcessorDeps) {
  return async (job: Job<RunJobData>, token?: string): Promise<{ status: string }> => {
    const id = job.data.runId;
    const rec = await d.store.get(id);
    // Deleted, expired, or cancelled while it waited: nothing to do.
    if (!rec || TERMINAL.includes(rec.status)) return { status: rec?.status ?? 'gone' };
    const attempt = rec.attempts + 1;
    await d.store.update(id, (r) => {
      r.status = 'running';
      r.startedAt = new Date().toISOString();
      r.node = d.nodeId;
      r.attempts = attempt;
    });
    let partial: RunReport | null = null;
    let lastSave = 0;
    const saves: Promise<unknown>[] = [];
    // Secret values never reach Redis: events and reports are stored with {{NAME}} instead.
    const secretValues = secretVariables(rec.request.variables, rec.request.secretNames);
    const emit = (e: RunEvent) => {
      saves.push(d.store.appendEvent(id, scrubSecrets(e, secretValues)).catch(() => {}));
      // Keep a partial report in the record, so a run cut short still shows its steps.
      if (partial && (e.type === 'case_finished' || Date.now() - lastSave > 1000)) {
        lastSave = Date.now();
        const snapshot = scrubSecrets(JSON.parse(JSON.stringify(partial)) as RunReport, secretValues);
        saves.push(d.store.update(id, (r) => { r.report = snapshot; }).catch(() => {}));
      }
    };
    if (attempt > 1) {
      d.logger?.warn({ runId: id, attempt }, 'run restarted after its worker stopped');
      emit({ type: 'run_restarted', attempt, reason: 'the worker running it stopped; the run starts over' });
    }

    // Cancellation works from any node: DELETE sets a key, every worker polls it.
    const abort = new AbortController();
    const poll = setInterval(() => {
      d.store.cancelRequested(id).then((yes) => { if (yes) abort.abort('cancelled'); }, () => {});
    }, 300);
    poll.unref();

    let sessionId: string | null = null;
    // The node shutting down ends every session: a run cut short that way is handed back.
    let cutByShutdown = false;
    let liveSession: { ended: { reason: string } | null } | null = null;
    const onEnded = (e: { id: string; reason: string }) => {
      if (e.id === sessionId && e.reason === 'server_shutdown') {
        cutByShutdown = true;
        abort.abort('shutdown');
      }
    };
    d.sessions.on('session-ended', onEnded);
    let report: RunReport;
    try {
      const plan = parsePlan(rec.request.plan, { variables: rec.request.variables });
      const specs: RoleSpec[] = plan.roles.map((name) => rec.request.roles?.find((r) => r.name === name) ?? { name });
      const secret = await d.store.secret(id);
      let planner = await d.planners(rec, secret, () => { throw new Error('no planner'); });
      if (rec.request.replayOf) {
        // Replay: the recorded actions first, the planner only for steps that no longer resolve.
        const original = await d.store.get(rec.request.replayOf);
        if (!original?.report) throw new AppError('run_not_found', `Run ${rec.request.replayOf} (replayed) has no report any more.`, { runId: rec.request.replayOf });
        planner = new ReplayPlanner(original.report, planner, rec.request.variables ?? {});
      }
      // Wait for capacity like a queued session would, but not forever.
      const deadline = Date.now() + 60_000;
      for (;;) {
        try {
          const s = await d.sessions.create(rec.tenant, { roles: specs, metadata: { runId: id } } as never);
          sessionId = s.id;
          break;
        } catch (err) {
          if (!isAppError(err) || err.code !== 'capacity_exhausted' || Date.now() > deadline || abort.signal.aborted) throw err;
          await sleep(500);
        }
      }
      const live = await d.sessions.use(rec.tenant, sessionId);
      liveSession = live;
      const settings = { ...settingsFor(d.settings, rec), secrets: secretVariables(rec.request.variables, rec.request.secretNames), mail: d.mail?.(rec.tenant) ?? null, ...(d.fetch ? { outboundFetch: d.fetch } : {}) };
      // runFlow fills this report as it goes; emit() snapshots it.
      const runPromise = runFlow({
        runId: id,
        url: rec.request.url,
        plan,
        planner,
        session: liveFlowSession(live),
        settings,
        signal: abort.signal,
        emit,
        artifacts: new DiskArtifacts(path.join(d.runsDir, id)),
        ...(rec.request.replayOf ? { replayOf: rec.request.replayOf } : {}),
        onReport: (r) => { partial = r; },
      });
      report = await runPromise;
    } catch (err) {
      const e = errorOf(err);
      report = partial ?? {
        runId: id, url: rec.request.url, planner: rec.request.planner, status: 'error', startedAt: new Date().toISOString(),
        durationMs: 0, cases: [], totals: { cases: 0, passed: 0, failed: 0, skipped: 0, cancelled: 0, steps: 0, assertions: 0, failedAssertions: 0 },
        usage: { turns: 0, inputTokens: 0, outputTokens: 0 },
      };
      report.status = abort.signal.aborted ? 'cancelled' : 'error';
      report.error = e;
      report.finishedAt = new Date().toISOString();
      emit({ type: 'run_finished', status: report.status, totals: report.totals, durationMs: report.durationMs });
    } finally {
      clearInterval(poll);
      d.sessions.off('session-ended', onEnded);
      if (sessionId) await d.sessions.end(sessionId, 'closed', 'run_finished').catch(() => {});
    }
    report = scrubSecrets(report, secretValues);
    // (The session knows it was ended before the event about it goes out.)
    const endedByShutdown = cutByShutdown || (liveSession as { ended: { reason: string } | null } | null)?.ended?.reason === 'server_shutdown';
    if (endedByShutdown || (d.shuttingDown?.() && report.status !== 'passed' && lostItsBrowser(report))) {
      // Cut short by this node's shutdown: keep the partial report, leave the run to be
      // resumed elsewhere (the job's lock lapses and another worker takes it over).
      await Promise.all(saves);
      await d.store.update(id, (r) => { r.report = report; });
      await d.store.appendEvent(id, { type: 'run_interrupted', reason: 'the node running it is shutting down; another worker will take the run over' }).catch(() => {});
      d.logger?.warn({ runId: id }, 'run interrupted by shutdown: handed back');
      // Back to the queue for the next worker (if this process dies first, the stalled
      // check does the same once the job's lock lapses).
      if (token) {
        await job.moveToWait(token).catch(() => {});
        throw new WaitingError();
      }
      return { status: 'interrupted' };
    }
    if (rec.request.callbackUrl) report.callback = await deliverCallback(rec.request.callbackUrl, report, 3, d.fetch);
    await Promise.all(saves);
    await d.store.update(id, (r) => {
      r.status = report.status;
      r.report = report;
      r.finishedAt = report.finishedAt ?? new Date().toISOString();
      if (report.error) r.error = report.error;
    });
    return { status: report.status };
  };
}

/** A job that BullMQ gave up on (stalled too often, or the processor crashed): never leave it "running". */
export async function markRunFailed(store: RunStore, id: string, reason: string): Promise<void> {
  await store.update(id, (r) => {
    if (TERMINAL.includes(r.status)) return;
    r.status = 'error';
    r.finishedAt = new Date().toISOString();
    r.error = { code: 'worker_lost', message: `The run's worker stopped and the run could not be resumed: ${reason}` };
    if (r.report) {
      r.report.status = 'error';
      r.report.error = r.error;
    }
  });
  await store.appendEvent(id, { type: 'run_finished', status: 'error', totals: (await store.get(id))?.report?.totals ?? { cases: 0, passed: 0, failed: 0, skipped: 0, cancelled: 0, steps: 0, assertions: 0, failedAssertions: 0 }, durationMs: 0 }).catch(() => {});
}
