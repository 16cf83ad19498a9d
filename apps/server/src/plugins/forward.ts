import type { FastifyInstance, FastifyRequest } from 'fastify';
import replyFrom from '@fastify/reply-from';
import { AppError } from '@ariadne/schema';
import type { ServerDeps } from '../deps.js';

// Any node answers for any session: a request for a session whose browsers live on
// another node is forwarded to that node, headers (auth, request id) included, so
// clients can talk to any node behind a load balancer. A session whose node stopped
// heart-beating answers 410 session_lost at once.

export const FORWARDED_HEADER = 'x-ariadne-forwarded';

const SESSION_PATH = /^\/v1\/sessions\/([^/?#]+)(?=[/?#]|$)/;

export type Owner = { kind: 'local' } | { kind: 'remote'; url: string; node: string };

/** Where a session's browsers live, as seen from this node; throws 410 if its node is dead. */
export async function ownerOf(deps: ServerDeps, tenant: string, id: string): Promise<Owner> {
  if (deps.sessions.isLocal(id) || !deps.cluster || !deps.store) return { kind: 'local' };
  const rec = await deps.store.get(id);
  // Unknown, another tenant's, ended, or ours: the local handlers give the right answer.
  if (!rec || rec.tenant !== tenant || rec.status !== 'active' || rec.node === deps.config.nodeId) return { kind: 'local' };
  const node = await deps.cluster.membership.nodes.get(rec.node);
  if (!node || !node.alive) {
    await deps.store.end(rec, 'lost', 'node_lost').catch(() => {});
    throw new AppError('session_lost', `Session ${id} was on node ${rec.node}, which stopped responding.`, { sessionId: id, node: rec.node, status: 'lost' });
  }
  return { kind: 'remote', url: node.url, node: node.id };
}

export function forwardHeaders(request: FastifyRequest, nodeId: string): Record<string, string> {
  return {
    ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    [FORWARDED_HEADER]: nodeId,
    'x-request-id': request.id,
  };
}

export async function registerForwarding(app: FastifyInstance, deps: ServerDeps): Promise<void> {
  await app.register(replyFrom, { undici: { connections: 64, pipelining: 1, headersTimeout: 150_000, bodyTimeout: 150_000 } });
  // preValidation: the body is parsed (so it can be re-sent) but not yet validated here;
  // the owning node validates it.
  app.addHook('preValidation', async (request, reply) => {
    const m = SESSION_PATH.exec(request.url);
    // A forwarded request is answered here, never forwarded again (no loops); stream
    // upgrades are proxied by the stream route itself.
    // (request.ws: a real upgrade; a stray Upgrade header on a REST call is forwarded like any call.)
    if (!m || request.headers[FORWARDED_HEADER] || (request as { ws?: boolean }).ws || !request.tenant) return;
    const owner = await ownerOf(deps, request.tenant, decodeURIComponent(m[1]));
    if (owner.kind === 'local') return;
    deps.metrics?.forwarded.inc({ kind: 'http' });
    request.log.debug({ to: owner.node }, 'forwarding to the owning node');
    return reply.from(`${owner.url}${request.url}`, {
      rewriteRequestHeaders: (_req, headers) => ({ ...headers, ...forwardHeaders(request, deps.config.nodeId) }),
      onError: (rep, { error }) => {
        rep.status(502).send(new AppError('node_unreachable', `The node that owns this session (${owner.node}) did not answer: ${error.message}`, { node: owner.node }).toJSON());
      },
    });
  });
}
