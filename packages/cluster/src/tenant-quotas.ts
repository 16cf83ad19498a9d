import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '@ariadne/schema';
import { withRedis } from './redis.js';

// Per-tenant quotas, cluster-wide. Every held session, context and run is a member of
// a per-tenant sorted set in Redis scored by an expiry time, like the lease registry:
// the owning node renews its holds with its heartbeat and removes them when the
// session ends, and a node that dies stops renewing, so its holds lapse after the
// lease TTL and stop counting, with no reaper. Checks and takes happen in one Lua
// script, so concurrent requests on any node cannot overshoot a limit.

/** 0 = unlimited. */
export interface QuotaLimits {
  maxSessions: number;
  maxContexts: number;
  maxQueued: number;
  maxRuns: number;
  sessionsPerMinute: number;
}

export interface QuotaUsage {
  sessions: number;
  contexts: number;
  runs: number;
  sessionsLastMinute: number;
}

/** Seconds a client is told to wait when it holds all it may (nothing says when a hold ends). */
export const QUOTA_RETRY_AFTER_SECONDS = 5;

const RATE_WINDOW_MS = 60_000;

// KEYS: sessions, contexts, rate. ARGV: now, expiry, sessionId, maxSessions, maxContexts,
// perMinute, window, rateMember, count of context members, context members...
// Returns {'ok'} or {reason, current, retryMs}.
const TAKE_SESSION = `
local now = tonumber(ARGV[1])
local expiry = tonumber(ARGV[2])
local maxSessions = tonumber(ARGV[4])
local maxContexts = tonumber(ARGV[5])
local perMinute = tonumber(ARGV[6])
local window = tonumber(ARGV[7])
local n = tonumber(ARGV[9])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now - window)
if perMinute > 0 and ARGV[8] ~= '' then
  local used = redis.call('ZCARD', KEYS[3])
  if used >= perMinute then
    local oldest = redis.call('ZRANGE', KEYS[3], 0, 0, 'WITHSCORES')
    return {'rate', used, tonumber(oldest[2]) + window - now}
  end
end
if maxSessions > 0 and ARGV[3] ~= '' and redis.call('ZSCORE', KEYS[1], ARGV[3]) == false then
  local used = redis.call('ZCARD', KEYS[1])
  if used + 1 > maxSessions then return {'sessions', used, 0} end
end
if maxContexts > 0 then
  local used = redis.call('ZCARD', KEYS[2])
  if used + n > maxContexts then return {'contexts', used, 0} end
end
if ARGV[3] ~= '' then redis.call('ZADD', KEYS[1], expiry, ARGV[3]) end
for i = 1, n do redis.call('ZADD', KEYS[2], expiry, ARGV[9 + i]) end
if ARGV[8] ~= '' then redis.call('ZADD', KEYS[3], now, ARGV[8]) end
redis.call('PEXPIRE', KEYS[1], window * 60 * 24)
redis.call('PEXPIRE', KEYS[2], window * 60 * 24)
redis.call('PEXPIRE', KEYS[3], window * 2)
return {'ok', 0, 0}
`;

// KEYS: runs. ARGV: now, expiry, member, max.
const TAKE_RUN = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]))
local max = tonumber(ARGV[4])
if max > 0 then
  local used = redis.call('ZCARD', KEYS[1])
  if used + 1 > max then return {'runs', used} end
end
redis.call('ZADD', KEYS[1], tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], 7 * 24 * 3600 * 1000)
return {'ok', 0}
`;

type ScriptRedis = Redis & {
  ariadneTakeSession(k1: string, k2: string, k3: string, ...argv: (string | number)[]): Promise<[string, number, number]>;
  ariadneTakeRun(k1: string, ...argv: (string | number)[]): Promise<[string, number]>;
};

export interface TenantQuotasOptions {
  redis: Redis;
  prefix: string;
  /** Holds not renewed for this long lapse (the lease TTL: a dead node's holds go with its leases). */
  holdTtlMs: number;
  limits: (tenant: string) => QuotaLimits;
}

export class TenantQuotas {
  private readonly redis: ScriptRedis;

  constructor(private readonly opts: TenantQuotasOptions) {
    this.redis = opts.redis as ScriptRedis;
    if (typeof this.redis.ariadneTakeSession !== 'function') {
      this.redis.defineCommand('ariadneTakeSession', { numberOfKeys: 3, lua: TAKE_SESSION });
      this.redis.defineCommand('ariadneTakeRun', { numberOfKeys: 1, lua: TAKE_RUN });
    }
  }

  private key(tenant: string, what: 'sessions' | 'contexts' | 'rate' | 'runs'): string {
    return `${this.opts.prefix}quota:${tenant}:${what}`;
  }

  limits(tenant: string): QuotaLimits {
    return this.opts.limits(tenant);
  }

  /**
   * Take a new session's holds (the session and one context per role) and count it
   * against the creation rate, or throw 429 quota_exceeded / rate_limited.
   */
  async takeSession(tenant: string, sessionId: string, roles: string[]): Promise<void> {
    await this.take(tenant, sessionId, roles.map((r) => ctxMember(sessionId, r)), true);
  }

  /** Take one more context for a role added to a live session. */
  async takeContext(tenant: string, sessionId: string, role: string): Promise<void> {
    await this.take(tenant, '', [ctxMember(sessionId, role)], false);
  }

  /**
   * Would a new session with `contexts` roles be refused right now? Throws the same
   * error takeSession would; takes nothing. Lets a request fail before it queues.
   */
  async check(tenant: string, contexts: number): Promise<void> {
    const l = this.limits(tenant);
    if (!l.maxSessions && !l.maxContexts && !l.sessionsPerMinute) return;
    const now = Date.now();
    const [sessions, ctx, rate] = await withRedis(() => Promise.all([
      this.redis.zcount(this.key(tenant, 'sessions'), now, '+inf'),
      this.redis.zcount(this.key(tenant, 'contexts'), now, '+inf'),
      this.redis.zrangebyscore(this.key(tenant, 'rate'), now - RATE_WINDOW_MS, '+inf', 'WITHSCORES'),
    ]));
    const used = rate.length / 2;
    if (l.sessionsPerMinute && used >= l.sessionsPerMinute) throw this.refusal(tenant, 'rate', used, Number(rate[1]) + RATE_WINDOW_MS - now);
    if (l.maxSessions && sessions + 1 > l.maxSessions) throw this.refusal(tenant, 'sessions', sessions, 0);
    if (l.maxContexts && ctx + contexts > l.maxContexts) throw this.refusal(tenant, 'contexts', ctx, 0, contexts);
  }

  private async take(tenant: string, sessionId: string, contexts: string[], countRate: boolean): Promise<void> {
    const l = this.limits(tenant);
    const now = Date.now();
    const [reason, current, retryMs] = await withRedis(() => this.redis.ariadneTakeSession(
      this.key(tenant, 'sessions'), this.key(tenant, 'contexts'), this.key(tenant, 'rate'),
      now, now + this.opts.holdTtlMs, sessionId, l.maxSessions, l.maxContexts, l.sessionsPerMinute, RATE_WINDOW_MS,
      countRate ? `${now}-${randomUUID()}` : '', contexts.length, ...contexts,
    ));
    if (reason !== 'ok') throw this.refusal(tenant, reason as 'rate' | 'sessions' | 'contexts', Number(current), Number(retryMs), contexts.length);
  }

  private refusal(tenant: string, what: 'rate' | 'sessions' | 'contexts' | 'runs', current: number, retryMs: number, asked = 1): AppError {
    const l = this.limits(tenant);
    if (what === 'rate') {
      const seconds = Math.max(1, Math.ceil(retryMs / 1000));
      return new AppError('rate_limited', `Tenant "${tenant}" may create ${l.sessionsPerMinute} sessions per minute; retry in ${seconds} s.`, {
        quota: 'sessions_per_minute', limit: l.sessionsPerMinute, current, retryAfterSeconds: seconds,
      }, { 'retry-after': String(seconds) });
    }
    const [name, limit, noun] = what === 'sessions'
      ? ['max_sessions', l.maxSessions, 'live sessions']
      : what === 'contexts' ? ['max_contexts', l.maxContexts, 'browser contexts (roles)'] : ['max_runs', l.maxRuns, 'queued or running flow runs'];
    return new AppError('quota_exceeded', `Tenant "${tenant}" may hold ${limit} ${noun}; it holds ${current}${what === 'contexts' ? ` and asked for ${asked} more` : ''}. End some, or retry later.`, {
      quota: name, limit, current, ...(what === 'contexts' ? { requested: asked } : {}), retryAfterSeconds: QUOTA_RETRY_AFTER_SECONDS,
    }, { 'retry-after': String(QUOTA_RETRY_AFTER_SECONDS) });
  }

  /** Give back a session's holds (its end), or one role's context. */
  async releaseSession(tenant: string, sessionId: string, roles: string[]): Promise<void> {
    const release = async () => {
      const m = this.redis.multi().zrem(this.key(tenant, 'sessions'), sessionId);
      if (roles.length) m.zrem(this.key(tenant, 'contexts'), ...roles.map((r) => ctxMember(sessionId, r)));
      await withRedis(() => m.exec());
    };
    if (this.renewing) this.releasedDuringRenew.push(release);
    await release();
  }

  async releaseContext(tenant: string, sessionId: string, role: string): Promise<void> {
    const release = async () => { await withRedis(() => this.redis.zrem(this.key(tenant, 'contexts'), ctxMember(sessionId, role))); };
    if (this.renewing) this.releasedDuringRenew.push(release);
    await release();
  }

  private renewing = false;
  /** Releases made while a renewal was in flight: its ZADD may have put them back. */
  private releasedDuringRenew: (() => Promise<void>)[] = [];

  /**
   * Heartbeat: push the expiry of the holds of this node's live sessions forward. Not
   * XX, so holds lost with a Redis restart come back; a hold released while a renewal
   * was in flight comes back too, but only until it lapses one TTL later.
   */
  async renew(sessions: { tenant: string; sessionId: string; roles: string[] }[]): Promise<void> {
    if (!sessions.length || this.renewing) return;
    const expiry = Date.now() + this.opts.holdTtlMs;
    const m = this.redis.multi();
    for (const s of sessions) {
      m.zadd(this.key(s.tenant, 'sessions'), expiry, s.sessionId);
      for (const r of s.roles) m.zadd(this.key(s.tenant, 'contexts'), expiry, ctxMember(s.sessionId, r));
    }
    this.renewing = true;
    try {
      await withRedis(() => m.exec());
    } finally {
      this.renewing = false;
      const again = this.releasedDuringRenew.splice(0);
      for (const release of again) await release().catch(() => {});
    }
  }

  /**
   * Count a flow run against max_runs until it finishes. `isActive` says whether a run
   * already counted is still queued or running: finished runs are dropped first, so a
   * run's hold needs no release hook.
   */
  async takeRun(tenant: string, runId: string, maxLifetimeMs: number, isActive: (runId: string) => Promise<boolean>): Promise<void> {
    const l = this.limits(tenant);
    if (!l.maxRuns) return;
    const key = this.key(tenant, 'runs');
    const members = await withRedis(() => this.redis.zrangebyscore(key, Date.now(), '+inf'));
    const done = (await Promise.all(members.map(async (id) => ((await isActive(id).catch(() => true)) ? null : id)))).filter((x): x is string => Boolean(x));
    if (done.length) await withRedis(() => this.redis.zrem(key, ...done));
    const now = Date.now();
    const [reason, current] = await withRedis(() => this.redis.ariadneTakeRun(key, now, now + maxLifetimeMs, runId, l.maxRuns));
    if (reason !== 'ok') throw this.refusal(tenant, 'runs', Number(current), 0);
  }

  async releaseRun(tenant: string, runId: string): Promise<void> {
    await withRedis(() => this.redis.zrem(this.key(tenant, 'runs'), runId));
  }

  /** Swap a placeholder hold (taken before the run had an id) for the run's id. */
  async bindRun(tenant: string, placeholder: string, runId: string, maxLifetimeMs: number): Promise<void> {
    const key = this.key(tenant, 'runs');
    await withRedis(() => this.redis.multi().zrem(key, placeholder).zadd(key, Date.now() + maxLifetimeMs, runId).exec());
  }

  /** What the tenant holds right now, cluster-wide. */
  async usage(tenant: string): Promise<QuotaUsage> {
    const now = Date.now();
    const [sessions, contexts, runs, rate] = await withRedis(() => Promise.all([
      this.redis.zcount(this.key(tenant, 'sessions'), now, '+inf'),
      this.redis.zcount(this.key(tenant, 'contexts'), now, '+inf'),
      this.redis.zcount(this.key(tenant, 'runs'), now, '+inf'),
      this.redis.zcount(this.key(tenant, 'rate'), now - RATE_WINDOW_MS, '+inf'),
    ]));
    return { sessions, contexts, runs, sessionsLastMinute: rate };
  }
}

function ctxMember(sessionId: string, role: string): string {
  return `${sessionId}/${role}`;
}
