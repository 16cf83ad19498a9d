import { Redis } from 'ioredis';

// BullMQ set-up shared by every queue of the service: names, the key prefix, and
// connections. BullMQ's blocking commands need connections that never give up on a
// request (maxRetriesPerRequest: null) — unlike the fail-fast client the HTTP paths use.

export const QUEUES = {
  /** Session creation requests waiting for a free context slot anywhere in the cluster. */
  admission: 'admission',
  /** Cluster housekeeping (lease and node reaping), run by whichever worker is free. */
  maintenance: 'maintenance',
  /** Flow runs (natural-language smoke tests). */
  runs: 'runs',
  /** Suite schedules: BullMQ job schedulers (one per scheduled suite) produce one job per tick. */
  schedules: 'suite-schedules',
} as const;

export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix.replace(/:$/, '')}:bull`;
}

export function bullConnection(url: string): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: null,
    enableOfflineQueue: true,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), 2000),
  });
  client.on('error', () => {});
  return client;
}
