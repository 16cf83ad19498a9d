import { Redis, type RedisOptions } from 'ioredis';
import { AppError } from '@ariadne/schema';

// One place that says how the service talks to Redis: fail fast when Redis is down
// (a request gets 503 redis_unavailable at once instead of hanging in an offline
// queue) and reconnect forever in the background, so the service recovers by itself.

export function createRedis(url: string, extra: RedisOptions = {}): Redis {
  const client = new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 6), 2000),
    lazyConnect: true,
    ...extra,
  });
  // ioredis emits 'error' on every failed reconnect; without a listener Node would crash.
  client.on('error', () => {});
  return client;
}

/** Wrap a Redis call: connection-level failures become a 503 with a stable code. */
export async function withRedis<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) throw err;
    const msg = err instanceof Error ? err.message : String(err);
    if (/Connection is closed|ECONNREFUSED|ETIMEDOUT|Stream isn't writeable|enableOfflineQueue|MaxRetriesPerRequest|connect|LOADING/i.test(msg)) {
      throw new AppError('redis_unavailable', 'Redis is unreachable; retry shortly.', { cause: msg });
    }
    throw err;
  }
}
