import { randomBytes, randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUES } from '@ariadne/cluster';
import { AppError, type RoleSpec } from '@ariadne/schema';
import { checkNavigationUrl } from '@ariadne/page';
import { parsePlan } from '../plan.js';
import { emptyTotals, type RunStatus } from '../types.js';
import { MAX_RETRIES, runSecretsAad, TERMINAL, type DeliveryRecord, type RunOptions, type RunRecord, type RunStore, type SecretsBox } from './run-store.js';
import { markRunFailed } from './processor.js';
import { checkEgressUrl, type EgressPolicy } from '@ariadne/egress';
import { ownKeyRequired, tenantBaseUrl } from '../planners/factory.js';

// What the /v1/runs routes do: check a run request (the plan parses, URLs are http(s),
// the planner has a key), store the record, queue the BullMQ job; read, list and
// cancel runs. The job id is the run id, so a job is never queued twice.

export interface SubmitBody {
  url?: string;
  plan?: string;
  planner?: 'rules' | 'anthropic' | 'openai';
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  variables?: Record<string, string>;
  roles?: RoleSpec[];
  callbackUrl?: string;
  /** Signs the callback (X-Ariadne-Signature); generated and answered once when left out. */
  callbackSecret?: string;
  replayOf?: string;
  options?: RunOptions;
  /** Internal (not in the route schema): variables that are secret whatever their names. */
  secretNames?: string[];
  /** Internal: secret variables given apart (a suite's secrets): stored only sealed, listed in secretNames. */
  secrets?: Record<string, string>;
  /** Internal: the suite (and trigger) that started this run. */
  suite?: { id: string; plan: string; trigger?: Record<string, string> };
}

export interface PlannerDefaults {
  planner: 'rules' | 'anthropic' | 'openai';
  anthropic: { apiKey: string; baseUrl: string; model: string };
  openai: { apiKey: string; baseUrl: string; model: string };
}

export interface RunView {
  id: string;
  status: RunStatus;
  url: string;
  planner: string;
  model?: string;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  attempts: number;
  replayOf?: string;
  variables: string[];
  /** The saved suite (and deploy) that started this run. */
  suite?: { id: string; plan: string; trigger?: Record<string, string> };
  error?: { code: string; message: string };
  totals?: unknown;
  report?: unknown;
  /** Outbound deliveries about this run (callback, suite notifications, GitHub statuses), with every attempt. */
  deliveries?: DeliveryRecord[];
  links: Record<string, string>;
}

function httpUrl(raw: string, field: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new AppError('invalid_request', `${field} "${raw.slice(0, 200)}" is not a valid absolute URL.`, { field });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new AppError('invalid_request', `${field} must be an http(s) URL (got ${u.protocol}).`, { field });
  }
  return u.toString();
}

export class RunService {
  private queue: Queue | null = null;

  constructor(
    readonly store: RunStore,
    private readonly connection: () => Redis,
    private readonly prefix: string,
    private readonly defaults: PlannerDefaults,
    private readonly allowedSchemes: string[],
    /** The egress policy: a callbackUrl or a tenant-chosen model baseUrl it denies is refused at once (403). */
    private readonly egress?: EgressPolicy,
    /** Seals secret variables given apart (absent: no SECRETS_KEY, such runs are refused). */
    private readonly secretsBox?: SecretsBox | null,
  ) {}

  private q(): Queue {
    if (!this.queue) {
      this.queue = new Queue(QUEUES.runs, { connection: this.connection(), prefix: this.prefix });
      this.queue.on('error', () => {});
    }
    return this.queue;
  }

  async close(): Promise<void> {
    await this.queue?.close().catch(() => {});
  }

  /** Queues a run; `callbackSecret` is set on the answer only when the service generated it. */
  async submit(tenant: string, body: SubmitBody): Promise<RunRecord & { callbackSecret?: string }> {
    let base: RunRecord | null = null;
    if (body.replayOf) {
      base = await this.store.getFor(tenant, body.replayOf);
      if (!TERMINAL.includes(base.status) || !base.report) {
        throw new AppError('run_finished', `Run ${body.replayOf} is ${base.status}: only a finished run can be replayed.`, { field: 'replayOf', status: base.status });
      }
    }
    const url = body.url ?? base?.request.url;
    if (!url) throw new AppError('invalid_request', 'A run needs "url" (where the flow starts).', { field: 'url' });
    const plan = body.plan ?? base?.request.plan;
    if (!plan) throw new AppError('invalid_request', 'A run needs "plan" (Markdown cases with bullet steps).', { field: 'plan' });
    try {
      checkNavigationUrl(httpUrl(url, 'url'), this.allowedSchemes);
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.code, err.message, { ...err.details, field: 'url' });
      throw err;
    }
    if (body.callbackUrl) httpUrl(body.callbackUrl, 'callbackUrl');
    if (body.callbackSecret && !body.callbackUrl) throw new AppError('invalid_request', 'callbackSecret signs the callback: it needs callbackUrl.', { field: 'callbackSecret' });
    const retries = body.options?.retries;
    if (retries !== undefined && (!Number.isInteger(retries) || retries < 0 || retries > MAX_RETRIES)) {
      throw new AppError('invalid_request', `options.retries must be a whole number from 0 to ${MAX_RETRIES}.`, { field: 'options.retries' });
    }
    if (body.baseUrl) httpUrl(body.baseUrl, 'baseUrl');
    const variables = body.variables ?? base?.request.variables;
    const secretNames = [...new Set([...(body.secretNames ?? base?.request.secretNames ?? []), ...Object.keys(body.secrets ?? {})])];
    let sealedSecrets: unknown = base?.request.sealedSecrets;
    if (body.secrets && Object.keys(body.secrets).length) {
      if (!this.secretsBox) throw new AppError('secrets_key_missing', 'Secret variables are stored sealed: the operator sets SECRETS_KEY.', { setting: 'SECRETS_KEY' });
      sealedSecrets = this.secretsBox.seal(body.secrets, runSecretsAad(tenant));
    }
    // A plan that does not parse is refused now, naming its line, not discovered by a worker
    // (sealed secrets count as defined: their names are enough).
    const parsed = parsePlan(plan, { variables: { ...Object.fromEntries(secretNames.map((n) => [n, 'x'])), ...variables } });
    const roles = body.roles ?? base?.request.roles;
    for (const [i, r] of (roles ?? []).entries()) {
      if (!parsed.roles.includes(r.name)) {
        throw new AppError('invalid_request', `Role "${r.name}" is not used by the plan (it uses ${parsed.roles.join(', ')}).`, { field: `roles.${i}.name` });
      }
    }
    const planner = body.planner ?? (body.replayOf ? (base!.request.planner as SubmitBody['planner']) : this.defaults.planner) ?? 'rules';
    let model: string | undefined;
    if (planner === 'anthropic' || planner === 'openai') {
      const d = this.defaults[planner];
      model = body.model ?? d.model;
      if (!body.apiKey && !d.apiKey) {
        throw new AppError('invalid_request', `The ${planner} planner needs an API key: pass "apiKey" or set ${planner === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY'}.`, { field: 'apiKey' });
      }
      if (tenantBaseUrl(planner, body.baseUrl, this.defaults)) {
        if (!body.apiKey) throw ownKeyRequired(planner);
        if (this.egress) await checkEgressUrl(this.egress, body.baseUrl!, 'baseUrl');
      }
    }
    if (this.egress) {
      // Refused now rather than discovered by the worker (they are checked again when used).
      await checkEgressUrl(this.egress, url, 'url');
      if (body.callbackUrl) await checkEgressUrl(this.egress, body.callbackUrl, 'callbackUrl');
    }
    const now = new Date().toISOString();
    const rec: RunRecord = {
      id: randomUUID(),
      tenant,
      status: 'queued',
      createdAt: now,
      updatedAt: now,
      attempts: 0,
      request: {
        url,
        plan,
        planner,
        ...(model ? { model } : {}),
        ...(body.baseUrl ? { baseUrl: body.baseUrl } : {}),
        ...(variables ? { variables } : {}),
        ...(secretNames.length ? { secretNames } : {}),
        ...(sealedSecrets ? { sealedSecrets } : {}),
        ...(body.suite ? { suite: body.suite } : {}),
        ...(roles ? { roles } : {}),
        ...(body.callbackUrl ? { callbackUrl: body.callbackUrl } : {}),
        ...(body.replayOf ? { replayOf: body.replayOf } : {}),
        ...(body.options ? { options: body.options } : {}),
      },
    };
    // Every callback is signed: with the caller's secret, or one made here and answered once.
    const generated = body.callbackUrl && !body.callbackSecret ? `whsec_${randomBytes(24).toString('base64url')}` : undefined;
    const callbackSecret = body.callbackSecret ?? generated;
    await this.store.create(rec, body.apiKey || callbackSecret ? { ...(body.apiKey ? { apiKey: body.apiKey } : {}), ...(callbackSecret ? { callbackSecret } : {}) } : undefined);
    try {
      await this.q().add('run', { runId: rec.id }, {
        jobId: rec.id,
        attempts: 1,
        removeOnComplete: { age: this.store.retentionSeconds, count: 10_000 },
        removeOnFail: { age: this.store.retentionSeconds, count: 10_000 },
      });
    } catch (err) {
      await this.store.update(rec.id, (r) => {
        r.status = 'error';
        r.error = { code: 'redis_unavailable', message: `The run could not be queued: ${(err as Error).message}` };
      }).catch(() => {});
      throw new AppError('redis_unavailable', 'The run could not be queued; retry shortly.', { cause: (err as Error).message });
    }
    await this.store.appendEvent(rec.id, { type: 'run_queued', runId: rec.id }).catch(() => {});
    return generated ? { ...rec, callbackSecret: generated } : rec;
  }

  /** The run, with a "running" run whose job BullMQ gave up on marked failed (never stuck). */
  async get(tenant: string, id: string): Promise<RunRecord> {
    let rec = await this.store.getFor(tenant, id);
    if (rec.status === 'running' || rec.status === 'queued') {
      const state = await this.q().getJobState(id).catch(() => 'unknown');
      if (state === 'failed' || (state === 'unknown' && rec.status === 'running' && Date.now() - Date.parse(rec.updatedAt) > 60_000)) {
        const job = await this.q().getJob(id).catch(() => null);
        await markRunFailed(this.store, id, job?.failedReason ?? 'its job is gone');
        rec = await this.store.getFor(tenant, id);
      }
    }
    return rec;
  }

  async list(tenant: string, status: RunStatus | undefined, limit: number): Promise<RunRecord[]> {
    return this.store.list(tenant, { status, limit });
  }

  async cancel(tenant: string, id: string): Promise<RunRecord> {
    const rec = await this.store.getFor(tenant, id);
    if (TERMINAL.includes(rec.status)) {
      throw new AppError('run_finished', `Run ${id} already finished (${rec.status}).`, { runId: id, status: rec.status });
    }
    await this.store.requestCancel(id);
    if (rec.status === 'queued') {
      // Not started: take it out of the queue. If a worker just took it, the cancel key stops it.
      const removed = await this.q().remove(id).then((n) => n === 1, () => false);
      if (removed) {
        const next = await this.store.update(id, (r) => {
          r.status = 'cancelled';
          r.finishedAt = new Date().toISOString();
        });
        await this.store.appendEvent(id, { type: 'run_finished', status: 'cancelled', totals: emptyTotals(), durationMs: 0 }).catch(() => {});
        return next ?? rec;
      }
    }
    return (await this.store.get(id)) ?? rec;
  }
}

export function runView(rec: RunRecord, base: string, full: boolean, deliveries?: DeliveryRecord[]): RunView {
  const r = rec.report;
  return {
    id: rec.id,
    status: rec.status,
    url: rec.request.url,
    planner: rec.request.planner,
    ...(rec.request.model ? { model: rec.request.model } : {}),
    createdAt: rec.createdAt,
    ...(rec.startedAt ? { startedAt: rec.startedAt } : {}),
    ...(rec.finishedAt ? { finishedAt: rec.finishedAt } : {}),
    attempts: rec.attempts,
    ...(rec.request.replayOf ? { replayOf: rec.request.replayOf } : {}),
    // Names only: values may be secrets.
    variables: [...new Set([...Object.keys(rec.request.variables ?? {}), ...(rec.request.sealedSecrets ? rec.request.secretNames ?? [] : [])])],
    ...(rec.request.suite ? { suite: rec.request.suite } : {}),
    ...(rec.error ? { error: { code: rec.error.code, message: rec.error.message } } : {}),
    ...(r ? { totals: r.totals } : {}),
    ...(full && r ? { report: r } : {}),
    ...(deliveries ? { deliveries } : {}),
    links: {
      self: `${base}/v1/runs/${rec.id}`,
      junit: `${base}/v1/runs/${rec.id}/junit`,
      spec: `${base}/v1/runs/${rec.id}/spec`,
      // The page for people (key, or a signed link from POST /v1/runs/:id/report-link).
      report: `${base}/v1/runs/${rec.id}/report`,
      stream: `${base.replace(/^http/, 'ws')}/v1/runs/${rec.id}/stream`,
      events: `${base}/v1/runs/${rec.id}/events`,
      artifacts: `${base}/v1/runs/${rec.id}/artifacts/`,
    },
  };
}
