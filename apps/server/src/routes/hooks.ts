import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, ErrorResponse } from '@ariadne/schema';
import { launchSuite, verifyAriadne, verifyGitHub, type RunSubmitter, type Suite, type SuiteRunTrigger, type SuiteStore } from '@ariadne/suites';
import type { ServerDeps } from '../deps.js';
import { HookAnswer } from './suite-schemas.js';

// Inbound deploy webhooks: POST /v1/hooks/:hookId, no API key (the hook id is
// unguessable and the body is signed with the trigger's secret). The signature is
// checked over the exact raw bytes, so this plugin (and only it) reads bodies as
// Buffers. Valid deliveries queue the suite's runs and answer 202 at once; nothing is
// queued for a bad signature, a stale timestamp, an unknown hook or a malformed body.

/** Deploy events are small (GitHub's deployment_status is ~20 KB). */
export const HOOK_BODY_LIMIT = 1024 * 1024;

const HookParams = Type.Object({ hookId: Type.String({ maxLength: 64 }) });
const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 413: ErrorResponse, 503: ErrorResponse };

function parseJson(body: Buffer, contentType: string | undefined): Record<string, unknown> {
  let text = body.toString('utf8');
  // GitHub can send application/x-www-form-urlencoded: the JSON is in "payload".
  if ((contentType ?? '').startsWith('application/x-www-form-urlencoded')) text = new URLSearchParams(text).get('payload') ?? '';
  if (!text.trim()) return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new AppError('invalid_payload', 'The body is not JSON.');
  }
  if (!v || typeof v !== 'object' || Array.isArray(v)) throw new AppError('invalid_payload', 'The body must be a JSON object.');
  return v as Record<string, unknown>;
}

const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const str = (v: unknown, max = 2048): string | undefined => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : undefined);

function httpUrlOrThrow(raw: string, field: string): void {
  let ok = false;
  try {
    const u = new URL(raw);
    ok = u.protocol === 'http:' || u.protocol === 'https:';
  } catch { /* not a URL */ }
  if (!ok) throw new AppError('invalid_payload', `${field} must be an http(s) URL.`, { field });
}

export const hookRoutes = (deps: ServerDeps, suites: SuiteStore, runs: RunSubmitter): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  // Scoped to this plugin: every body is kept as the exact bytes received.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: HOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));

  const start = async (reply: FastifyReply, suite: Suite, hookId: string, dedupeKey: string | undefined, baseUrl: string | undefined, trigger: SuiteRunTrigger) => {
    const id = randomUUID();
    if (dedupeKey) {
      const first = await suites.claimDelivery(hookId, dedupeKey, id);
      if (first) return reply.status(200).send({ status: 'duplicate', reason: `Delivery ${dedupeKey} was already received; nothing started.`, suiteRun: first });
    }
    try {
      const run = await launchSuite(suites, runs, suite, { id, ...(baseUrl ? { baseUrl } : {}), trigger: { ...trigger, hookId } });
      return reply.status(202).send({ status: 'accepted', suiteRun: run.id, runs: run.runs.map((r) => r.runId) });
    } catch (err) {
      // Not started: a redelivery may try again.
      if (dedupeKey) await suites.releaseDelivery(hookId, dedupeKey);
      throw err;
    }
  };

  app.post('/v1/hooks/:hookId', {
    bodyLimit: HOOK_BODY_LIMIT,
    schema: {
      tags: ['hooks'],
      summary: 'Deploy webhook of a suite trigger (no API key: signed with the trigger\'s secret). GitHub deployment_status (X-Hub-Signature-256) or generic (X-Ariadne-Signature: t=,v1=)',
      security: [],
      params: HookParams,
      response: { 200: HookAnswer, 202: HookAnswer, ...errors },
    },
  }, async (req, reply) => {
    const { hookId } = req.params;
    const found = await suites.byHook(hookId);
    if (!found) throw new AppError('hook_not_found', 'No trigger has this hook URL (it may have been removed).');
    const { suite, trigger } = found;
    const secret = suites.secretsOf(suite).hooks[hookId];
    if (!secret) throw new AppError('hook_not_found', 'This trigger has no signing secret.');
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const header = (name: string) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };

    if (trigger.type === 'github') {
      const sig = verifyGitHub(secret, body, header('x-hub-signature-256'));
      if (!sig.ok) throw new AppError('invalid_signature', sig.message, { reason: sig.reason });
      const event = header('x-github-event');
      if (event === 'ping') return reply.status(200).send({ status: 'pong' });
      const payload = parseJson(body, header('content-type'));
      if (event !== 'deployment_status') return reply.status(202).send({ status: 'ignored', reason: `Event "${event ?? '(none)'}" does not start runs; only deployment_status does.` });
      const delivery = str(header('x-github-delivery'), 200);
      if (!delivery) throw new AppError('invalid_payload', 'Missing X-GitHub-Delivery.', { field: 'X-GitHub-Delivery' });
      const ds = obj(payload.deployment_status);
      const deployment = obj(payload.deployment);
      const state = str(ds.state, 100);
      if (!state) throw new AppError('invalid_payload', 'deployment_status.state is missing.', { field: 'deployment_status.state' });
      if (state !== 'success') return reply.status(202).send({ status: 'ignored', reason: `Deployment state is "${state}"; only "success" starts runs.` });
      const environment = str(ds.environment, 200) ?? str(deployment.environment, 200);
      if (trigger.environments && !(environment && trigger.environments.includes(environment))) {
        return reply.status(202).send({ status: 'ignored', reason: `Environment "${environment ?? '(none)'}" is not one of this trigger's (${trigger.environments.join(', ')}).` });
      }
      const url = str(ds.environment_url) ?? str(deployment.environment_url);
      if (!url) return reply.status(202).send({ status: 'ignored', reason: 'The deployment has no environment_url to test.' });
      httpUrlOrThrow(url, 'deployment_status.environment_url');
      const repo = str(obj(payload.repository).full_name, 300);
      const sha = str(deployment.sha, 200);
      return start(reply, suite, hookId, `github:${delivery}`, url, {
        type: 'github', delivery, ...(repo ? { repo } : {}), ...(sha ? { sha } : {}), ...(environment ? { environment } : {}),
      });
    }

    // generic: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">, 5 minutes of tolerance.
    const sig = verifyAriadne(secret, body, header('x-ariadne-signature'));
    if (!sig.ok) throw new AppError(sig.reason === 'expired' ? 'signature_expired' : 'invalid_signature', sig.message, { reason: sig.reason });
    const payload = parseJson(body, header('content-type'));
    const baseUrl = str(payload.baseUrl);
    if (payload.baseUrl !== undefined && !baseUrl) throw new AppError('invalid_payload', 'baseUrl must be a string.', { field: 'baseUrl' });
    if (baseUrl) httpUrlOrThrow(baseUrl, 'baseUrl');
    const key = str(header('idempotency-key'), 200) ?? str(payload.idempotencyKey, 200);
    const sha = str(payload.sha, 200);
    const environment = str(payload.environment, 200);
    return start(reply, suite, hookId, key ? `generic:${key}` : undefined, baseUrl, {
      type: 'generic', ...(key ? { delivery: key } : {}), ...(sha ? { sha } : {}), ...(environment ? { environment } : {}),
    });
  });
};
