#!/usr/bin/env node
import { createRedis } from '@ariadne/cluster';
import { startWorkers } from './workers.js';
import { createWorkerLogger } from './logger.js';

// Standalone worker process: `REDIS_URL=redis://... node apps/worker/dist/main.js`.
// Run it when the servers use WORKER_MODE=off. It reads the same variables as the
// server (REDIS_URL, REDIS_PREFIX, LEASE_TTL_MS, HEARTBEAT_MS, REAP_INTERVAL_MS,
// SHUTDOWN_TIMEOUT_MS, LOG_LEVEL).

function int(name: string, def: number): number {
  const raw = process.env[name];
  if (!raw) return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    process.stderr.write(`${name}=${raw} must be a positive integer\n`);
    process.exit(2);
  }
  return n;
}

async function main(): Promise<void> {
  const redisUrl = process.env.REDIS_URL;
  if (!redisUrl) {
    process.stderr.write('The standalone worker needs REDIS_URL (the Redis the servers use).\n');
    process.exit(2);
  }
  const logger = createWorkerLogger();
  const redis = createRedis(redisUrl, { enableOfflineQueue: true, maxRetriesPerRequest: 3 });
  await redis.connect();
  const heartbeatMs = int('HEARTBEAT_MS', 2000);
  const host = await startWorkers({
    redisUrl,
    redis,
    redisPrefix: process.env.REDIS_PREFIX || 'ariadne:',
    leaseTtlMs: int('LEASE_TTL_MS', 10_000),
    graceMs: heartbeatMs * 2,
    reapIntervalMs: int('REAP_INTERVAL_MS', 2000),
    jobLockMs: int('JOB_LOCK_MS', 30_000),
    shutdownMs: int('SHUTDOWN_TIMEOUT_MS', 15_000),
    logger,
  });
  logger.info({ queues: host.workers.map((w) => w.name) }, 'worker ready');
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'worker shutting down');
    host.close().then(() => { redis.disconnect(); process.exit(0); }, () => process.exit(1));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
