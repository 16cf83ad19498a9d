import { Type } from 'typebox';
import { ActionBody, ActionResponse, AppError, PageQuery, ScreenshotQuery, SnapshotQuery, SnapshotResponse, type ActionBody as ActionBodyT } from '@ariadne/schema';
import { performAction, resolveRef, snapshotView, type RenderFormat } from '@ariadne/page';
import type { PageOp } from './registry.js';

// Snapshot, actions and screenshots of one tab.

export const pageOps: PageOp[] = [
  {
    name: 'snapshot',
    method: 'GET',
    path: '/snapshot',
    tag: 'page',
    summary: "Accessibility snapshot with [ref=eN] ids (Playwright's AI mode), budgeted",
    description:
      'The full-page snapshot is always taken; ref, offset, depth, maxTokens and diff views are cut from it on the server, so refs the agent already holds keep working. A node whose children do not all fit shows the first ones and a fold line (`… 988 more listitem (ref=e2, offset=12)`): page on with ?ref=e2&offset=12.',
    query: SnapshotQuery,
    response: SnapshotResponse,
    errors: [400, 404, 409, 410, 504],
    run: ({ deps, state }, { query: q }) =>
      snapshotView(state, {
        maxTokens: q.maxTokens as number | undefined,
        ref: q.ref as string | undefined,
        offset: q.offset as number | undefined,
        depth: q.depth as number | undefined,
        format: q.format as RenderFormat | undefined,
        diff: q.diff as boolean | undefined,
        timeoutMs: deps.config.timeouts.snapshotMs,
      }),
  },
  {
    name: 'action',
    method: 'POST',
    path: '/actions',
    tag: 'page',
    summary: 'Perform an action: by ref first, by description as a fallback',
    query: PageQuery,
    body: ActionBody,
    response: ActionResponse,
    errors: [400, 403, 404, 409, 410, 422, 502, 504],
    run: ({ deps, state, role }, { body }) =>
      performAction(state, body as ActionBodyT, {
        actionTimeoutMs: deps.config.timeouts.actionMs,
        navigationTimeoutMs: deps.config.timeouts.navigationMs,
        describeWaitMs: deps.config.timeouts.describeWaitMs,
        allowedSchemes: deps.config.allowedSchemes,
        allowEvaluate: deps.config.security.allowEvaluate,
        listPageIds: () => [...role.pages.keys()],
      }),
  },
  {
    name: 'screenshot',
    method: 'GET',
    path: '/screenshot',
    tag: 'page',
    summary: 'Screenshot of the tab, the full page, or one element (ref)',
    query: ScreenshotQuery,
    response: Type.String({ contentEncoding: 'binary', description: 'image/png or image/jpeg (base64 on the WebSocket)' }),
    errors: [400, 404, 409, 410, 504],
    run: async ({ deps, state }, { query: q }) => {
      const type = (q.format as 'png' | 'jpeg' | undefined) ?? 'png';
      const quality = q.quality as number | undefined;
      if (quality !== undefined && type !== 'jpeg') throw new AppError('invalid_request', 'quality applies to jpeg only.', { field: 'quality' });
      state.assertNoDialog();
      const timeout = deps.config.timeouts.actionMs;
      const binary = q.ref
        ? await (await resolveRef(state, q.ref as string)).locator.screenshot({ type, quality, timeout })
        : await state.page.screenshot({ type, quality, fullPage: Boolean(q.fullPage), timeout });
      return { binary, contentType: `image/${type}` };
    },
  },
];
