import { getNextMillis, Queue, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUES } from '@ariadne/cluster';
import { AppError, isAppError } from '@ariadne/schema';
import { launchSuite, type RunSubmitter } from './launch.js';
import type { SuiteRun, SuiteStore } from './store.js';

// Suite schedules (synthetic monitoring): one BullMQ job scheduler per scheduled suite,
// keyed by the suite's id. The scheduler lives in Redis, so it survives restarts of
// every node, and BullMQ produces ONE job per tick (its id is repeat:<scheduler>:<tick
// millis>) which ONE worker takes, however many nodes run workers. Suite create/update
// upserts it, delete (or removing `schedule`) removes it; a tick for a suite that is
// gone or no longer scheduled that way removes the scheduler itself.

export interface SuiteSchedule {
  /** Cron expression, 5 fields (minute hour day month weekday) or 6 with seconds first. */
  cron: string;
  /** IANA time zone the expression is read in (default UTC). */
  timezone?: string;
}

export interface ScheduleJobData {
  suiteId: string;
  tenant: string;
}

/** The minimum interval between two ticks, unless the operator lowers it (tests only). */
export const DEFAULT_MIN_SCHEDULE_SECONDS = 60;
/** Gaps looked at to find the shortest interval of an expression. */
const GAPS_CHECKED = 30;

export const schedulerIdOf = (suiteId: string) => `suite:${suiteId}`;

/**
 * A schedule BullMQ can run and that does not fire more often than minSeconds: parsed
 * by the same parser (and options) BullMQ's scheduler uses. Throws invalid_schedule.
 */
export function checkSchedule(s: SuiteSchedule, minSeconds: number, now = Date.now()): void {
  const cron = s.cron.trim().replace(/\s+/g, ' ');
  const fields = cron.split(' ').length;
  if (fields < 5 || fields > 6) {
    throw new AppError('invalid_schedule', `schedule.cron "${s.cron.slice(0, 100)}" must have 5 fields (minute hour day month weekday) or 6 (seconds first).`, { field: 'schedule.cron' });
  }
  if (s.timezone !== undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: s.timezone });
    } catch {
      throw new AppError('invalid_schedule', `schedule.timezone "${s.timezone.slice(0, 100)}" is not an IANA time zone (e.g. Europe/Paris).`, { field: 'schedule.timezone' });
    }
  }
  const opts = { pattern: cron, ...(s.timezone ? { tz: s.timezone } : {}) };
  const ticks: number[] = [];
  try {
    let t = now;
    for (let i = 0; i <= GAPS_CHECKED; i++) {
      const next = getNextMillis(t, opts);
      if (typeof next !== 'number' || !Number.isFinite(next)) break;
      ticks.push(next);
      t = next;
    }
  } catch (err) {
    throw new AppError('invalid_schedule', `schedule.cron "${s.cron.slice(0, 100)}" is not a valid cron expression: ${(err as Error).message}.`, { field: 'schedule.cron' });
  }
  if (ticks.length < 2) throw new AppError('invalid_schedule', `schedule.cron "${s.cron.slice(0, 100)}" never fires again.`, { field: 'schedule.cron' });
  let shortest = Infinity;
  for (let i = 1; i < ticks.length; i++) shortest = Math.min(shortest, ticks[i] - ticks[i - 1]);
  if (shortest < minSeconds * 1000) {
    throw new AppError('invalid_schedule', `schedule.cron "${s.cron.slice(0, 100)}" fires every ${shortest / 1000} s at times; a suite runs at most once every ${minSeconds} s.`, { field: 'schedule.cron', minSeconds, shortestSeconds: shortest / 1000 });
  }
}

/** Declares and removes suites' job schedulers on the schedules queue. */
export class SuiteScheduler {
  private queue: Queue | null = null;

  constructor(private readonly connection: () => Redis, private readonly bullPrefix: string) {}

  private q(): Queue {
    if (!this.queue) {
      this.queue = new Queue(QUEUES.schedules, { connection: this.connection(), prefix: this.bullPrefix });
      this.queue.on('error', () => {});
    }
    return this.queue;
  }

  /** Makes the suite's job scheduler match its schedule (upsert, or remove when none). */
  async sync(suite: { id: string; tenant: string; schedule?: SuiteSchedule }): Promise<void> {
    try {
      if (!suite.schedule) {
        await this.q().removeJobScheduler(schedulerIdOf(suite.id));
        return;
      }
      const data: ScheduleJobData = { suiteId: suite.id, tenant: suite.tenant };
      await this.q().upsertJobScheduler(
        schedulerIdOf(suite.id),
        { pattern: suite.schedule.cron.trim().replace(/\s+/g, ' '), ...(suite.schedule.timezone ? { tz: suite.schedule.timezone } : {}) },
        { name: 'suite-tick', data, opts: { attempts: 1, removeOnComplete: { count: 1000 }, removeOnFail: { count: 1000 } } },
      );
    } catch (err) {
      throw new AppError('redis_unavailable', `The suite was saved but its schedule could not be updated; save it again shortly (${(err as Error).message}).`, { suiteId: suite.id });
    }
  }

  async remove(suiteId: string): Promise<void> {
    await this.q().removeJobScheduler(schedulerIdOf(suiteId));
  }

  /** The scheduler's next tick (ms), or null when the suite has none. */
  async next(suiteId: string): Promise<number | null> {
    const s = await this.q().getJobScheduler(schedulerIdOf(suiteId));
    return s?.next ?? null;
  }

  async close(): Promise<void> {
    await this.queue?.close().catch(() => {});
  }
}

export interface ScheduleProcessorDeps {
  store: SuiteStore;
  runs: RunSubmitter;
  scheduler: SuiteScheduler;
  logger?: { info(o: object, m?: string): void; warn(o: object, m?: string): void };
  /** Told once the suite run is recorded (its runs may all be done by then: notify/). */
  onRecorded?: (run: SuiteRun) => void;
}

/** The processor of the schedules queue: one tick, one suite run (trigger type "schedule"). */
export function createScheduleProcessor(d: ScheduleProcessorDeps) {
  return async (job: Job<ScheduleJobData>): Promise<{ status: string; suiteRun?: string }> => {
    const { suiteId, tenant } = job.data;
    const suite = await d.store.load(suiteId);
    if (!suite || suite.tenant !== tenant || !suite.schedule) {
      // Deleted or unscheduled while a tick was already queued: stop the scheduler too.
      await d.scheduler.remove(suiteId).catch(() => {});
      return { status: 'unscheduled' };
    }
    const tick = Number(job.opts.prevMillis ?? job.timestamp);
    // A job retried after a worker died mid-launch must not start a second suite run.
    if (!(await d.store.claimTick(suiteId, tick))) {
      d.logger?.warn({ suiteId, tick }, 'schedule tick already started: nothing started twice');
      return { status: 'duplicate' };
    }
    try {
      const run = await launchSuite(d.store, d.runs, suite, {
        trigger: { type: 'schedule', scheduledFor: new Date(tick).toISOString() },
        ...(d.onRecorded ? { onRecorded: d.onRecorded } : {}),
      });
      d.logger?.info({ suiteId, suiteRun: run.id, runs: run.runs.length }, 'scheduled suite run started');
      return { status: 'started', suiteRun: run.id };
    } catch (err) {
      // A quota reached or a key missing: the tick is skipped (logged), the schedule goes on.
      const code = isAppError(err) ? err.code : 'internal_error';
      d.logger?.warn({ suiteId, code, err: (err as Error).message }, 'scheduled suite run not started');
      return { status: 'refused' };
    }
  };
}
