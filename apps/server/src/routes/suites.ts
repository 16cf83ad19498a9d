import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, ErrorResponse } from '@ariadne/schema';
import { parsePlan } from '@ariadne/flows';
import { launchSuite, suiteStatus, SuiteStore, type Suite, type SuiteInput, type SuiteRun } from '@ariadne/suites';
import type { ServerDeps } from '../deps.js';
import { createRunService } from './runs.js';
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
function check(input: Partial<SuiteInput>, current?: Suite): void {
  if (input.baseUrl !== undefined) httpUrl(input.baseUrl, 'baseUrl');
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
  const secretNames = new Set(input.secrets ? Object.keys(input.secrets) : []);
  for (const n of Object.keys(input.variables ?? {})) {
    if (secretNames.has(n)) throw new AppError('invalid_request', `"${n}" is both a variable and a secret.`, { field: `variables.${n}` });
  }
}

export const suiteRoutes = (deps: ServerDeps): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const suites = new SuiteStore(deps.redis, deps.config.redisPrefix, deps.config.suites.secretsKey);
  const { store: runStore, runs } = createRunService(deps);
  app.addHook('onClose', async () => runs.close());

  const runView = async (r: SuiteRun, base: string) => {
    const recs = await Promise.all(r.runs.map((x) => runStore.get(x.runId).catch(() => null)));
    return {
      id: r.id,
      createdAt: r.createdAt,
      baseUrl: r.baseUrl,
      status: suiteStatus(recs.map((rec) => rec?.status ?? null)),
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
      triggers: s.triggers.map((t) => ({ id: t.id, type: t.type, ...(t.environments ? { environments: t.environments } : {}), url: `${base}/v1/hooks/${t.id}` })),
      latest: latest ? await runView(latest, base) : null,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
    };
  };

  app.post('/v1/suites', {
    schema: { tags: ['suites'], summary: 'Save a suite: named plans, variables, write-only secrets, deploy triggers', body: CreateSuiteBody, response: { 201: SuiteSchema, ...errors } },
  }, async (req, reply) => {
    const body = req.body as SuiteInput;
    check(body);
    const s = await suites.create(req.tenant, body);
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
    check(body, await suites.get(req.tenant, req.params.id));
    return view(await suites.update(req.tenant, req.params.id, body), baseUrlOf(req));
  });

  app.delete('/v1/suites/:id', {
    schema: { tags: ['suites'], summary: 'Delete a suite (its trigger URLs stop working; its runs stay until they expire)', params: IdParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await suites.delete(req.tenant, req.params.id);
    return reply.status(204).send(null);
  });

  app.post('/v1/suites/:id/runs', {
    schema: { tags: ['suites'], summary: 'Run a suite now: one ordinary run per plan (202; each run is served by /v1/runs/:id)', params: IdParams, body: Type.Optional(RunSuiteBody), response: { 202: SuiteRunSchema, ...errors } },
  }, async (req, reply) => {
    const s = await suites.get(req.tenant, req.params.id);
    const body = (req.body ?? {}) as { baseUrl?: string; sha?: string; environment?: string };
    if (body.baseUrl) httpUrl(body.baseUrl, 'baseUrl');
    const run = await launchSuite(suites, runs, s, {
      ...(body.baseUrl ? { baseUrl: body.baseUrl } : {}),
      trigger: { type: 'manual', ...(body.sha ? { sha: body.sha } : {}), ...(body.environment ? { environment: body.environment } : {}) },
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

  await app.register(hookRoutes(deps, suites, runs));
};

