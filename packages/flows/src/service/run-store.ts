import type { Redis } from 'ioredis';
import { withRedis } from '@ariadne/cluster';
import { AppError } from '@ariadne/schema';
import type { RoleSpec } from '@ariadne/schema';
import type { RunEvent, RunReport, RunStatus, StepError } from '../types.js';

// Runs live in Redis (AOF, so they survive a restart of Redis and of the workers):
// one JSON record per run, a per-tenant index by creation time, and a Redis stream of
// numbered events per run, which is what live streams and replays read, from any node.

export interface RunOptions {
  trace?: boolean;
  screenshots?: boolean;
  maxStepsPerCase?: number;
  maxTurnsPerCase?: number;
  maxTokensPerCase?: number;
  maxTokensPerRun?: number;
  caseTimeoutSeconds?: number;
  runTimeoutSeconds?: number;
}

export interface RunRequest {
  url: string;
  plan: string;
  planner: string;
  model?: string;
  baseUrl?: string;
  variables?: Record<string, string>;
  /** Variables that are secret whatever their names (a suite's secrets): redacted like PASSWORD. */
  secretNames?: string[];
  roles?: RoleSpec[];
  callbackUrl?: string;
  replayOf?: string;
  options?: RunOptions;
  /** Set when a saved suite started this run (issue 13). */
  suite?: { id: string; plan: string; trigger?: Record<string, string> };
}

export interface RunRecord {
  id: string;
  tenant: string;
  status: RunStatus;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  updatedAt: string;
  node?: string;
  attempts: number;
  request: RunRequest;
  report?: RunReport;
  error?: StepError;
}

export type StoredEvent = RunEvent & { seq: number; time: string };

export const TERMINAL: RunStatus[] = ['passed', 'failed', 'error', 'cancelled'];

export class RunStore {
  constructor(readonly redis: Redis, readonly prefix: string, readonly retentionSeconds: number) {}

  private key(id: string) {
    return `${this.prefix}run:${id}`;
  }
  private eventsKey(id: string) {
    return `${this.prefix}run:${id}:events`;
  }
  private seqKey(id: string) {
    return `${this.prefix}run:${id}:seq`;
  }
  private cancelKey(id: string) {
    return `${this.prefix}run:${id}:cancel`;
  }
  private indexKey(tenant: string) {
    return `${this.prefix}runs:${tenant}`;
  }
  /** Secrets of a run (model API key): kept apart from the record, never served. */
  private secretKey(id: string) {
    return `${this.prefix}run:${id}:secret`;
  }

  async create(rec: RunRecord, secret?: { apiKey?: string }): Promise<void> {
    await withRedis(async () => {
      const m = this.redis.multi();
      m.set(this.key(rec.id), JSON.stringify(rec), 'EX', this.retentionSeconds);
      m.zadd(this.indexKey(rec.tenant), Date.parse(rec.createdAt), rec.id);
      // Index entries of expired runs are dropped as lists go past them.
      m.expire(this.indexKey(rec.tenant), this.retentionSeconds);
      if (secret?.apiKey) m.set(this.secretKey(rec.id), JSON.stringify(secret), 'EX', this.retentionSeconds);
      await m.exec();
    });
  }

  async get(id: string): Promise<RunRecord | null> {
    const raw = await withRedis(() => this.redis.get(this.key(id)));
    return raw ? (JSON.parse(raw) as RunRecord) : null;
  }

  /** The tenant's run, or 404 (another tenant's run is not found, not forbidden). */
  async getFor(tenant: string, id: string): Promise<RunRecord> {
    const rec = /^[\w-]{1,64}$/.test(id) ? await this.get(id) : null;
    if (!rec || rec.tenant !== tenant) throw new AppError('run_not_found', `No run ${id}.`, { runId: id });
    return rec;
  }

  async secret(id: string): Promise<{ apiKey?: string }> {
    const raw = await withRedis(() => this.redis.get(this.secretKey(id)));
    return raw ? (JSON.parse(raw) as { apiKey?: string }) : {};
  }

  /** Read-modify-write of one record (a run is written by one worker at a time). */
  async update(id: string, fn: (rec: RunRecord) => RunRecord | void): Promise<RunRecord | null> {
    const rec = await this.get(id);
    if (!rec) return null;
    const next = fn(rec) ?? rec;
    next.updatedAt = new Date().toISOString();
    await withRedis(() => this.redis.set(this.key(id), JSON.stringify(next), 'EX', this.retentionSeconds));
    return next;
  }

  async list(tenant: string, opts: { status?: RunStatus; limit: number }): Promise<RunRecord[]> {
    const out: RunRecord[] = [];
    // Bounded: look at the 1,000 most recent runs at most.
    const ids = await withRedis(() => this.redis.zrevrange(this.indexKey(tenant), 0, 999));
    for (let i = 0; i < ids.length && out.length < opts.limit; i += 100) {
      const chunk = ids.slice(i, i + 100);
      const raws = await withRedis(() => this.redis.mget(chunk.map((id) => this.key(id))));
      const gone: string[] = [];
      raws.forEach((raw, j) => {
        if (!raw) return void gone.push(chunk[j]);
        const rec = JSON.parse(raw) as RunRecord;
        if (out.length < opts.limit && (!opts.status || rec.status === opts.status)) out.push(rec);
      });
      if (gone.length) await withRedis(() => this.redis.zrem(this.indexKey(tenant), ...gone)).catch(() => {});
    }
    return out;
  }

  async appendEvent(id: string, e: RunEvent): Promise<StoredEvent> {
    return withRedis(async () => {
      const seq = await this.redis.incr(this.seqKey(id));
      const full = { seq, time: new Date().toISOString(), ...e } as StoredEvent;
      const m = this.redis.multi();
      // The stream id carries the sequence number, so ?since=N reads from N+1.
      m.xadd(this.eventsKey(id), 'MAXLEN', '~', '20000', `${seq}-1`, 'e', JSON.stringify(full));
      m.expire(this.eventsKey(id), this.retentionSeconds);
      m.expire(this.seqKey(id), this.retentionSeconds);
      await m.exec();
      return full;
    });
  }

  /** Events after `since`, oldest first, at most `count`. */
  async events(id: string, since: number, count = 1000): Promise<StoredEvent[]> {
    const rows = await withRedis(() => this.redis.xrange(this.eventsKey(id), `${since + 1}-0`, '+', 'COUNT', count));
    return rows.map(([, fields]) => JSON.parse(fields[1]) as StoredEvent);
  }

  /** Block up to blockMs for events after `since` (needs a connection of its own). */
  static async waitEvents(conn: Redis, prefix: string, id: string, since: number, blockMs: number): Promise<StoredEvent[]> {
    const res = (await conn.xread('COUNT', 500, 'BLOCK', blockMs, 'STREAMS', `${prefix}run:${id}:events`, `${since}-1`)) as [string, [string, string[]][]][] | null;
    if (!res) return [];
    return res[0][1].map(([, fields]) => JSON.parse(fields[1]) as StoredEvent);
  }

  async requestCancel(id: string): Promise<void> {
    await withRedis(() => this.redis.set(this.cancelKey(id), '1', 'EX', this.retentionSeconds));
  }

  async cancelRequested(id: string): Promise<boolean> {
    return (await this.redis.exists(this.cancelKey(id))) === 1;
  }
}
