import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { AppError, ConsoleQuery, CookiesBody, ErrorResponse, NetworkDetailParams, NetworkDetailQuery, NetworkQuery, PageQuery, RoleParams, StorageQuery } from '@ariadne/schema';
import { consoleView, networkDetail, networkView, performanceView, storageView } from '@ariadne/page';
import { onPage, type ServerDeps } from '../deps.js';

// Read what a tab did: console, network, cookies, storage, performance timing.

const errors = { 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 410: ErrorResponse };
const base = '/v1/sessions/:id/roles/:role';
const Anything = Type.Any();

export const observeRoutes = (deps: ServerDeps): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const target = (req: { tenant: string; params: { id: string; role: string }; query: { page?: string } }) =>
    ({ tenant: req.tenant, id: req.params.id, role: req.params.role, page: req.query.page });

  app.get(`${base}/console`, {
    schema: { tags: ['observe'], summary: 'Console messages and page errors (newest last, bounded)', params: RoleParams, querystring: ConsoleQuery, response: { 200: Anything, ...errors } },
  }, async (req) => onPage(deps, target(req), async (state) =>
    consoleView(state, { limit: req.query.limit ?? 100, level: req.query.level, format: req.query.format })));

  app.get(`${base}/network`, {
    schema: { tags: ['observe'], summary: 'Network requests (recent first, bounded)', params: RoleParams, querystring: NetworkQuery, response: { 200: Anything, ...errors } },
  }, async (req) => onPage(deps, target(req), async (state) =>
    networkView(state, { limit: req.query.limit ?? 100, type: req.query.type, failed: req.query.failed, format: req.query.format })));

  app.get(`${base}/network/:requestId`, {
    schema: { tags: ['observe'], summary: 'One request: headers and bodies (truncated)', params: NetworkDetailParams, querystring: NetworkDetailQuery, response: { 200: Anything, ...errors } },
  }, async (req) => onPage(deps, target(req), (state) => networkDetail(state, req.params.requestId, req.query.maxBodyBytes ?? 65536)));

  app.get(`${base}/cookies`, {
    schema: { tags: ['observe'], summary: "The role's cookies (all origins, or ?url= ones)", params: RoleParams, querystring: Type.Object({ url: Type.Optional(Type.String({ maxLength: 8192 })) }), response: { 200: Anything, ...errors } },
  }, async (req) => {
    const s = await deps.sessions.use(req.tenant, req.params.id);
    const cookies = await s.role(req.params.role).context.cookies(req.query.url ? [req.query.url] : undefined);
    return { cookies };
  });

  app.post(`${base}/cookies`, {
    schema: { tags: ['observe'], summary: 'Add cookies to the role (optionally clearing first)', params: RoleParams, body: CookiesBody, response: { 200: Anything, ...errors } },
  }, async (req) => {
    const s = await deps.sessions.use(req.tenant, req.params.id);
    const ctx = s.role(req.params.role).context;
    if (req.body.clear) await ctx.clearCookies();
    try {
      await ctx.addCookies(req.body.cookies as never);
    } catch (err) {
      throw new AppError('invalid_request', (err as Error).message.split('\n')[0], { field: 'cookies' });
    }
    return { cookies: await ctx.cookies() };
  });

  app.get(`${base}/storage`, {
    schema: { tags: ['observe'], summary: "localStorage or sessionStorage of the tab's origin", params: RoleParams, querystring: StorageQuery, response: { 200: Anything, ...errors } },
  }, async (req) => onPage(deps, target(req), (state) => storageView(state, req.query.type ?? 'local')));

  app.get(`${base}/performance`, {
    schema: { tags: ['observe'], summary: 'Navigation and paint timing of the tab', params: RoleParams, querystring: PageQuery, response: { 200: Anything, ...errors } },
  }, async (req) => onPage(deps, target(req), (state) => performanceView(state)));
};
