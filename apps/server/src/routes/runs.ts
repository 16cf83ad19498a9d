import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { bullPrefix } from '@ariadne/cluster';
import { AppError, ErrorResponse, RoleSpec } from '@ariadne/schema';
import { followRun, RunService, RunStore, runView, SAFE_ARTIFACT, TERMINAL, toJUnit, toPlaywrightSpec, type RunRecord, type RunStatus, type StoredEvent, type SubmitBody } from '@ariadne/flows';
import type { WebSocket } from 'ws';
import { secretsBox } from '@ariadne/suites';
import type { ServerDeps } from '../deps.js';
import { FORWARDED_HEADER, forwardHeaders } from '../plugins/forward.js';
import { SignedLinkQuery } from './report.js';

// Flow runs: POST a plan, it runs as a BullMQ job on a worker with its own leases;
// read its status and report (JSON, JUnit XML), cancel it, download its artifacts.

const errors = { 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };

const RunStatusSchema = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('passed'), Type.Literal('failed'), Type.Literal('error'), Type.Literal('cancelled')]);

export const RunOptions = Type.Object({
  trace: Type.Optional(Type.Boolean({ description: 'Record a Playwright trace per case (default true).' })),
  screenshots: Type.Optional(Type.Boolean({ description: 'A screenshot after every step (default true).' })),
  maxStepsPerCase: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  maxTurnsPerCase: Type.Optional(Type.Integer({ minimum: 1, maximum: 10_000 })),
  maxTokensPerCase: Type.Optional(Type.Integer({ minimum: 1000, maximum: 100_000_000 })),
  maxTokensPerRun: Type.Optional(Type.Integer({ minimum: 1000, maximum: 1_000_000_000 })),
  caseTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  runTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400 })),
  retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description: 'A failed case is tried again this many times, each in a fresh browser context starting from the cookies, storage and URL the case started with (default 0). A case that passes only then is reported flaky (case status, totals.flaky, JUnit), never passed.' })),
}, { additionalProperties: false, description: 'Per-run limits; each is capped by the server\'s RUN_* settings.' });

export const CreateRunBody = Type.Object({
  url: Type.Optional(Type.String({ minLength: 1, maxLength: 8192, description: 'Where the flow starts (http or https). Required unless replayOf.' })),
  plan: Type.Optional(Type.String({ minLength: 1, maxLength: 100_000, description: 'Markdown: #Case N: name, bullets for steps; Verify/Check/Assert/Confirm/Ensure bullets are mandatory assertions; {{VAR}} variables; "as role:" prefixes.' })),
  planner: Type.Optional(Type.Union([Type.Literal('rules'), Type.Literal('anthropic'), Type.Literal('openai')])),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Model API key for this run (never returned).' })),
  baseUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'Model API base URL (OpenAI-compatible servers: Ollama, vLLM, LM Studio).' })),
  variables: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_][\\w.-]*$' }), Type.String({ maxLength: 10_000 }), { maxProperties: 200, description: 'Values for {{NAME}} in the plan. Names like PASSWORD, TOKEN, SECRET, KEY, OTP or PIN are secret: never returned, scrubbed from reports, events, logs and traces, and sealed at rest with SECRETS_KEY.' })),
  secrets: Type.Optional(Type.Record(Type.String({ pattern: '^[A-Za-z_][\\w.-]*$' }), Type.String({ maxLength: 10_000 }), { maxProperties: 200, description: 'Variables that are secret whatever their names (write-only): used like variables, never returned nor shown in reports, events, logs or traces; sealed at rest with SECRETS_KEY (without it, stored as given, like apiKey).' })),
  roles: Type.Optional(Type.Array(RoleSpec, { maxItems: 16, description: 'Context settings for roles the plan uses.' })),
  callbackUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'http(s) URL the final report is POSTed to, signed (X-Ariadne-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">) and tried again with backoff; every try is listed in the run\'s deliveries.' })),
  callbackSecret: Type.Optional(Type.String({ minLength: 16, maxLength: 256, description: 'Signs the callback (write-only). Left out: the service generates one and answers it once, as callbackSecret in the 202 answer.' })),
  replayOf: Type.Optional(Type.String({ maxLength: 64, description: 'Re-run the recorded actions of this run without the planner; steps whose locator no longer resolves are redone by the planner (self-healing).' })),
  options: Type.Optional(RunOptions),
}, { additionalProperties: false });

const RunViewSchema = Type.Object({
  id: Type.String(),
  status: RunStatusSchema,
  url: Type.String(),
  planner: Type.String(),
  model: Type.Optional(Type.String()),
  createdAt: Type.String(),
  startedAt: Type.Optional(Type.String()),
  finishedAt: Type.Optional(Type.String()),
  attempts: Type.Integer({ description: 'Workers that started this run (more than 1: its worker stopped and another took over).' }),
  replayOf: Type.Optional(Type.String()),
  variables: Type.Array(Type.String(), { description: 'Variable names (values are never returned).' }),
  suite: Type.Optional(Type.Object({
    id: Type.String(),
    plan: Type.String(),
    trigger: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'What started it: type (manual, github, vercel, netlify, generic), repo, sha, environment, delivery, suiteRun.' })),
  }, { description: 'The saved suite (and deploy) that started this run.' })),
  error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
  totals: Type.Optional(Type.Any()),
  report: Type.Optional(Type.Any({ description: 'The JSON report: cases, steps (action, ref, verified locator, timing, screenshot, error), assertions, durations, counts.' })),
  deliveries: Type.Optional(Type.Array(Type.Object({
    kind: Type.String({ description: 'callback, webhook, slack or github_status.' }),
    event: Type.String(),
    url: Type.String({ description: 'Where it went (a Slack URL shows its origin only).' }),
    state: Type.Optional(Type.String({ description: 'GitHub statuses: the state posted.' })),
    suiteRun: Type.Optional(Type.String()),
    delivered: Type.Boolean(),
    attempts: Type.Array(Type.Object({ at: Type.String(), durationMs: Type.Integer(), status: Type.Optional(Type.Integer()), error: Type.Optional(Type.String()) })),
  }), { description: 'Outbound deliveries about this run, oldest first, with every try (never a secret or token).' })),
  callbackSecret: Type.Optional(Type.String({ description: 'Only in the 202 answer of a run with a callbackUrl and no callbackSecret: the generated signing secret, shown once.' })),
  links: Type.Record(Type.String(), Type.String()),
});

const IdParams = Type.Object({ id: Type.String({ maxLength: 64 }) });

/**
 * Count a new run against the tenant's max_runs (queued or running) before it is
 * queued. Runs that finished are dropped from the count by looking at their records.
 */
async function withRunQuota<T extends { id: string }>(deps: ServerDeps, store: RunStore, tenant: string, submit: () => Promise<T>): Promise<T> {
  const quotas = deps.quotas;
  if (!quotas || !quotas.limits(tenant).maxRuns) return submit();
  // Queue wait plus the run's own limit bound how long a run can stay active.
  const lifetimeMs = deps.config.runs.runTimeoutMs + 3_600_000;
  const placeholder = `pending-${randomUUID()}`;
  await quotas.takeRun(tenant, placeholder, 60_000, async (id) => {
    if (id.startsWith('pending-')) return true;
    const rec = await store.get(id);
    return Boolean(rec && !TERMINAL.includes(rec.status));
  });
  try {
    const rec = await submit();
    await quotas.bindRun(tenant, placeholder, rec.id, lifetimeMs).catch(() => {});
    return rec;
  } catch (err) {
    await quotas.releaseRun(tenant, placeholder).catch(() => {});
    throw err;
  }
}

/** Submits runs counted against the tenant's max_runs, as POST /v1/runs does (suites, schedules). */
export function quotaSubmitter(deps: ServerDeps, store: RunStore, runs: RunService): { submit(tenant: string, body: SubmitBody): Promise<RunRecord> } {
  return { submit: (tenant, body) => withRunQuota(deps, store, tenant, () => runs.submit(tenant, body)) };
}

/**
 * A run's `secrets` (variables secret whatever their names): with SECRETS_KEY the run
 * service seals them; without it they travel as variables listed in secretNames, stored
 * as given (like the run's apiKey) and scrubbed from every output all the same.
 */
function withExplicitSecrets(body: SubmitBody, sealable: boolean): SubmitBody {
  const secrets = body.secrets;
  if (!secrets || !Object.keys(secrets).length) {
    const { secrets: _none, secretNames: _internal, ...rest } = body;
    return rest;
  }
  for (const name of Object.keys(secrets)) {
    if (body.variables && Object.hasOwn(body.variables, name)) throw new AppError('invalid_request', `"${name}" is both a variable and a secret.`, { field: `secrets.${name}` });
  }
  const { secretNames: _internal, ...rest } = body;
  if (sealable) return { ...rest, secretNames: Object.keys(secrets) };
  const { secrets: _given, ...plain } = rest;
  return { ...plain, variables: { ...(body.variables ?? {}), ...secrets }, secretNames: Object.keys(secrets) };
}

function baseUrlOf(req: FastifyRequest): string {
  return `${req.protocol}://${req.headers.host ?? 'localhost'}`;
}

const CONTENT_TYPES: Record<string, string> = { '.jpg': 'image/jpeg', '.png': 'image/png', '.zip': 'application/zip', '.json': 'application/json' };

/**
 * The run store as every part of the server opens it: with SECRETS_KEY, a run's own secrets
 * (API key, callback secret) are sealed at rest and opened again here.
 */
export function runStoreFor(redis: ServerDeps['redis'], config: ServerDeps['config']): RunStore {
  return new RunStore(redis, config.redisPrefix, config.runs.retentionSeconds, secretsBox(config.suites.secretsKey));
}

/** The run store and service as /v1/runs uses them (saved suites submit through one too). */
export function createRunService(deps: ServerDeps): { store: RunStore; runs: RunService } {
  const { config } = deps;
  const store = runStoreFor(deps.redis, config);
  const runs = new RunService(
    store,
    // BullMQ needs a connection that waits for Redis instead of failing fast.
    () => {
      const conn = deps.redis.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true, lazyConnect: false });
      conn.on('error', () => {});
      return conn;
    },
    bullPrefix(config.redisPrefix),
    { planner: config.runs.planner, anthropic: config.runs.anthropic, openai: config.runs.openai },
    config.allowedSchemes,
    deps.egress?.policy,
    secretsBox(config.suites.secretsKey),
  );
  return { store, runs };
}

export const runRoutes = (deps: ServerDeps): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = deps;
  const { store, runs } = createRunService(deps);
  app.addHook('onClose', async () => runs.close());
  // Followers block on the run's Redis stream, each on a connection of its own.
  const followers = new Set<AbortController>();
  app.addHook('preClose', async () => {
    for (const f of followers) f.abort();
  });
  const follow = async (tenant: string, id: string, since: number, onEvent: (e: StoredEvent) => void | Promise<void>, abort: AbortController) => {
    await store.getFor(tenant, id);
    const conn = deps.redis.duplicate({ lazyConnect: false, maxRetriesPerRequest: null, enableOfflineQueue: true });
    conn.on('error', () => {});
    followers.add(abort);
    try {
      return await followRun(store, conn, id, since, onEvent, abort.signal);
    } finally {
      followers.delete(abort);
      conn.disconnect();
    }
  };
  const SinceQuery = Type.Object({
    since: Type.Optional(Type.Integer({ minimum: 0, description: 'Replay events after this sequence number (default 0: everything).' })),
    token: Type.Optional(Type.String({ description: 'API key, for clients that cannot set the Authorization header.' })),
  });

  app.get('/v1/runs/:id/stream', {
    websocket: true,
    schema: {
      tags: ['runs'],
      summary: 'WebSocket: the run\'s events, replayed from ?since= then live; closes with 1000 after run_finished',
      params: IdParams,
      querystring: SinceQuery,
    },
  }, (socket: WebSocket, req) => {
    const { id } = req.params as { id: string };
    const since = (req.query as { since?: number }).since ?? 0;
    if (!req.tenant) return socket.close(4401, 'unauthorized');
    const abort = new AbortController();
    socket.on('close', () => abort.abort());
    // Events are pushed; anything the client sends is ignored.
    socket.on('message', () => {});
    follow(req.tenant, id, since, (e) => {
      if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(e));
    }, abort).then(
      (how) => { if (how === 'finished' && socket.readyState === socket.OPEN) socket.close(1000, 'run_finished'); },
      (err) => socket.close(err instanceof AppError && err.code === 'run_not_found' ? 4404 : 1011, err instanceof AppError ? err.code : 'internal_error'),
    );
  });

  app.get('/v1/runs/:id/events', {
    schema: {
      tags: ['runs'],
      summary: 'Server-sent events: the run\'s events, replayed from ?since= (or Last-Event-ID) then live; ends after run_finished',
      params: IdParams,
      querystring: SinceQuery,
      response: { 200: Type.String({ description: 'text/event-stream: `id: <seq>`, `event: <type>`, `data: <JSON>`' }), ...errors },
    },
  }, async (req, reply) => {
    const q = req.query as { since?: number };
    const lastId = Number(req.headers['last-event-id']);
    const since = q.since ?? (Number.isInteger(lastId) && lastId >= 0 ? lastId : 0);
    await store.getFor(req.tenant, req.params.id);
    const abort = new AbortController();
    reply.hijack();
    const raw = reply.raw;
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-request-id': req.id,
    });
    raw.on('close', () => abort.abort());
    const keepalive = setInterval(() => raw.write(': keepalive\n\n'), 15_000);
    try {
      await follow(req.tenant, req.params.id, since, (e) => {
        raw.write(`id: ${e.seq}\nevent: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
      }, abort);
    } catch (err) {
      raw.write(`event: error\ndata: ${JSON.stringify({ code: err instanceof AppError ? err.code : 'internal_error' })}\n\n`);
    } finally {
      clearInterval(keepalive);
      raw.end();
    }
  });

  app.post('/v1/runs', {
    schema: {
      tags: ['runs'],
      summary: 'Run a plain-English plan in real browsers (a queued job; 202 with the run id)',
      body: CreateRunBody,
      response: { 202: RunViewSchema, ...errors },
    },
  }, async (req, reply) => {
    const rec = await withRunQuota(deps, store, req.tenant, () => runs.submit(req.tenant, withExplicitSecrets(req.body as SubmitBody, config.suites.secretsKey !== null)));
    return reply.status(202).send({ ...runView(rec, baseUrlOf(req), false), ...(rec.callbackSecret ? { callbackSecret: rec.callbackSecret } : {}) });
  });

  app.get('/v1/runs', {
    schema: {
      tags: ['runs'],
      summary: "This tenant's runs, newest first (bounded)",
      querystring: Type.Object({
        status: Type.Optional(RunStatusSchema),
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
      }),
      response: { 200: Type.Object({ runs: Type.Array(RunViewSchema), total: Type.Integer() }), ...errors },
    },
  }, async (req) => {
    const q = req.query as { status?: RunStatus; limit?: number };
    const list = await runs.list(req.tenant, q.status, q.limit ?? 20);
    return { runs: list.map((r) => runView(r, baseUrlOf(req), false)), total: list.length };
  });

  app.get('/v1/runs/:id', {
    schema: { tags: ['runs'], summary: 'A run: status and, once it has steps, its JSON report', params: IdParams, response: { 200: RunViewSchema, ...errors } },
  }, async (req) => {
    const rec = await runs.get(req.tenant, req.params.id);
    return runView(rec, baseUrlOf(req), true, await store.deliveries(rec.id).catch(() => []));
  });

  app.delete('/v1/runs/:id', {
    schema: { tags: ['runs'], summary: 'Cancel a run (queued: removed; running: stopped at its next step)', params: IdParams, response: { 202: RunViewSchema, ...errors } },
  }, async (req, reply) => reply.status(202).send(runView(await runs.cancel(req.tenant, req.params.id), baseUrlOf(req), false)));

  app.get('/v1/runs/:id/junit', {
    schema: { tags: ['runs'], summary: 'The report as JUnit XML, for CI', params: IdParams, response: { 200: Type.String({ description: 'application/xml' }), ...errors } },
  }, async (req, reply) => {
    const rec = await runs.get(req.tenant, req.params.id);
    if (!rec.report) throw new AppError('run_not_found', `Run ${rec.id} has no report yet (${rec.status}).`, { runId: rec.id, status: rec.status });
    return reply.header('content-type', 'application/xml; charset=utf-8').send(toJUnit(rec.report));
  });

  app.get('/v1/runs/:id/spec', {
    schema: {
      tags: ['runs'],
      summary: 'A Playwright Test file reproducing the passing cases with the verified locators and expect assertions',
      params: IdParams,
      response: { 200: Type.String({ description: 'TypeScript (.spec.ts)' }), ...errors },
    },
  }, async (req, reply) => {
    const rec = await runs.get(req.tenant, req.params.id);
    if (!TERMINAL.includes(rec.status) || !rec.report) {
      throw new AppError('run_finished', `Run ${rec.id} is ${rec.status}: the spec is made from a finished run.`, { runId: rec.id, status: rec.status });
    }
    if (!rec.report.cases.some((c) => c.status === 'passed' || c.status === 'flaky')) {
      throw new AppError('no_passing_cases', `Run ${rec.id} has no passing case to export.`, { runId: rec.id, status: rec.status });
    }
    const roles = [...new Set(rec.report.cases.flatMap((c) => c.steps.map((s) => s.role)))];
    return reply
      .header('content-type', 'text/plain; charset=utf-8')
      .header('content-disposition', `attachment; filename="ariadne-${rec.id}.spec.ts"`)
      .send(toPlaywrightSpec(rec.report, { variables: rec.request.variables, secretNames: rec.request.secretNames, roles }));
  });

  app.get('/v1/runs/:id/artifacts/:name', {
    schema: {
      tags: ['runs'],
      summary: 'A screenshot or Playwright trace of a run (names are in the report); the HTML report embeds its screenshots with signed URLs',
      params: Type.Object({ id: Type.String({ maxLength: 64 }), name: Type.String({ maxLength: 128 }) }),
      querystring: SignedLinkQuery,
      response: { 200: Type.String({ description: 'image/jpeg or application/zip (fetched from the node that ran the run)' }), ...errors, 502: ErrorResponse },
    },
  }, async (req, reply) => {
    const rec = await store.getFor(req.tenant, req.params.id);
    const name = req.params.name;
    const file = path.join(config.runs.dir, rec.id, name);
    const st = SAFE_ARTIFACT.test(name) ? await stat(file).catch(() => null) : null;
    if (!st?.isFile()) {
      // Artifacts stay on the disk of the node that ran the run: ask that node.
      if (SAFE_ARTIFACT.test(name) && rec.node && rec.node !== config.nodeId && deps.cluster && !req.headers[FORWARDED_HEADER]) {
        const owner = await deps.cluster.membership.nodes.get(rec.node).catch(() => null);
        if (owner?.alive) {
          return reply.from(`${owner.url}${req.url}`, {
            rewriteRequestHeaders: (_r, headers) => ({ ...headers, ...forwardHeaders(req, config.nodeId) }),
            onError: (rep, { error }) => {
              rep.status(502).send(new AppError('node_unreachable', `Run ${rec.id} ran on node ${rec.node}, which keeps its artifacts and did not answer: ${error.message}`, { runId: rec.id, node: rec.node }).toJSON());
            },
          });
        }
      }
      throw new AppError('not_found', `Run ${rec.id} has no artifact "${name}" here${rec.node && rec.node !== config.nodeId ? ` (it ran on node ${rec.node}, which is gone)` : ''}.`, { runId: rec.id, name, node: rec.node });
    }
    return reply
      .header('content-type', CONTENT_TYPES[path.extname(name)] ?? 'application/octet-stream')
      .header('content-length', st.size)
      .send(createReadStream(file) as never);
  });
};
