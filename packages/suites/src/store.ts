import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withRedis } from '@ariadne/cluster';
import { AppError, type RoleSpec } from '@ariadne/schema';
import { open, seal, type Sealed } from './crypto.js';
import type { SuiteSchedule } from './schedule.js';

// Saved suites in Redis, tenant-scoped: another tenant's suite reads as missing.
// Secrets (the suite's secret variables and its triggers' signing secrets) live only in
// one AES-256-GCM sealed blob on the record; the rest of the record is plain JSON.

export type TriggerType = 'github' | 'vercel' | 'netlify' | 'generic';

export interface SuitePlan {
  name: string;
  plan: string;
  /** Where this plan starts, relative to the suite's (or the deployment's) base URL. */
  path?: string;
}

export interface TriggerInput {
  /** An existing trigger's id: keeps its hook URL (and its secret when none is given). */
  id?: string;
  type: TriggerType;
  secret?: string;
  environments?: string[];
}

export type NotifyOn = 'failure' | 'success' | 'always';

export interface NotifyInput {
  type: 'webhook' | 'slack';
  url: string;
  /** When to send (default: webhook always, slack on failure). */
  on?: NotifyOn[];
}

/** A notify target as stored in plain: its URL is sealed (a Slack webhook URL is a credential). */
export interface StoredNotify {
  type: 'webhook' | 'slack';
  on: NotifyOn[];
  /** What may be shown: a webhook's origin and path, a Slack URL's host only. */
  shown: string;
}

export interface SuiteInput {
  name: string;
  baseUrl: string;
  plans: SuitePlan[];
  variables?: Record<string, string>;
  secrets?: Record<string, string>;
  roles?: RoleSpec[];
  planner?: 'rules' | 'anthropic' | 'openai';
  model?: string;
  options?: Record<string, unknown>;
  triggers?: TriggerInput[];
  /** Runs the suite on a cron schedule; null (on update) removes it. */
  schedule?: SuiteSchedule | null;
  /** A failed case is tried again this many times (0-3); passing then is "flaky". */
  retries?: number;
  notify?: NotifyInput[];
  /** Signs every notification (X-Ariadne-Signature); generated (and answered once) when notify is set without one. */
  notifySecret?: string;
  /** GitHub commit statuses: the API base (GitHub Enterprise: https://ghe.example.com/api/v3). */
  github?: { apiBase?: string };
}

export interface StoredTrigger {
  /** The hook id: /v1/hooks/<id>, unguessable (128 random bits). */
  id: string;
  type: TriggerType;
  environments?: string[];
}

export interface Suite {
  id: string;
  tenant: string;
  name: string;
  baseUrl: string;
  plans: SuitePlan[];
  variables: Record<string, string>;
  secretNames: string[];
  roles?: RoleSpec[];
  planner?: 'rules' | 'anthropic' | 'openai';
  model?: string;
  options?: Record<string, unknown>;
  triggers: StoredTrigger[];
  schedule?: SuiteSchedule;
  retries?: number;
  notify?: StoredNotify[];
  github?: { apiBase?: string };
  sealed?: Sealed;
  createdAt: string;
  updatedAt: string;
}

export interface SuiteSecrets {
  secrets: Record<string, string>;
  /** Signing secret of each trigger, by hook id. */
  hooks: Record<string, string>;
  /** URLs of the notify targets, in the order of `notify`. */
  notifyUrls?: string[];
  /** Signs outbound notifications. */
  notifySecret?: string;
}

export interface SuiteRunTrigger {
  type: 'manual' | 'schedule' | TriggerType;
  /** A scheduled run: the tick it was started for (ISO time). */
  scheduledFor?: string;
  repo?: string;
  sha?: string;
  environment?: string;
  delivery?: string;
  hookId?: string;
}

export interface SuiteRun {
  id: string;
  createdAt: string;
  baseUrl: string;
  trigger: SuiteRunTrigger;
  runs: { plan: string; runId: string }[];
  /** The suite it belongs to (set on new suite runs). */
  suiteId?: string;
  /** The origin of the request that started it: report links use it when PUBLIC_URL is unset. */
  origin?: string;
}

export const SUITE_RUN_HISTORY = 100;
/** How long a suite run can be looked up by id (and its notification flags kept). */
export const SUITE_RUN_TTL_SECONDS = 30 * 86_400;

/** A notify URL as it may be shown: a webhook's origin and path, a Slack URL's origin only. */
export function shownUrl(type: 'webhook' | 'slack' | 'callback', raw: string): string {
  try {
    const u = new URL(raw);
    return type === 'slack' ? `${u.origin}/…` : `${u.origin}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
/** A delivery id is remembered this long (GitHub lets users redeliver for days). */
export const DELIVERY_TTL_SECONDS = 7 * 86_400;

export class SuiteStore {
  constructor(readonly redis: Redis, readonly prefix: string, private readonly key: Buffer | null) {}

  private k(id: string) { return `${this.prefix}suite:${id}`; }
  private idx(tenant: string) { return `${this.prefix}suites:${tenant}`; }
  private runsKey(id: string) { return `${this.prefix}suite:${id}:runs`; }
  private hookKey(hookId: string) { return `${this.prefix}hook:${hookId}`; }
  private deliveryKey(hookId: string, delivery: string) { return `${this.prefix}hook:${hookId}:delivery:${delivery}`; }
  private suiteRunKey(id: string) { return `${this.prefix}suiterun:${id}`; }
  /** Per suite run flags (notified, pending posted), each set once cluster-wide with SET NX. */
  flagKey(suiteRunId: string, flag: string) { return `${this.prefix}suiterun:${suiteRunId}:${flag}`; }

  private aad(s: { id: string; tenant: string }) { return `suite:${s.tenant}:${s.id}`; }

  /** The sealed secrets of a suite (empty when it has none). */
  secretsOf(s: Suite): SuiteSecrets {
    if (!s.sealed) return { secrets: {}, hooks: {} };
    if (!this.key) throw new AppError('secrets_key_missing', 'This suite has secrets but the service has no SECRETS_KEY to open them.', { setting: 'SECRETS_KEY' });
    try {
      return JSON.parse(open(this.key, s.sealed, this.aad(s))) as SuiteSecrets;
    } catch {
      throw new AppError('secrets_key_missing', 'This suite\'s secrets do not open with the configured SECRETS_KEY (was the key changed?).', { setting: 'SECRETS_KEY' });
    }
  }

  private sealInto(s: Suite, sec: SuiteSecrets): void {
    const any = Object.keys(sec.secrets).length > 0 || Object.keys(sec.hooks).length > 0 || !!sec.notifyUrls?.length || !!sec.notifySecret;
    if (!any) {
      delete s.sealed;
      return;
    }
    if (!this.key) {
      throw new AppError('secrets_key_missing', 'Storing secrets (suite secrets, trigger signing secrets, notify targets and their signing secret) needs a server key: the operator sets SECRETS_KEY.', { setting: 'SECRETS_KEY' });
    }
    s.sealed = seal(this.key, JSON.stringify(sec), this.aad(s));
  }

  /** Applies the triggers of an input, keeping ids (and secrets) of triggers it names. */
  private applyTriggers(s: Suite, sec: SuiteSecrets, input: TriggerInput[]): void {
    const old = new Map(s.triggers.map((t) => [t.id, t]));
    const hooks: Record<string, string> = {};
    const triggers: StoredTrigger[] = [];
    for (const [i, t] of input.entries()) {
      if (t.id && !old.has(t.id)) throw new AppError('invalid_request', `Trigger ${t.id} is not one of this suite's triggers.`, { field: `triggers.${i}.id` });
      const id = t.id ?? randomBytes(16).toString('hex');
      const secret = t.secret ?? (t.id ? sec.hooks[t.id] : undefined);
      if (!secret) throw new AppError('invalid_request', 'A trigger needs "secret" (the signing secret you also give the platform).', { field: `triggers.${i}.secret` });
      hooks[id] = secret;
      triggers.push({ id, type: t.type, ...(t.environments?.length ? { environments: t.environments } : {}) });
    }
    s.triggers = triggers;
    sec.hooks = hooks;
  }

  async create(tenant: string, input: SuiteInput): Promise<Suite> {
    const now = new Date().toISOString();
    const s: Suite = {
      id: randomUUID(),
      tenant,
      name: input.name,
      baseUrl: input.baseUrl,
      plans: input.plans,
      variables: input.variables ?? {},
      secretNames: Object.keys(input.secrets ?? {}),
      ...(input.roles ? { roles: input.roles } : {}),
      ...(input.planner ? { planner: input.planner } : {}),
      ...(input.model ? { model: input.model } : {}),
      ...(input.options ? { options: input.options } : {}),
      ...(input.schedule ? { schedule: input.schedule } : {}),
      ...(input.retries ? { retries: input.retries } : {}),
      ...(input.github ? { github: input.github } : {}),
      triggers: [],
      createdAt: now,
      updatedAt: now,
    };
    const sec: SuiteSecrets = { secrets: input.secrets ?? {}, hooks: {} };
    this.applyTriggers(s, sec, input.triggers ?? []);
    const generated = this.applyNotify(s, sec, input.notify, input.notifySecret);
    this.sealInto(s, sec);
    await withRedis(async () => {
      const m = this.redis.multi().set(this.k(s.id), JSON.stringify(s)).zadd(this.idx(tenant), Date.now(), s.id);
      for (const t of s.triggers) m.set(this.hookKey(t.id), s.id);
      await m.exec();
    });
    return generated ? Object.assign(s, { generatedNotifySecret: generated }) : s;
  }

  /**
   * Sets the notify targets (URLs sealed, what may be shown kept plain) and the secret
   * that signs them. Answers a secret it generated, to be shown once.
   */
  private applyNotify(s: Suite, sec: SuiteSecrets, notify: NotifyInput[] | undefined, secret: string | undefined): string | undefined {
    if (notify !== undefined) {
      s.notify = notify.map((n) => ({ type: n.type, on: n.on?.length ? [...new Set(n.on)] : [n.type === 'slack' ? 'failure' : 'always'], shown: shownUrl(n.type, n.url) }));
      sec.notifyUrls = notify.map((n) => n.url);
      if (!s.notify.length) delete s.notify;
    }
    if (secret !== undefined) sec.notifySecret = secret;
    if (s.notify?.length && !sec.notifySecret) {
      sec.notifySecret = `whsec_${randomBytes(24).toString('base64url')}`;
      return sec.notifySecret;
    }
    return undefined;
  }

  /** Any suite by id, whatever its tenant (for workers acting on a run's behalf). */
  async byId(id: string): Promise<Suite | null> {
    return this.load(id);
  }

  async get(tenant: string, id: string): Promise<Suite> {
    const s = await this.load(id);
    if (!s || s.tenant !== tenant) throw new AppError('suite_not_found', `No suite ${id} for this tenant.`, { id });
    return s;
  }

  /** A suite by id whatever its tenant (a schedule tick carries both and compares them). */
  async load(id: string): Promise<Suite | null> {
    const raw = await withRedis(() => this.redis.get(this.k(id)));
    return raw ? (JSON.parse(raw) as Suite) : null;
  }

  async list(tenant: string, limit = 100): Promise<Suite[]> {
    const ids = await withRedis(() => this.redis.zrevrange(this.idx(tenant), 0, limit - 1));
    if (!ids.length) return [];
    const raws = await withRedis(() => this.redis.mget(ids.map((id) => this.k(id))));
    return raws.flatMap((r) => (r ? [JSON.parse(r) as Suite] : [])).filter((s) => s.tenant === tenant);
  }

  /** Replaces each field the patch gives; `secrets` replaces the whole secret set. */
  async update(tenant: string, id: string, patch: Partial<SuiteInput>): Promise<Suite> {
    const s = await this.get(tenant, id);
    const oldHooks = s.triggers.map((t) => t.id);
    const sec = this.secretsOf(s);
    if (patch.name !== undefined) s.name = patch.name;
    if (patch.baseUrl !== undefined) s.baseUrl = patch.baseUrl;
    if (patch.plans !== undefined) s.plans = patch.plans;
    if (patch.variables !== undefined) s.variables = patch.variables;
    if (patch.roles !== undefined) s.roles = patch.roles;
    if (patch.planner !== undefined) s.planner = patch.planner;
    if (patch.model !== undefined) s.model = patch.model;
    if (patch.options !== undefined) s.options = patch.options;
    if (patch.schedule === null) delete s.schedule;
    else if (patch.schedule !== undefined) s.schedule = patch.schedule;
    if (patch.secrets !== undefined) {
      sec.secrets = patch.secrets;
      s.secretNames = Object.keys(patch.secrets);
    }
    if (patch.triggers !== undefined) this.applyTriggers(s, sec, patch.triggers);
    if (patch.retries !== undefined) s.retries = patch.retries;
    if (patch.github !== undefined) s.github = patch.github;
    const generated = this.applyNotify(s, sec, patch.notify, patch.notifySecret);
    this.sealInto(s, sec);
    s.updatedAt = new Date().toISOString();
    await withRedis(async () => {
      const m = this.redis.multi().set(this.k(s.id), JSON.stringify(s));
      const keep = new Set(s.triggers.map((t) => t.id));
      for (const h of oldHooks) if (!keep.has(h)) m.del(this.hookKey(h));
      for (const t of s.triggers) m.set(this.hookKey(t.id), s.id);
      await m.exec();
    });
    return generated ? Object.assign(s, { generatedNotifySecret: generated }) : s;
  }

  async delete(tenant: string, id: string): Promise<Suite> {
    const s = await this.get(tenant, id);
    await withRedis(async () => {
      const m = this.redis.multi().del(this.k(id), this.runsKey(id)).zrem(this.idx(tenant), id);
      for (const t of s.triggers) m.del(this.hookKey(t.id));
      await m.exec();
    });
    return s;
  }

  /** Claims one schedule tick of a suite: true the first time only (a tick starts one suite run). */
  async claimTick(suiteId: string, tickMillis: number): Promise<boolean> {
    const set = await withRedis(() => this.redis.set(`${this.prefix}suite:${suiteId}:tick:${tickMillis}`, '1', 'EX', 86_400, 'NX'));
    return set === 'OK';
  }

  /** The suite and trigger behind a hook id, or null (unknown or deleted). */
  async byHook(hookId: string): Promise<{ suite: Suite; trigger: StoredTrigger } | null> {
    if (!/^[0-9a-f]{32}$/.test(hookId)) return null;
    const id = await withRedis(() => this.redis.get(this.hookKey(hookId)));
    const suite = id ? await this.load(id) : null;
    const trigger = suite?.triggers.find((t) => t.id === hookId);
    return suite && trigger ? { suite, trigger } : null;
  }

  /** Claims a delivery id: null when first seen, else what the first delivery recorded. */
  async claimDelivery(hookId: string, delivery: string, value: string): Promise<string | null> {
    const key = this.deliveryKey(hookId, delivery);
    const set = await withRedis(() => this.redis.set(key, value, 'EX', DELIVERY_TTL_SECONDS, 'NX'));
    if (set === 'OK') return null;
    return (await withRedis(() => this.redis.get(key))) ?? value;
  }

  async releaseDelivery(hookId: string, delivery: string): Promise<void> {
    await withRedis(() => this.redis.del(this.deliveryKey(hookId, delivery))).catch(() => {});
  }

  /**
   * Adds a suite run to the history, and under its own id once all its runs are queued:
   * a run finishing before then leaves the "all done?" check to the launcher.
   */
  async recordRun(suiteId: string, run: SuiteRun): Promise<void> {
    await withRedis(() => this.redis.multi()
      .lpush(this.runsKey(suiteId), JSON.stringify(run))
      .ltrim(this.runsKey(suiteId), 0, SUITE_RUN_HISTORY - 1)
      .set(this.suiteRunKey(run.id), JSON.stringify({ ...run, suiteId }), 'EX', SUITE_RUN_TTL_SECONDS)
      .exec());
  }

  async suiteRun(id: string): Promise<SuiteRun | null> {
    if (!/^[\w-]{1,64}$/.test(id)) return null;
    const raw = await withRedis(() => this.redis.get(this.suiteRunKey(id)));
    return raw ? (JSON.parse(raw) as SuiteRun) : null;
  }

  /** Sets a suite run's flag if no node has: true for the one caller that set it. */
  async claimFlag(suiteRunId: string, flag: string, value = '1'): Promise<boolean> {
    return (await withRedis(() => this.redis.set(this.flagKey(suiteRunId, flag), value, 'EX', SUITE_RUN_TTL_SECONDS, 'NX'))) === 'OK';
  }

  async hasFlag(suiteRunId: string, flag: string): Promise<boolean> {
    return (await withRedis(() => this.redis.exists(this.flagKey(suiteRunId, flag)))) === 1;
  }

  /** Suite runs, newest first. */
  async runs(suiteId: string, limit: number): Promise<SuiteRun[]> {
    const raws = await withRedis(() => this.redis.lrange(this.runsKey(suiteId), 0, Math.max(0, limit - 1)));
    return raws.map((r) => JSON.parse(r) as SuiteRun);
  }
}
