import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, ErrorResponse } from '@ariadne/schema';
import { parsePlan } from '@ariadne/flows';
import { bullPrefix } from '@ariadne/cluster';
import { ReportLinks } from '../security/report-links.js';
import { publicBaseUrl } from '../security/public-url.js';
import { checkEgressUrl } from '@ariadne/egress';
import { checkSchedule, launchSuite, Notifier, suiteStatus, suiteStatusOf, SuiteScheduler, SuiteStore, type Suite, type SuiteInput, type SuiteRun } from '@ariadne/suites';
import type { ServerDeps } from '../deps.js';
import { createRunService, quotaSubmitter } from './runs.js';
import { CreateSuiteBody, RunSuiteBody, SuiteRunSchema, SuiteSchema, UpdateSuiteBody } from './suite-schemas.js';
import { hookRoutes } from './hooks.js';

// Saved suites (issue 13): a tenant's named plans with what they need to run unattended.
// CRUD, "run it now", and the suite's run history. Tenant-scoped like sessions: another
// tenant's suite is 404 suite_not_found. Secrets are write-only (names are returned).

const errors = { 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 503: ErrorResponse };
const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

export function baseUrlOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.headers.host ?? 'localhost'}`;
}

function httpUrl(raw: string, field: string): void {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new AppError('invalid_request', `${field} "${raw.slice(0, 200)}" is not a valid absolute URL.`, { field });
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new AppError('invalid_request', `${field} must be an http(s) URL (got ${u.protocol}).`, { field });
}

/** A suite that would not run is refused when saved, naming the plan and its line. */
function check(input: Partial<SuiteInput>, minScheduleSeconds: number, current?: Suite): void {
  if (input.baseUrl !== undefined) httpUrl(input.baseUrl, 'baseUrl');
  if (input.schedule) checkSchedule(input.schedule, minScheduleSeconds);
  const plans = input.plans ?? current?.plans ?? [];
  const names = new Set<string>();
  const vars = { ...(input.variables ?? current?.variables ?? {}) };
  for (const n of input.secrets ? Object.keys(input.secrets) : current?.secretNames ?? []) vars[n] = 'x';
  for (const [i, p] of plans.entries()) {
    if (names.has(p.name)) throw new AppError('invalid_request', `Two plans are named "${p.name}".`, { field: `plans.${i}.name` });
    names.add(p.name);
    try {
      parsePlan(p.plan, { variables: vars });
    } catch (err) {
      if (err instanceof AppError) throw new AppError(err.code, `Plan "${p.name}": ${err.message}`, { ...err.details, field: `plans.${i}.plan` });
      throw err;
    }
  }
  for (const [i, n] of (input.notify ?? []).entries()) httpUrl(n.url, `notify.${i}.url`);
  if (input.github?.apiBase) httpUrl(input.github.apiBase, 'github.apiBase');
  const secretNames = new Set(input.secrets ? Object.keys(input.secrets) : []);
  for (const n of Object.keys(input.variables ?? {})) {
    if (secretNames.has(n)) throw new AppError('invalid_request', `"${n}" is both a variable and a secret.`, { field: `variables.${n}` });
  }
}

/** The notifier as the server wires it (routes and the run processor use one each). */
export function createNotifier(deps: Pick<ServerDeps, 'config' | 'egress' | 'redis'> & { logger?: ConstructorParameters<typeof Notifier>[0]['logger']; nodeUrl?: string }, suites: SuiteStore, runStore: ConstructorParameters<typeof Notifier>[0]['runs']): Notifier {
  const { config } = deps;
  // Commit statuses and Slack messages reach people without an API key: their report
  // links are signed and expire (the default link lifetime, see report-links.ts).
  const links = new ReportLinks(deps.redis, config.redisPrefix, config.suites.secretsKey);
  return new Notifier({
    signReportUrl: async (runId, tenant, base) => (await links.signedReportUrl(runId, tenant, { publicBase: base })).url,
    runs: runStore,
    suites,
    fetch: deps.egress?.fetch ?? fetch,
    retry: { attempts: config.notify.attempts, backoffMs: config.notify.backoffMs },
    publicUrl: config.notify.publicUrl,
    // Never the request's Host (security/public-url.ts); the cluster's URL is known once listening.
    fallbackOrigin: () => publicBaseUrl(config, deps.nodeUrl || (deps as Partial<ServerDeps>).cluster?.nodeUrl),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
}

export const suiteRoutes = (deps: ServerDeps): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const suites = new SuiteStore(deps.redis, deps.config.redisPrefix, deps.config.suites.secretsKey);
  const { store: runStore, runs: runService } = createRunService(deps);
  // Suite runs count against the tenant's max_runs like POST /v1/runs.
  const runs = quotaSubmitter(deps, runStore, runService);
  const scheduler = new SuiteScheduler(() => {
    const conn = deps.redis.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: false });
    conn.on('error', () => {});
    return conn;
  }, bullPrefix(deps.config.redisPrefix));
  const minSchedule = deps.config.suites.scheduleMinSeconds;
  app.addHook('onClose', async () => {
    await runService.close();
    await scheduler.close();
  });
  // The launcher's side of "all runs done?" (the run processor does the rest): see notify/.
  const notifier = createNotifier({ ...deps, logger: fastify.log }, suites, runStore);
  app.addHook('onClose', async () => notifier.idle());
  /** Notify URLs and the GitHub API are reached through the egress policy: refused now, not at delivery. */
  const checkOutbound = async (input: Partial<SuiteInput>) => {
    if (!deps.egress) return;
    for (const [i, n] of (input.notify ?? []).entries()) await checkEgressUrl(deps.egress.policy, n.url, `notify.${i}.url`);
    if (input.github?.apiBase) await checkEgressUrl(deps.egress.policy, input.github.apiBase, 'github.apiBase');
  };

  const runView = async (r: SuiteRun, base: string) => {
    const recs = await Promise.all(r.runs.map((x) => runStore.get(x.runId).catch(() => null)));
    return {
      id: r.id,
      createdAt: r.createdAt,
      baseUrl: r.baseUrl,
      status: suiteStatusOf(recs),
      trigger: r.trigger,
      runs: r.runs.map((x, i) => ({ plan: x.plan, runId: x.runId, status: recs[i]?.status ?? null, url: `${base}/v1/runs/${x.runId}` })),
    };
  };

  const view = async (s: Suite, base: string) => {
    const [latest] = await suites.runs(s.id, 1);
    return {
      id: s.id,
      name: s.name,
      baseUrl: s.baseUrl,
      plans: s.plans,
      variables: s.variables,
      secrets: s.secretNames,
      ...(s.roles ? { roles: s.roles } : {}),
      ...(s.planner ? { planner: s.planner } : {}),
      ...(s.model ? { model: s.model } : {}),
      ...(s.options ? { options: s.options } : {}),
      ...(s.schedule ? { schedule: { ...s.schedule, next: await scheduler.next(s.id).then((n) => (n ? new Date(n).toISOString() : null), () => null) } } : {}),
      triggers: s.triggers.map((t) => ({ id: t.id, type: t.type, ...(t.environments ? { environments: t.environments } : {}), url: `${base}/v1/hooks/${t.id}` })),
      retries: s.retries ?? 0,
      notify: (s.notify ?? []).map((n) => ({ type: n.type, on: n.on, url: n.shown })),
      ...(s.github ? { github: s.github } : {}),
      // Shown once: in the answer of the request that generated it.
      ...((s as { generatedNotifySecret?: string }).generatedNotifySecret ? { notifySecret: (s as { generatedNotifySecret?: string }).generatedNotifySecret } : {}),
      latest: latest ? await runView(latest, base) : null,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    };
  };

  app.post('/v1/suites', {
    schema: { tags: ['suites'], summary: 'Save a suite: named plans, variables, write-only secrets, deploy triggers', body: CreateSuiteBody, response: { 201: SuiteSchema, ...errors } },
  }, async (req, reply) => {
    const body = req.body as SuiteInput;
    check(body, minSchedule);
    await checkOutbound(body);
    const s = await suites.create(req.tenant, body);
    if (s.schedule) await scheduler.sync(s);
    return reply.status(201).send(await view(s, baseUrlOf(req)));
  });

  app.get('/v1/suites', {
    schema: { tags: ['suites'], summary: "This tenant's suites, newest first", response: { 200: Type.Object({ suites: Type.Array(SuiteSchema) }), ...errors } },
  }, async (req) => {
    const list = await suites.list(req.tenant);
    return { suites: await Promise.all(list.map((s) => view(s, baseUrlOf(req)))) };
  });

  app.get('/v1/suites/:id', {
    schema: { tags: ['suites'], summary: 'A suite, its trigger URLs and its latest run (secret values are never returned)', params: IdParams, response: { 200: SuiteSchema, ...errors } },
  }, async (req) => view(await suites.get(req.tenant, req.params.id), baseUrlOf(req)));

  app.patch('/v1/suites/:id', {
    schema: { tags: ['suites'], summary: 'Change a suite: each field given replaces the stored one', params: IdParams, body: UpdateSuiteBody, response: { 200: SuiteSchema, ...errors } },
  }, async (req) => {
    const body = req.body as Partial<SuiteInput>;
    check(body, minSchedule, await suites.get(req.tenant, req.params.id));
    await checkOutbound(body);
    const s = await suites.update(req.tenant, req.params.id, body);
    if (body.schedule !== undefined) await scheduler.sync(s);
    return view(s, baseUrlOf(req));
  });

  app.delete('/v1/suites/:id', {
    schema: { tags: ['suites'], summary: 'Delete a suite (its trigger URLs and its schedule stop; its runs stay until they expire)', params: IdParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    const s = await suites.delete(req.tenant, req.params.id);
    // If this fails, the next tick finds the suite gone and removes its scheduler itself.
    if (s.schedule) await scheduler.remove(s.id).catch(() => {});
    return reply.status(204).send(null);
  });

  app.post('/v1/suites/:id/runs', {
    schema: { tags: ['suites'], summary: 'Run a suite now: one ordinary run per plan (202; each run is served by /v1/runs/:id)', params: IdParams, body: Type.Optional(RunSuiteBody), response: { 202: SuiteRunSchema, ...errors } },
  }, async (req, reply) => {
    const s = await suites.get(req.tenant, req.params.id);
    const body = (req.body ?? {}) as { baseUrl?: string; sha?: string; repo?: string; environment?: string };
    if (body.baseUrl) httpUrl(body.baseUrl, 'baseUrl');
    const run = await launchSuite(suites, runs, s, {
      ...(body.baseUrl ? { baseUrl: body.baseUrl } : {}),
      origin: baseUrlOf(req),
      onRecorded: (r) => notifier.launched(r),
      trigger: { type: 'manual', ...(body.sha ? { sha: body.sha } : {}), ...(body.repo ? { repo: body.repo } : {}), ...(body.environment ? { environment: body.environment } : {}) },
    });
    return reply.status(202).send(await runView(run, baseUrlOf(req)));
  });

  app.get('/v1/suites/:id/runs', {
    schema: {
      tags: ['suites'],
      summary: "The suite's runs, newest first (the last 100 are kept)",
      params: IdParams,
      querystring: Type.Object({ limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })) }),
      response: { 200: Type.Object({ runs: Type.Array(SuiteRunSchema), status: Type.Union([Type.String(), Type.Null()], { description: 'Status of the latest suite run (null: never run).' }) }), ...errors },
    },
  }, async (req) => {
    const s = await suites.get(req.tenant, req.params.id);
    const list = await suites.runs(s.id, (req.query as { limit?: number }).limit ?? 20);
    const out = await Promise.all(list.map((r) => runView(r, baseUrlOf(req))));
    return { runs: out, status: out[0]?.status ?? null };
  });

  await app.register(hookRoutes(deps, suites, runs, notifier));
};

