import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import {
  CreateSessionBody, ErrorResponse, OpenTabBody, PageInfo, RoleParams, RoleSpec, Session, SessionList, SessionParams,
  StorageState, TabList, TabParams,
} from '@ariadne/schema';
import type { FastifyRequest } from 'fastify';
import type { CreateSessionBody as CreateSessionBodyT, Session as SessionT } from '@ariadne/schema';
import type { ServerDeps } from '../deps.js';
import { forwardHeaders, ownerOf } from '../plugins/forward.js';
import { withDeadline } from '@ariadne/pool';

// Sessions, roles and tabs.

const errors = { 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 410: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };

export const sessionRoutes = (deps: ServerDeps): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { sessions } = deps;

  app.post('/v1/sessions', {
    schema: {
      tags: ['sessions'],
      summary: 'Create a session: one isolated browser context per role',
      body: CreateSessionBody,
      response: { 201: Session, ...errors },
    },
  }, async (req, reply) => reply.status(201).send(await createSession(deps, req, req.body)));

  app.get('/v1/sessions', {
    schema: { tags: ['sessions'], summary: "List this tenant's sessions", response: { 200: SessionList } },
  }, async (req) => {
    const list = await sessions.list(req.tenant);
    return { sessions: list, total: list.length };
  });

  app.get('/v1/sessions/:id', {
    schema: { tags: ['sessions'], summary: 'Get a session', params: SessionParams, response: { 200: Session, ...errors } },
  }, async (req) => sessions.get(req.tenant, req.params.id));

  app.delete('/v1/sessions/:id', {
    schema: { tags: ['sessions'], summary: 'Delete a session and release its contexts', params: SessionParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    await sessions.delete(req.tenant, req.params.id);
    return reply.status(204).send(null);
  });

  app.post('/v1/sessions/:id/roles', {
    schema: { tags: ['roles'], summary: 'Add a role (a new isolated context) to a live session', params: SessionParams, body: RoleSpec, response: { 201: Session, ...errors } },
  }, async (req, reply) => reply.status(201).send(await sessions.addRole(req.tenant, req.params.id, req.body)));

  app.delete('/v1/sessions/:id/roles/:role', {
    schema: { tags: ['roles'], summary: 'Remove a role and release its context', params: RoleParams, response: { 200: Session, ...errors } },
  }, async (req) => sessions.removeRole(req.tenant, req.params.id, req.params.role));

  app.get('/v1/sessions/:id/roles/:role/storage-state', {
    schema: { tags: ['roles'], summary: "Export a role's storage state (cookies, localStorage) to persist a login", params: RoleParams, response: { 200: StorageState, ...errors } },
  }, async (req) => {
    const s = await sessions.use(req.tenant, req.params.id);
    return withDeadline(s.role(req.params.role).context.storageState(), deps.config.limits.operationTimeoutMs, 'Reading the storage state');
  });

  app.get('/v1/sessions/:id/roles/:role/pages', {
    schema: { tags: ['tabs'], summary: "List a role's tabs", params: RoleParams, response: { 200: TabList, ...errors } },
  }, async (req) => {
    const s = await sessions.use(req.tenant, req.params.id);
    const role = s.role(req.params.role);
    return { pages: await withTitles(role) };
  });

  app.post('/v1/sessions/:id/roles/:role/pages', {
    schema: { tags: ['tabs'], summary: 'Open a tab (it becomes the active tab)', params: RoleParams, body: OpenTabBody, response: { 201: PageInfo, ...errors } },
  }, async (req, reply) => {
    const s = await sessions.use(req.tenant, req.params.id);
    const role = s.role(req.params.role);
    const state = await sessions.openTab(role, req.body?.url);
    // The new tab's title is the answer: read it in full (bounded by the read's own 2 s);
    // the other tabs only get the usual short background refresh.
    await Promise.all([state.refreshTitle(), role.refreshTitles()]);
    return reply.status(201).send({ id: state.id, url: state.page.url(), title: state.title, active: role.activePageId === state.id });
  });

  app.delete('/v1/sessions/:id/roles/:role/pages/:pageId', {
    schema: { tags: ['tabs'], summary: 'Close a tab', params: TabParams, response: { 204: Type.Null(), ...errors } },
  }, async (req, reply) => {
    const s = await sessions.use(req.tenant, req.params.id);
    await sessions.closeTab(s.role(req.params.role), req.params.pageId);
    return reply.status(204).send(null);
  });

  app.post('/v1/sessions/:id/roles/:role/pages/:pageId/select', {
    schema: { tags: ['tabs'], summary: 'Make a tab the active one', params: TabParams, response: { 200: TabList, ...errors } },
  }, async (req) => {
    const s = await sessions.use(req.tenant, req.params.id);
    const role = s.role(req.params.role);
    sessions.selectTab(role, req.params.pageId);
    return { pages: await withTitles(role) };
  });
};

/** Never waits on a page: the titles last seen (refreshed in the background). */
async function withTitles(role: import('@ariadne/pool').LiveRole) {
  await role.refreshTitles();
  return role.pageInfos();
}

/**
 * Through the cluster's admission queue: created at once where a slot is free, else
 * queued (FIFO, fair across tenants) until one frees, up to queueTimeoutSeconds. A
 * client that goes away leaves the queue, and a session created for it is deleted.
 */
async function createSession(deps: ServerDeps, req: FastifyRequest, body: CreateSessionBodyT): Promise<SessionT> {
  // A request over the tenant's quota is refused now rather than queued (the admitting
  // node takes the quota atomically; this only spares the queue a hopeless request).
  await deps.quotas?.check(req.tenant, body.roles?.length || 1);
  if (!deps.cluster) return deps.sessions.create(req.tenant, body);
  const abort = new AbortController();
  const onClose = () => { if (!req.raw.complete || !req.socket.writable) abort.abort(); };
  req.socket.once('close', onClose);
  const timeoutMs = (body.queueTimeoutSeconds ?? deps.config.cluster.queueTimeoutSeconds) * 1000;
  const { queueTimeoutSeconds: _q, ...sessionBody } = body;
  try {
    const r = await deps.cluster.admission.request(
      { tenant: req.tenant, slots: body.roles?.length || 1, body: sessionBody, requestId: req.id },
      timeoutMs,
      abort.signal,
      async (result) => {
        const id = (result as { id: string }).id;
        const owner = await ownerOf(deps, req.tenant, id).catch(() => null);
        if (!owner || owner.kind === 'local') return deps.sessions.delete(req.tenant, id).catch(() => {});
        await fetch(`${owner.url}/v1/sessions/${id}`, { method: 'DELETE', headers: forwardHeaders(req, deps.config.nodeId) }).catch(() => {});
      },
    );
    deps.metrics?.queueWait.observe({ queued: String(r.queued) }, r.waitedMs / 1000);
    return r.result as SessionT;
  } finally {
    req.socket.off('close', onClose);
  }
}
