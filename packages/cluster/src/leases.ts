import type { Redis } from 'ioredis';
import { withRedis } from './redis.js';

// Every browser context held anywhere in the cluster is a lease in Redis: a member of
// one sorted set scored by its expiry time, renewed by its node's heartbeat. The
// cluster's used-slot count is the number of unexpired leases, so it cannot drift
// from the live contexts: a lease is added with its context and removed with it, and
// a node that dies stops renewing, so its leases expire and are reaped.

export interface LeaseInfo {
  id: string;
  node: string;
  sessionId: string;
  role: string;
  tenant: string;
}

export class LeaseRegistry {
  private readonly zkey: string;
  private readonly hkey: string;

  constructor(private readonly redis: Redis, prefix: string, readonly ttlMs: number) {
    this.zkey = `${prefix}leases`;
    this.hkey = `${prefix}lease-info`;
  }

  async add(lease: LeaseInfo): Promise<void> {
    await withRedis(() =>
      this.redis.multi().zadd(this.zkey, Date.now() + this.ttlMs, lease.id).hset(this.hkey, lease.id, JSON.stringify(lease)).exec(),
    );
  }

  async remove(id: string): Promise<void> {
    await withRedis(() => this.redis.multi().zrem(this.zkey, id).hdel(this.hkey, id).exec());
  }

  /**
   * Heartbeat: push the expiry of this node's leases forward. ZADD (not XX) so leases
   * come back after a Redis restart that lost them; info is rewritten for the same reason.
   */
  async renew(leases: LeaseInfo[]): Promise<void> {
    if (leases.length === 0) return;
    const expiry = Date.now() + this.ttlMs;
    const m = this.redis.multi();
    for (const l of leases) m.zadd(this.zkey, expiry, l.id).hset(this.hkey, l.id, JSON.stringify(l));
    await withRedis(() => m.exec());
  }

  /** Leases in use cluster-wide: the ones not yet expired. */
  async count(): Promise<number> {
    return withRedis(() => this.redis.zcount(this.zkey, Date.now(), '+inf'));
  }

  async all(): Promise<LeaseInfo[]> {
    return withRedis(async () => {
      const raw = await this.redis.hvals(this.hkey);
      return raw.map((r) => JSON.parse(r) as LeaseInfo);
    });
  }

  /**
   * Take the leases that expired more than `graceMs` ago out of the set, atomically
   * per lease (ZREM answers 1 for exactly one caller), and return their info.
   */
  async reapExpired(graceMs: number): Promise<LeaseInfo[]> {
    return withRedis(async () => {
      const ids = await this.redis.zrangebyscore(this.zkey, '-inf', Date.now() - graceMs, 'LIMIT', 0, 1000);
      const out: LeaseInfo[] = [];
      for (const id of ids) {
        const [[, removed], [, info]] = (await this.redis.multi().zrem(this.zkey, id).hget(this.hkey, id).exec()) as [
          [Error | null, number],
          [Error | null, string | null],
        ];
        if (removed === 1) {
          await this.redis.hdel(this.hkey, id);
          if (info) out.push(JSON.parse(info) as LeaseInfo);
        }
      }
      // Info rows whose lease is gone (a crash between the two writes) are dropped too.
      return out;
    });
  }
}
