import type { FastifyPluginAsync } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ActionBody, ActionResponse, AppError, ErrorResponse, RoleParams, ScreenshotQuery, SnapshotQuery, SnapshotResponse } from '@ariadne/schema';
import { performAction, resolveRef, snapshotView } from '@ariadne/page';
import { onPage, type ServerDeps } from '../deps.js';

// Snapshot, actions and screenshots of one tab: /v1/sessions/:id/roles/:role/...

const errors = { 400: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 410: ErrorResponse, 422: ErrorResponse, 502: ErrorResponse, 504: ErrorResponse };
const base = '/v1/sessions/:id/roles/:role';

export const pageRoutes = (deps: ServerDeps): FastifyPluginAsync => async (fastify) => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = deps;

  app.get(`${base}/snapshot`, {
    schema: {
      tags: ['page'],
      summary: "Accessibility snapshot with [ref=eN] ids (Playwright's AI mode), budgeted",
      description: 'The full-page snapshot is always taken; ref, depth, maxTokens and diff are cut from it on the server so refs the agent holds keep working.',
      params: RoleParams,
      querystring: SnapshotQuery,
      response: { 200: SnapshotResponse, ...errors },
    },
  }, async (req) => {
    const q = req.query;
    return onPage(deps, { tenant: req.tenant, id: req.params.id, role: req.params.role, page: q.page }, (state) =>
      snapshotView(state, { maxTokens: q.maxTokens, ref: q.ref, depth: q.depth, format: q.format, diff: q.diff, timeoutMs: config.timeouts.snapshotMs }));
  });

  app.post(`${base}/actions`, {
    schema: {
      tags: ['page'],
      summary: 'Perform an action, by ref first (description ladder as a fallback)',
      params: RoleParams,
      querystring: Type.Object({ page: Type.Optional(Type.String({ maxLength: 64 })) }),
      body: ActionBody,
      response: { 200: ActionResponse, ...errors },
    },
  }, async (req) => {
    return onPage(deps, { tenant: req.tenant, id: req.params.id, role: req.params.role, page: req.query.page }, (state, role) =>
      performAction(state, req.body, {
        actionTimeoutMs: config.timeouts.actionMs,
        navigationTimeoutMs: config.timeouts.navigationMs,
        describeWaitMs: config.timeouts.describeWaitMs,
        allowedSchemes: config.allowedSchemes,
        listPageIds: () => [...role.pages.keys()],
      }));
  });

  app.get(`${base}/screenshot`, {
    schema: {
      tags: ['page'],
      summary: 'Screenshot of the tab, the full page, or one element (ref)',
      params: RoleParams,
      querystring: ScreenshotQuery,
      response: { 200: Type.String({ contentEncoding: 'binary', description: 'image/png or image/jpeg' }), ...errors },
    },
  }, async (req, reply) => {
    const q = req.query;
    const type = q.format ?? 'png';
    if (q.quality !== undefined && type !== 'jpeg') throw new AppError('invalid_request', 'quality applies to jpeg only.', { field: 'quality' });
    const buf = await onPage(deps, { tenant: req.tenant, id: req.params.id, role: req.params.role, page: q.page }, async (state) => {
      state.assertNoDialog();
      const timeout = config.timeouts.actionMs;
      if (q.ref) {
        const target = await resolveRef(state, q.ref);
        return target.locator.screenshot({ type, quality: q.quality, timeout });
      }
      return state.page.screenshot({ type, quality: q.quality, fullPage: q.fullPage ?? false, timeout });
    });
    return reply.header("content-type", `image/${type}`).send(buf as never);
  });
};
