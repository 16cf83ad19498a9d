import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { withRedis } from '@ariadne/cluster';
import { AppError, type RoleSpec } from '@ariadne/schema';
import { open, seal, type Sealed } from './crypto.js';

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
  sealed?: Sealed;
  createdAt: string;
  updatedAt: string;
}

export interface SuiteSecrets {
  secrets: Record<string, string>;
  /** Signing secret of each trigger, by hook id. */
  hooks: Record<string, string>;
}

export interface SuiteRunTrigger {
  type: 'manual' | TriggerType;
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
}

export const SUITE_RUN_HISTORY = 100;
/** A delivery id is remembered this long (GitHub lets users redeliver for days). */
export const DELIVERY_TTL_SECONDS = 7 * 86_400;

export class SuiteStore {
  constructor(readonly redis: Redis, readonly prefix: string, private readonly key: Buffer | null) {}

  private k(id: string) { return `${this.prefix}suite:${id}`; }
  private idx(tenant: string) { return `${this.prefix}suites:${tenant}`; }
  private runsKey(id: string) { return `${this.prefix}suite:${id}:runs`; }
  private hookKey(hookId: string) { return `${this.prefix}hook:${hookId}`; }
  private deliveryKey(hookId: string, delivery: string) { return `${this.prefix}hook:${hookId}:delivery:${delivery}`; }

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
    const any = Object.keys(sec.secrets).length > 0 || Object.keys(sec.hooks).length > 0;
    if (!any) {
      delete s.sealed;
      return;
    }
    if (!this.key) {
      throw new AppError('secrets_key_missing', 'Storing secrets (suite secrets or trigger signing secrets) needs a server key: the operator sets SECRETS_KEY.', { setting: 'SECRETS_KEY' });
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
      triggers: [],
      createdAt: now,
      updatedAt: now,
    };
    const sec: SuiteSecrets = { secrets: input.secrets ?? {}, hooks: {} };
    this.applyTriggers(s, sec, input.triggers ?? []);
    this.sealInto(s, sec);
    await withRedis(async () => {
      const m = this.redis.multi().set(this.k(s.id), JSON.stringify(s)).zadd(this.idx(tenant), Date.now(), s.id);
      for (const t of s.triggers) m.set(this.hookKey(t.id), s.id);
      await m.exec();
    });
    return s;
  }

  async get(tenant: string, id: string): Promise<Suite> {
    const s = await this.load(id);
    if (!s || s.tenant !== tenant) throw new AppError('suite_not_found', `No suite ${id} for this tenant.`, { id });
    return s;
  }

  private async load(id: string): Promise<Suite | null> {
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
    if (patch.secrets !== undefined) {
      sec.secrets = patch.secrets;
      s.secretNames = Object.keys(patch.secrets);
    }
    if (patch.triggers !== undefined) this.applyTriggers(s, sec, patch.triggers);
    this.sealInto(s, sec);
    s.updatedAt = new Date().toISOString();
    await withRedis(async () => {
      const m = this.redis.multi().set(this.k(s.id), JSON.stringify(s));
      const keep = new Set(s.triggers.map((t) => t.id));
      for (const h of oldHooks) if (!keep.has(h)) m.del(this.hookKey(h));
      for (const t of s.triggers) m.set(this.hookKey(t.id), s.id);
      await m.exec();
    });
    return s;
  }

  async delete(tenant: string, id: string): Promise<void> {
    const s = await this.get(tenant, id);
    await withRedis(async () => {
      const m = this.redis.multi().del(this.k(id), this.runsKey(id)).zrem(this.idx(tenant), id);
      for (const t of s.triggers) m.del(this.hookKey(t.id));
      await m.exec();
    });
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

  async recordRun(suiteId: string, run: SuiteRun): Promise<void> {
    await withRedis(() => this.redis.multi().lpush(this.runsKey(suiteId), JSON.stringify(run)).ltrim(this.runsKey(suiteId), 0, SUITE_RUN_HISTORY - 1).exec());
  }

  /** Suite runs, newest first. */
  async runs(suiteId: string, limit: number): Promise<SuiteRun[]> {
    const raws = await withRedis(() => this.redis.lrange(this.runsKey(suiteId), 0, Math.max(0, limit - 1)));
    return raws.map((r) => JSON.parse(r) as SuiteRun);
  }
}
