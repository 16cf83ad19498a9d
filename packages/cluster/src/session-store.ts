import type { Redis } from 'ioredis';
import type { SessionStatus } from '@ariadne/schema';
import { withRedis } from './redis.js';

// The cluster-wide session directory. Records live in Redis so any node can answer
// for any session (who owns it, which tenant, is it still alive); the live browser
// objects stay in the owning node's process.

export interface RoleRecord {
  name: string;
  viewport: { width: number; height: number };
}

export interface SessionRecord {
  id: string;
  tenant: string;
  status: SessionStatus;
  node: string;
  createdAt: string;
  lastUsedAt: string;
  expiresAt: string;
  idleTimeoutSeconds: number;
  metadata?: Record<string, string>;
  roles: RoleRecord[];
  endedAt?: string;
  endReason?: string;
}

export interface SessionStoreOptions {
  prefix?: string;
  /** How long an ended session's record is kept, so late calls get 410 rather than 404. */
  endedRetentionSeconds?: number;
}

export class SessionStore {
  private readonly prefix: string;
  private readonly retention: number;

  constructor(private readonly redis: Redis, opts: SessionStoreOptions = {}) {
    this.prefix = opts.prefix ?? 'ariadne:';
    this.retention = opts.endedRetentionSeconds ?? 3600;
  }

  private key(id: string) { return `${this.prefix}session:${id}`; }
  private tenantKey(tenant: string) { return `${this.prefix}tenant:${tenant}:sessions`; }
  private nodeKey(node: string) { return `${this.prefix}node:${node}:sessions`; }

  async create(rec: SessionRecord): Promise<void> {
    await withRedis(() =>
      this.redis
        .multi()
        .set(this.key(rec.id), JSON.stringify(rec))
        .sadd(this.tenantKey(rec.tenant), rec.id)
        .sadd(this.nodeKey(rec.node), rec.id)
        .exec()
        .then(assertExec),
    );
  }

  async get(id: string): Promise<SessionRecord | null> {
    const raw = await withRedis(() => this.redis.get(this.key(id)));
    return raw ? (JSON.parse(raw) as SessionRecord) : null;
  }

  async put(rec: SessionRecord): Promise<void> {
    await withRedis(() => this.redis.set(this.key(rec.id), JSON.stringify(rec), 'KEEPTTL'));
  }

  /** Mark a session ended: it leaves the active indexes and its record expires later. */
  async end(rec: SessionRecord, status: Exclude<SessionStatus, 'active'>, reason: string): Promise<SessionRecord> {
    const ended: SessionRecord = { ...rec, status, endedAt: new Date().toISOString(), endReason: reason };
    await withRedis(() =>
      this.redis
        .multi()
        .set(this.key(rec.id), JSON.stringify(ended), 'EX', this.retention)
        .srem(this.tenantKey(rec.tenant), rec.id)
        .srem(this.nodeKey(rec.node), rec.id)
        .exec()
        .then(assertExec),
    );
    return ended;
  }

  async listByTenant(tenant: string): Promise<SessionRecord[]> {
    return this.listFromSet(this.tenantKey(tenant));
  }

  async listByNode(node: string): Promise<SessionRecord[]> {
    return this.listFromSet(this.nodeKey(node));
  }

  /** Every active session of every node (startup recovery; cluster listing). */
  async listAll(): Promise<SessionRecord[]> {
    return withRedis(async () => {
      const out: SessionRecord[] = [];
      let cursor = '0';
      do {
        const [next, keys] = await this.redis.scan(cursor, 'MATCH', `${this.prefix}node:*:sessions`, 'COUNT', 200);
        cursor = next;
        for (const k of keys) out.push(...(await this.listFromSet(k)));
      } while (cursor !== '0');
      return out;
    });
  }

  private async listFromSet(setKey: string): Promise<SessionRecord[]> {
    return withRedis(async () => {
      const ids = await this.redis.smembers(setKey);
      if (ids.length === 0) return [];
      const raws = await this.redis.mget(ids.map((id) => this.key(id)));
      const out: SessionRecord[] = [];
      const dangling: string[] = [];
      raws.forEach((raw, i) => (raw ? out.push(JSON.parse(raw) as SessionRecord) : dangling.push(ids[i])));
      if (dangling.length) await this.redis.srem(setKey, ...dangling);
      return out.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    });
  }
}

function assertExec(res: [Error | null, unknown][] | null): void {
  if (!res) throw new Error('Redis transaction aborted');
  for (const [err] of res) if (err) throw err;
}
