import path from 'node:path';
import { WaitingError, type Job } from 'bullmq';
import type { SessionManager } from '@ariadne/pool';
import { isAppError, type RoleSpec } from '@ariadne/schema';
import { parsePlan } from '../plan.js';
import { runFlow, liveFlowSession, type CaseStart } from '../loop.js';
import { DiskArtifacts } from '../artifacts.js';
import { errorOf, scrubSecrets, secretVariables, type FlowSettings } from '../tools.js';
import type { FlowMail } from '../mail.js';
import { ReplayPlanner } from '../planners/replay.js';
import { AppError } from '@ariadne/schema';
import type { Planner } from '../planners/planner.js';
import { emptyTotals, type RunEvent, type RunReport } from '../types.js';
import { runSecretsAad, TERMINAL, type RunRecord, type RunStore, type SecretsBox } from './run-store.js';
import type { FetchLike } from '@ariadne/egress';
import { PhaseClock } from '../timing.js';

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
  /** Opens runs' sealed secret variables (absent: no SECRETS_KEY, such runs end in error). */
  secretsBox?: SecretsBox | null;
  /**
   * What is told outside about a run (packages/suites notify): its start (GitHub
   * "pending"), its callbackUrl (signed, retried, answered with a summary for the report)
   * and its end (a suite's notifications once all its runs are done). Never fatal.
   */
  notify?: RunNotifier;
}

export interface RunNotifier {
  started(rec: RunRecord): void;
  callback(rec: RunRecord, report: RunReport): Promise<RunReport['callback']>;
  finished(rec: RunRecord): Promise<void>;
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

export function createRunProcessor(d: RunProcessorDeps) {
  return async (job: Job<RunJobData>, token?: string): Promise<{ status: string }> => {
    const id = job.data.runId;
    const clock = new PhaseClock();
    const rec = await d.store.get(id);
    // Deleted, expired, or cancelled while it waited: nothing to do.
    if (!rec || TERMINAL.includes(rec.status)) return { status: rec?.status ?? 'gone' };
    const attempt = rec.attempts + 1;
    const startedRec = await d.store.update(id, (r) => {
      r.status = 'running';
      r.startedAt = new Date().toISOString();
      r.node = d.nodeId;
      r.attempts = attempt;
    });
    if (startedRec) {
      try {
        d.notify?.started(startedRec);
      } catch { /* never fatal */ }
    }
    let partial: RunReport | null = null;
    let lastSave = 0;
    const saves: Promise<unknown>[] = [];
    // Sealed secrets are opened here, in memory only: the record keeps them sealed.
    let variables = rec.request.variables;
    let unsealError: AppError | null = null;
    if (rec.request.sealedSecrets) {
      try {
        if (!d.secretsBox) throw new Error('no SECRETS_KEY');
        variables = { ...variables, ...d.secretsBox.open(rec.request.sealedSecrets, runSecretsAad(rec.tenant)) };
      } catch {
        unsealError = new AppError('secrets_key_missing', 'The run\'s secrets do not open with this node\'s SECRETS_KEY (unset, or changed since the run was queued).', { setting: 'SECRETS_KEY' });
      }
    }
    // Secret values never reach Redis: events and reports are stored with {{NAME}} instead.
    const secretValues = secretVariables(variables, rec.request.secretNames);
    // run_finished is held back until the record says finished: a client that hears it and reads
    // the run must not find it still running (its status, report and finishedAt are saved first).
    let finishedEvent: RunEvent | null = null;
    const releaseFinished = async () => {
      if (finishedEvent) await d.store.appendEvent(id, scrubSecrets(finishedEvent, secretValues)).catch(() => {});
      finishedEvent = null;
    };
    const emit = (e: RunEvent) => {
      if (e.type === 'run_finished') {
        finishedEvent = e;
        return;
      }
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
      if (unsealError) throw unsealError;
      const plan = parsePlan(rec.request.plan, { variables });
      const specs: RoleSpec[] = plan.roles.map((name) => rec.request.roles?.find((r) => r.name === name) ?? { name });
      const secret = await d.store.secret(id);
      let planner = await d.planners(rec, secret, () => { throw new Error('no planner'); });
      if (rec.request.replayOf) {
        // Replay: the recorded actions first, the planner only for steps that no longer resolve.
        const original = await d.store.get(rec.request.replayOf);
        if (!original?.report) throw new AppError('run_not_found', `Run ${rec.request.replayOf} (replayed) has no report any more.`, { runId: rec.request.replayOf });
        planner = new ReplayPlanner(original.report, planner, variables ?? {});
      }
      // Wait for capacity like a queued session would, but not forever.
      const newSession = async (roles: RoleSpec[]) => {
        const deadline = Date.now() + 60_000;
        for (;;) {
          try {
            return (await d.sessions.create(rec.tenant, { roles, metadata: { runId: id } } as never)).id;
          } catch (err) {
            if (!isAppError(err) || err.code !== 'capacity_exhausted' || Date.now() > deadline || abort.signal.aborted) throw err;
            await sleep(500);
          }
        }
      };
      clock.lap('setup');
      sessionId = await newSession(specs);
      const live = await d.sessions.use(rec.tenant, sessionId);
      liveSession = live;
      clock.lap('lease');
      // A retry runs in new contexts that start from what each role had when the case began.
      const freshSession = async (start: CaseStart) => {
        const old = sessionId;
        const id2 = await newSession(specs.map((sp) => (start[sp.name]?.storageState ? { ...sp, storageState: start[sp.name].storageState } : sp) as RoleSpec));
        sessionId = id2;
        const next = await d.sessions.use(rec.tenant, id2);
        liveSession = next;
        if (old) await d.sessions.end(old, 'closed', 'case_retry').catch(() => {});
        return liveFlowSession(next);
      };
      const retries = rec.request.options?.retries ?? 0;
      const settings = { ...settingsFor(d.settings, rec), secrets: secretValues, mail: d.mail?.(rec.tenant) ?? null, ...(d.fetch ? { outboundFetch: d.fetch } : {}) };
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
        ...(retries > 0 ? { retries, freshSession } : {}),
      });
      report = await runPromise;
      clock.lap('flow');
    } catch (err) {
      const e = errorOf(err);
      report = partial ?? {
        runId: id, url: rec.request.url, planner: rec.request.planner, status: 'error', startedAt: new Date().toISOString(),
        durationMs: 0, cases: [], totals: emptyTotals(),
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
      clock.lap('release');
    }
    report = scrubSecrets(report, secretValues);
    // (The session knows it was ended before the event about it goes out.)
    const endedByShutdown = cutByShutdown || (liveSession as { ended: { reason: string } | null } | null)?.ended?.reason === 'server_shutdown';
    // While this node shuts down, any run that did not pass may have failed because of it (its
    // start page aborted as the contexts closed, a step lost its page): hand it back rather than
    // report a failure the deploy did not cause. A run that really fails fails again elsewhere.
    const cutWhileStopping = d.shuttingDown?.() === true && report.status !== 'passed' && report.status !== 'cancelled';
    if (endedByShutdown || cutWhileStopping) {
      // Cut short by this node's shutdown: keep the partial report, leave the run to be
      // resumed elsewhere (the job's lock lapses and another worker takes it over).
      await Promise.all(saves);
      await d.store.update(id, (r) => { r.report = report; });
      await releaseFinished();
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
    if (rec.request.callbackUrl && d.notify) {
      const summary = await d.notify.callback(rec, report).catch(() => undefined);
      if (summary) report.callback = summary;
    }
    await Promise.all(saves);
    const finished = await d.store.update(id, (r) => {
      r.status = report.status;
      r.report = report;
      r.finishedAt = report.finishedAt ?? new Date().toISOString();
      if (report.error) r.error = report.error;
    });
    await releaseFinished();
    if (finished && d.notify) await d.notify.finished(finished).catch((err) => d.logger?.warn({ runId: id, err: (err as Error).message }, 'run notifications failed'));
    clock.lap('store');
    clock.done('run', id);
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
  await store.appendEvent(id, { type: 'run_finished', status: 'error', totals: (await store.get(id))?.report?.totals ?? emptyTotals(), durationMs: 0 }).catch(() => {});
}
