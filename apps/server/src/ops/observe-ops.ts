import { Type } from 'typebox';
import { AppError, ConsoleQuery, CookiesBody, NetworkDetailQuery, NetworkQuery, PageQuery, StorageQuery } from '@ariadne/schema';
import { consoleView, networkDetail, networkView, performanceView, storageView } from '@ariadne/page';
import type { PageOp } from './registry.js';

// Read what a tab did: console, network, cookies, storage, performance timing.

const Anything = Type.Any();
type ListFormat = 'json' | 'text' | undefined;

export const observeOps: PageOp[] = [
  {
    name: 'console',
    method: 'GET',
    path: '/console',
    tag: 'observe',
    summary: 'Console messages and page errors (newest last, bounded; format=text for models)',
    query: ConsoleQuery,
    response: Anything,
    run: async ({ state }, { query: q }) =>
      consoleView(state, { limit: (q.limit as number) ?? 100, level: q.level as string | undefined, format: q.format as ListFormat }),
  },
  {
    name: 'network',
    method: 'GET',
    path: '/network',
    tag: 'observe',
    summary: 'Network requests (recent first, bounded; format=text for models)',
    query: NetworkQuery,
    response: Anything,
    run: async ({ state }, { query: q }) =>
      networkView(state, { limit: (q.limit as number) ?? 100, type: q.type as string | undefined, failed: q.failed as boolean | undefined, format: q.format as ListFormat }),
  },
  {
    name: 'network.request',
    method: 'GET',
    path: '/network/:requestId',
    pathParams: ['requestId'],
    tag: 'observe',
    summary: 'One request: headers and bodies (truncated)',
    query: NetworkDetailQuery,
    response: Anything,
    run: ({ state }, { query: q, params }) => networkDetail(state, params.requestId, (q.maxBodyBytes as number) ?? 65536),
  },
  {
    name: 'cookies',
    method: 'GET',
    path: '/cookies',
    tag: 'observe',
    summary: "The role's cookies (all, or those for ?url=)",
    query: Type.Object({ page: Type.Optional(Type.String({ maxLength: 64 })), url: Type.Optional(Type.String({ maxLength: 8192 })) }),
    response: Anything,
    run: async ({ role }, { query: q }) => ({ cookies: await role.context.cookies(q.url ? [q.url as string] : undefined) }),
  },
  {
    name: 'cookies.set',
    method: 'POST',
    path: '/cookies',
    tag: 'observe',
    summary: 'Add cookies to the role (optionally clearing all first)',
    query: PageQuery,
    body: CookiesBody,
    response: Anything,
    run: async ({ role }, { body }) => {
      const ctx = role.context;
      if (body.clear) await ctx.clearCookies();
      try {
        await ctx.addCookies(body.cookies as never);
      } catch (err) {
        throw new AppError('invalid_request', (err as Error).message.split('\n')[0], { field: 'cookies' });
      }
      return { cookies: await ctx.cookies() };
    },
  },
  {
    name: 'storage',
    method: 'GET',
    path: '/storage',
    tag: 'observe',
    summary: "localStorage or sessionStorage of the tab's origin",
    query: StorageQuery,
    response: Anything,
    run: ({ state }, { query: q }) => storageView(state, (q.type as 'local' | 'session') ?? 'local'),
  },
  {
    name: 'performance',
    method: 'GET',
    path: '/performance',
    tag: 'observe',
    summary: 'Navigation and paint timing of the tab',
    query: PageQuery,
    response: Anything,
    run: ({ state }) => performanceView(state),
  },
];
