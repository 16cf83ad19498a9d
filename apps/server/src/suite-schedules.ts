import type { Processor } from 'bullmq';
import { bullPrefix } from '@ariadne/cluster';
import { createScheduleProcessor, SuiteScheduler, SuiteStore, type ScheduleProcessorDeps } from '@ariadne/suites';
import type { ServerDeps } from './deps.js';
import { createRunService, quotaSubmitter } from './routes/runs.js';
import { createNotifier } from './routes/suites.js';

// The worker side of suite schedules: each node's worker host takes schedule ticks from
// the shared queue (one job per tick, one worker per job) and starts the suite's runs
// through the same quota-counted path as POST /v1/suites/:id/runs.

export function suiteScheduleProcessor(deps: ServerDeps, logger?: ScheduleProcessorDeps['logger']): { processor: Processor; close(): Promise<void> } {
  const { config } = deps;
  const { store, runs } = createRunService(deps);
  const scheduler = new SuiteScheduler(() => {
    const conn = deps.redis.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: false });
    conn.on('error', () => {});
    return conn;
  }, bullPrefix(config.redisPrefix));
  const suites = new SuiteStore(deps.redis, config.redisPrefix, config.suites.secretsKey);
  // A suite run whose runs all finish before it is recorded is notified from here.
  const notifier = createNotifier({ ...deps, ...(logger ? { logger: logger as never } : {}) }, suites, store);
  const processor = createScheduleProcessor({
    store: suites,
    onRecorded: (run) => notifier.launched(run),
    runs: quotaSubmitter(deps, store, runs),
    scheduler,
    ...(logger ? { logger } : {}),
  });
  return {
    processor: processor as Processor,
    async close() {
      await runs.close();
      await scheduler.close();
      await notifier.idle();
    },
  };
}
