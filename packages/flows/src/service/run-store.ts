import type { Redis } from 'ioredis';
import { withRedis } from '@ariadne/cluster';
import { AppError } from '@ariadne/schema';
import type { RoleSpec } from '@ariadne/schema';
import type { RunEvent, RunReport, RunStatus, StepError } from '../types.js';
import { SECRET_NAME } from '../tools.js';

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
  /** A failed case is tried again this many times in a fresh context (0-3); passing then is "flaky". */
  retries?: number;
}

/** Most retries a run may ask for: each one can take a whole case's time again. */
export const MAX_RETRIES = 3;

/**
 * One outbound delivery about a run (its callbackUrl, a suite's notify targets, a GitHub
 * commit status), with every attempt: when, how long, the answer or the error. Never the
 * secret, never a token; URLs that are credentials themselves (Slack) are shown masked.
 */
export interface DeliveryRecord {
  kind: 'callback' | 'webhook' | 'slack' | 'github_status';
  /** What was delivered: the run's final report, a suite run's result, a commit state. */
  event: string;
  url: string;
  delivered: boolean;
  attempts: { at: string; durationMs: number; status?: number; error?: string }[];
  /** For GitHub statuses: the state posted (pending, success, failure, error). */
  state?: string;
  suiteRun?: string;
}

/** Secrets of a run kept apart from its record: a model API key, the callback signing secret. */
export interface RunSecret {
  apiKey?: string;
  callbackSecret?: string;
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
  /**
   * The values of secret variables given apart (a suite's secrets), sealed with the
   * service's SECRETS_KEY: never in clear in Redis, opened by the worker running the run.
   */
  sealedSecrets?: unknown;
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

/** Seals and opens a run's secret variables (AES-256-GCM with SECRETS_KEY, bound to the tenant). */
export interface SecretsBox {
  seal(values: Record<string, string>, aad: string): unknown;
  open(sealed: unknown, aad: string): Record<string, string>;
}

export const runSecretsAad = (tenant: string) => `run-secrets:${tenant}`;
/** A run's own secrets (API key, callback secret) are bound to the run: not movable to another. */
const runSecretAad = (runId: string) => `run-secret:${runId}`;

export type StoredEvent = RunEvent & { seq: number; time: string };

export const TERMINAL: RunStatus[] = ['passed', 'failed', 'error', 'cancelled'];

export class RunStore {
  /**
   * With a `box` (SECRETS_KEY set), a run's secrets (model API key, callback secret) are
   * sealed at rest, bound to the run's id; without one they are stored as given.
   */
  constructor(readonly redis: Redis, readonly prefix: string, readonly retentionSeconds: number, private readonly box: SecretsBox | null = null) {}

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
  /** Secrets of a run (model API key, callback secret): kept apart from the record, never served. */
  private secretKey(id: string) {
    return `${this.prefix}run:${id}:secret`;
  }
  private deliveriesKey(id: string) {
    return `${this.prefix}run:${id}:deliveries`;
  }

  /**
   * The record as stored: with a box, variables that are secret (named like PASSWORD,
   * TOKEN, KEY..., or listed in secretNames) join the run's sealed secrets, so no secret
   * value is in clear in Redis; the worker opens them with the rest.
   */
  private sealedForStorage(rec: RunRecord): RunRecord {
    const vars = rec.request.variables;
    if (!this.box || !vars) return rec;
    const names = new Set(rec.request.secretNames ?? []);
    const secret = Object.entries(vars).filter(([k]) => SECRET_NAME.test(k) || names.has(k));
    if (!secret.length) return rec;
    const aad = runSecretsAad(rec.tenant);
    const sealedBefore = rec.request.sealedSecrets ? this.box.open(rec.request.sealedSecrets, aad) : {};
    const plain = Object.fromEntries(Object.entries(vars).filter(([k]) => !(SECRET_NAME.test(k) || names.has(k))));
    const request: RunRequest = {
      ...rec.request,
      variables: plain,
      secretNames: [...new Set([...names, ...secret.map(([k]) => k)])],
      sealedSecrets: this.box.seal({ ...Object.fromEntries(secret), ...sealedBefore }, aad),
    };
    if (!Object.keys(plain).length) delete request.variables;
    return { ...rec, request };
  }

  async create(rec: RunRecord, secret?: RunSecret): Promise<void> {
    const stored = this.sealedForStorage(rec);
    await withRedis(async () => {
      const m = this.redis.multi();
      m.set(this.key(rec.id), JSON.stringify(stored), 'EX', this.retentionSeconds);
      m.zadd(this.indexKey(rec.tenant), Date.parse(rec.createdAt), rec.id);
      // Index entries of expired runs are dropped as lists go past them.
      m.expire(this.indexKey(rec.tenant), this.retentionSeconds);
      if (secret?.apiKey || secret?.callbackSecret) {
        const values = Object.fromEntries(Object.entries(secret).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
        const stored = this.box ? { sealed: this.box.seal(values, runSecretAad(rec.id)) } : values;
        m.set(this.secretKey(rec.id), JSON.stringify(stored), 'EX', this.retentionSeconds);
      }
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

  async secret(id: string): Promise<RunSecret> {
    const raw = await withRedis(() => this.redis.get(this.secretKey(id)));
    if (!raw) return {};
    const stored = JSON.parse(raw) as RunSecret & { sealed?: unknown };
    if (stored.sealed === undefined) return stored;
    // Sealed with another key (SECRETS_KEY changed, or unset on this node): the run goes without.
    if (!this.box) throw new AppError('secrets_key_missing', 'This run\'s secrets are sealed and this node has no SECRETS_KEY to open them.', { setting: 'SECRETS_KEY' });
    return this.box.open(stored.sealed, runSecretAad(id)) as RunSecret;
  }

  /** Deliveries live in a list of their own: appended by notifiers, never racing the record's writer. */
  async addDelivery(id: string, d: DeliveryRecord): Promise<void> {
    await withRedis(() => this.redis.multi()
      .rpush(this.deliveriesKey(id), JSON.stringify(d))
      .ltrim(this.deliveriesKey(id), -100, -1)
      .expire(this.deliveriesKey(id), this.retentionSeconds)
      .exec());
  }

  async deliveries(id: string): Promise<DeliveryRecord[]> {
    const raws = await withRedis(() => this.redis.lrange(this.deliveriesKey(id), 0, -1));
    return raws.map((r) => JSON.parse(r) as DeliveryRecord);
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
