import { createHash, randomUUID } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, ErrorResponse } from '@ariadne/schema';
import { launchSuite, verifyAriadne, verifyGitHub, verifyNetlify, verifyVercel, type Notifier, type RunSubmitter, type Suite, type SuiteRunTrigger, type SuiteStore } from '@ariadne/suites';
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

/** How far ahead of this node's clock a signed GitHub time may be (clock skew), in ms. */
const GITHUB_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * Refuses a deployment_status whose signed time (updated_at, else created_at) is older than
 * the replay window: once the dedupe record of a delivery is gone (DELIVERY_TTL_SECONDS,
 * longer than any allowed window), its bytes would otherwise start runs again. A body
 * without either time (not GitHub's) is left to the dedupe alone.
 */
function checkGitHubFreshness(ds: Record<string, unknown>, windowSeconds: number, now = Date.now()): void {
  const raw = str(ds.updated_at, 64) ?? str(ds.created_at, 64);
  if (!raw) return;
  const at = Date.parse(raw);
  if (!Number.isFinite(at)) throw new AppError('invalid_payload', 'deployment_status.updated_at is not a time.', { field: 'deployment_status.updated_at' });
  if (at > now + GITHUB_CLOCK_SKEW_MS) {
    throw new AppError('invalid_payload', 'deployment_status.updated_at is in the future (check this node\'s clock).', { field: 'deployment_status.updated_at' });
  }
  if (now - at > windowSeconds * 1000) {
    throw new AppError('signature_expired', `This deployment status is from ${new Date(at).toISOString()}, older than the ${windowSeconds}-second replay window (HOOK_REPLAY_WINDOW_SECONDS): nothing started.`, { reason: 'expired', field: 'deployment_status.updated_at', windowSeconds });
  }
}

/**
 * The dedupe key of a GitHub delivery, from signed body fields only: the deployment
 * status's id (one per status GitHub creates), else the deployment's id with the state,
 * else the digest of the signed bytes (a replay is the same bytes).
 */
function githubDedupeKey(ds: Record<string, unknown>, deployment: Record<string, unknown>, state: string, body: Buffer): string {
  const id = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : str(v, 100));
  const statusId = id(ds.id);
  if (statusId) return `github:status:${statusId}`;
  const deploymentId = id(deployment.id);
  if (deploymentId) return `github:deployment:${deploymentId}:${state}`;
  return `github:body:${createHash('sha256').update(body).digest('hex')}`;
}

export const hookRoutes = (deps: ServerDeps, suites: SuiteStore, runs: RunSubmitter, notifier?: Notifier): FastifyPluginAsync => async (fastify) => {
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
      const run = await launchSuite(suites, runs, suite, {
        id, ...(baseUrl ? { baseUrl } : {}), trigger: { ...trigger, hookId },
        ...(notifier ? { onRecorded: (r) => notifier.launched(r) } : {}),
      });
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
      summary: 'Deploy webhook of a suite trigger (no API key: signed with the trigger\'s secret): GitHub deployment_status, Vercel deployment.succeeded, Netlify deploy ready, or generic (X-Ariadne-Signature: t=,v1=)',
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
      // GitHub signs the body only (not X-GitHub-Delivery) and adds no timestamp: a replay
      // is refused on what the signature covers. Too old: the status's own time.
      checkGitHubFreshness(ds, deps.config.suites.hookReplayWindowSeconds);
      const environment = str(ds.environment, 200) ?? str(deployment.environment, 200);
      if (trigger.environments && !(environment && trigger.environments.includes(environment))) {
        return reply.status(202).send({ status: 'ignored', reason: `Environment "${environment ?? '(none)'}" is not one of this trigger's (${trigger.environments.join(', ')}).` });
      }
      const url = str(ds.environment_url) ?? str(deployment.environment_url);
      if (!url) return reply.status(202).send({ status: 'ignored', reason: 'The deployment has no environment_url to test.' });
      httpUrlOrThrow(url, 'deployment_status.environment_url');
      const repo = str(obj(payload.repository).full_name, 300);
      const sha = str(deployment.sha, 200);
      return start(reply, suite, hookId, githubDedupeKey(ds, deployment, state, body), url, {
        type: 'github', delivery, ...(repo ? { repo } : {}), ...(sha ? { sha } : {}), ...(environment ? { environment } : {}),
      });
    }

    const envAllowed = (environment: string | undefined) => !trigger.environments || (!!environment && trigger.environments.includes(environment));
    const notListed = (environment: string | undefined) => reply.status(202).send({ status: 'ignored', reason: `Environment "${environment ?? '(none)'}" is not one of this trigger's (${trigger.environments!.join(', ')}).` });
    /** Vercel sends hosts without a scheme (my-app-abc.vercel.app): those are https. */
    const withScheme = (u: string) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? u : `https://${u}`);

    if (trigger.type === 'vercel') {
      const sig = verifyVercel(secret, body, header('x-vercel-signature'));
      if (!sig.ok) throw new AppError('invalid_signature', sig.message, { reason: sig.reason });
      const payload = parseJson(body, header('content-type'));
      const type = str(payload.type, 200);
      if (type !== 'deployment.succeeded') return reply.status(202).send({ status: 'ignored', reason: `Event "${type ?? '(none)'}" does not start runs; only deployment.succeeded does.` });
      const eventId = str(payload.id, 200);
      if (!eventId) throw new AppError('invalid_payload', 'The event has no id.', { field: 'id' });
      const p = obj(payload.payload);
      const deployment = obj(p.deployment);
      const meta = obj(deployment.meta);
      const environment = str(p.target, 200) ?? 'preview';
      if (!envAllowed(environment)) return notListed(environment);
      const host = str(deployment.url) ?? str(p.url);
      if (!host) return reply.status(202).send({ status: 'ignored', reason: 'The deployment has no url to test.' });
      const url = withScheme(host);
      httpUrlOrThrow(url, 'payload.deployment.url');
      const org = str(meta.githubCommitOrg, 200);
      const name = str(meta.githubCommitRepo, 200);
      const sha = str(meta.githubCommitSha, 200);
      return start(reply, suite, hookId, `vercel:${eventId}`, url, {
        type: 'vercel', delivery: eventId, environment, ...(org && name ? { repo: `${org}/${name}` } : {}), ...(sha ? { sha } : {}),
      });
    }

    if (trigger.type === 'netlify') {
      const sig = verifyNetlify(secret, body, header('x-webhook-signature'));
      if (!sig.ok) throw new AppError('invalid_signature', sig.message, { reason: sig.reason });
      const payload = parseJson(body, header('content-type'));
      const state = str(payload.state, 100);
      if (!state) throw new AppError('invalid_payload', 'The deploy has no state.', { field: 'state' });
      if (state !== 'ready') return reply.status(202).send({ status: 'ignored', reason: `Deploy state is "${state}"; only "ready" (deploy succeeded) starts runs.` });
      const deployId = str(payload.id, 200);
      if (!deployId) throw new AppError('invalid_payload', 'The deploy has no id.', { field: 'id' });
      const environment = str(payload.context, 200);
      if (!envAllowed(environment)) return notListed(environment);
      // The deploy's own URL (what was just built), else the site's.
      const target = str(payload.deploy_ssl_url) ?? str(payload.deploy_url) ?? str(payload.ssl_url) ?? str(payload.url);
      if (!target) return reply.status(202).send({ status: 'ignored', reason: 'The deploy has no URL to test.' });
      const url = withScheme(target);
      httpUrlOrThrow(url, 'deploy_ssl_url');
      const sha = str(payload.commit_ref, 200);
      return start(reply, suite, hookId, `netlify:${deployId}`, url, {
        type: 'netlify', delivery: deployId, ...(environment ? { environment } : {}), ...(sha ? { sha } : {}),
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
