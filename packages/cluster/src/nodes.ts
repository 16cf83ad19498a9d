import type { Redis } from 'ioredis';
import { withRedis } from './redis.js';

// Nodes announce themselves (id, internal URL, capacity, load) with a heartbeat. A
// node is alive while its last heartbeat is younger than the TTL; requests for a
// session owned by another live node are forwarded to that node's URL.

export interface NodeInfo {
  id: string;
  url: string;
  capacity: number;
  leased: number;
  sessions: number;
  startedAt: string;
  heartbeatAt: string;
}

export class NodeRegistry {
  private readonly zkey: string;
  private readonly hkey: string;

  constructor(private readonly redis: Redis, prefix: string, readonly ttlMs: number) {
    this.zkey = `${prefix}nodes`;
    this.hkey = `${prefix}node-info`;
  }

  async heartbeat(info: Omit<NodeInfo, 'heartbeatAt'>): Promise<void> {
    const now = Date.now();
    const full: NodeInfo = { ...info, heartbeatAt: new Date(now).toISOString() };
    await withRedis(() => this.redis.multi().zadd(this.zkey, now + this.ttlMs, info.id).hset(this.hkey, info.id, JSON.stringify(full)).exec());
  }

  async remove(id: string): Promise<void> {
    await withRedis(() => this.redis.multi().zrem(this.zkey, id).hdel(this.hkey, id).exec());
  }

  async get(id: string): Promise<(NodeInfo & { alive: boolean }) | null> {
    return withRedis(async () => {
      const [[, score], [, raw]] = (await this.redis.multi().zscore(this.zkey, id).hget(this.hkey, id).exec()) as [
        [Error | null, string | null],
        [Error | null, string | null],
      ];
      if (!raw) return null;
      return { ...(JSON.parse(raw) as NodeInfo), alive: score !== null && Number(score) > Date.now() };
    });
  }

  async alive(): Promise<NodeInfo[]> {
    return withRedis(async () => {
      const ids = await this.redis.zrangebyscore(this.zkey, Date.now(), '+inf');
      if (ids.length === 0) return [];
      const raws = await this.redis.hmget(this.hkey, ...ids);
      return raws.filter((r): r is string => Boolean(r)).map((r) => JSON.parse(r) as NodeInfo);
    });
  }

  /** Nodes whose heartbeat stopped more than graceMs ago: forgotten. */
  async reapDead(graceMs: number): Promise<string[]> {
    return withRedis(async () => {
      const ids = await this.redis.zrangebyscore(this.zkey, '-inf', Date.now() - graceMs);
      for (const id of ids) await this.redis.multi().zrem(this.zkey, id).hdel(this.hkey, id).exec();
      return ids;
    });
  }
}
