import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, addSecretValues } from '@ariadne/schema';
import type { SignedLinkGrant } from '../security/report-links.js';
import { viewParam, type ViewGrant } from '../security/view-tokens.js';

// API keys → tenants, checked in ONE place for every request whatever its headers:
// a WebSocket upgrade is authenticated here too, so a keyless upgrade is refused with
// HTTP 401 before any socket is accepted. Keys are compared as SHA-256 digests in
// constant time, against every configured key (no early exit), and are never logged.
// No keys configured: local open mode, every caller is tenant "local".

declare module 'fastify' {
  interface FastifyRequest {
    tenant: string;
    /** Set when the request was let in by a signed report link instead of a key. */
    signedLink: SignedLinkGrant | null;
    /** Set when the request was let in by a live-view token (watch only) instead of a key. */
    viewGrant: ViewGrant | null;
    /** Authenticated by the web console's sign-in cookie (console/index.ts), which set the tenant. */
    consoleAuthed: boolean;
  }
}

export const OPEN_MODE_TENANT = 'local';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function makeAuthenticator(keys: Map<string, string>): (header: string | undefined) => string | null {
  const table = [...keys.entries()].map(([key, tenant]) => ({ hash: digest(key), tenant }));
  if (table.length === 0) return () => OPEN_MODE_TENANT;
  return (header) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
    const presented = digest(m ? m[1] : '');
    let tenant: string | null = null;
    for (const entry of table) if (timingSafeEqual(entry.hash, presented) && m) tenant = entry.tenant;
    return tenant;
  };
}

/** Routes (by route pattern, never by URL prefix) that need no key: probes. */
const ALWAYS_PUBLIC = new Set(['/healthz', '/readyz']);
/** Deploy webhooks: no key, authenticated by the trigger's signature over the body (routes/hooks.ts). */
const SIGNED_ROUTES = new Set(['/v1/hooks/:hookId']);
/**
 * GET routes a signed, expiring link opens without a key (routes/report.ts): the run's
 * HTML report and the screenshots it embeds. A key in the header works as everywhere.
 */
export const SIGNED_LINK_ROUTES = new Set(['/v1/runs/:id/report', '/v1/runs/:id/artifacts/:name']);
/** Public only with METRICS_PUBLIC=1 (scrapers, load-balancer checks). */
const METRICS_ROUTES = new Set(['/metrics', '/v1/pressure']);
/**
 * WebSocket routes: browsers cannot set headers on a WebSocket, so ?token= is accepted on
 * the upgrade (and nowhere else: not on the live page, whose URL people keep and share).
 */
export const WEBSOCKET_ROUTES = new Set(['/v1/sessions/:id/stream', '/v1/runs/:id/stream']);
/** The live view page (GET) and the stream it opens (upgrade): a view token (?view=) opens them read-only. */
export const LIVE_PAGE_ROUTE = '/v1/sessions/:id/live';
const VIEW_STREAM_ROUTE = '/v1/sessions/:id/stream';

export interface AuthOptions {
  metricsPublic?: boolean;
  /** Checks ?exp=&sig= on SIGNED_LINK_ROUTES: the run's tenant, or throws 401. */
  verifyLink?: (request: FastifyRequest, route: string) => Promise<{ tenant: string; grant: SignedLinkGrant }>;
  /** Checks ?view= on the live page and its stream: the session's tenant, or throws 401. */
  verifyView?: (request: FastifyRequest) => Promise<{ tenant: string; grant: ViewGrant }>;
}

export function isPublicRoute(routeUrl: string | undefined, opts: AuthOptions): boolean {
  if (!routeUrl) return false;
  return ALWAYS_PUBLIC.has(routeUrl) || SIGNED_ROUTES.has(routeUrl) || (!!opts.metricsPublic && METRICS_ROUTES.has(routeUrl));
}

export function registerAuth(app: FastifyInstance, keys: Map<string, string>, opts: AuthOptions = {}): void {
  const authenticate = makeAuthenticator(keys);
  // Whatever name (or no name) a key is sent under, no log line of this process shows it.
  addSecretValues(keys.keys());
  app.decorateRequest('tenant', '');
  app.decorateRequest('signedLink', null);
  app.decorateRequest('viewGrant', null);
  app.decorateRequest('consoleAuthed', false);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    // routeOptions.url is the matched route pattern (undefined for an unknown route,
    // which needs a key too: no route probing without one).
    const route = request.routeOptions.url;
    // A real upgrade (request.ws, set by @fastify/websocket) on a route that is not a
    // WebSocket route is refused, not accepted and then closed.
    const upgrading = (request as FastifyRequest & { ws?: boolean }).ws === true;
    if (upgrading && !(route && WEBSOCKET_ROUTES.has(route)) && isPublicRoute(route, opts)) {
      throw new AppError('invalid_request', 'This route does not accept a WebSocket upgrade.');
    }
    if (isPublicRoute(route, opts)) return;
    // Console pages, and the live view a console sign-in opens (console/index.ts runs first).
    if (request.consoleAuthed) return;
    // A keyless GET carrying a signature on a signed-link route: the link decides (never
    // on an upgrade; in open mode there is nothing to check).
    if (route && SIGNED_LINK_ROUTES.has(route) && request.method === 'GET' && !upgrading && keys.size > 0
      && !request.headers.authorization && opts.verifyLink && hasSignature(request.url)) {
      const { tenant, grant } = await opts.verifyLink(request, route);
      request.tenant = tenant;
      request.signedLink = grant;
      return;
    }
    // A keyless live page (GET) or its stream (upgrade) with ?view=: the token decides.
    if (keys.size > 0 && !request.headers.authorization && opts.verifyView && viewParam(request.url) !== null
      && ((route === LIVE_PAGE_ROUTE && request.method === 'GET' && !upgrading) || (route === VIEW_STREAM_ROUTE && upgrading))) {
      const { tenant, grant } = await opts.verifyView(request);
      request.tenant = tenant;
      request.viewGrant = grant;
      return;
    }
    if (route === LIVE_PAGE_ROUTE && !request.headers.authorization && keys.size > 0 && tokenFromQuery(request.url)) {
      // The API key in a page URL ends up in browser history, bookmarks and proxy logs.
      throw new AppError('unauthorized', 'The live view no longer takes ?token=<key>: open a link from POST /v1/sessions/:id/live-link (a short-lived view token), or send Authorization: Bearer <key>.');
    }
    const header = request.headers.authorization ?? (queryTokenAllowed(request, route) ? tokenFromQuery(request.url) : undefined);
    const tenant = authenticate(header);
    if (!tenant) throw new AppError('unauthorized', 'Missing or invalid API key: send Authorization: Bearer <key>.');
    request.tenant = tenant;
    if (upgrading && !(route && WEBSOCKET_ROUTES.has(route))) throw new AppError('invalid_request', 'This route does not accept a WebSocket upgrade.');
  });
}

function queryTokenAllowed(request: FastifyRequest, route: string | undefined): boolean {
  if (!route) return false;
  // request.ws: this request arrived as a real upgrade (set by @fastify/websocket).
  return WEBSOCKET_ROUTES.has(route) && (request as FastifyRequest & { ws?: boolean }).ws === true;
}

function hasSignature(url: string): boolean {
  const i = url.indexOf('?');
  return i >= 0 && new URLSearchParams(url.slice(i + 1)).has('sig');
}

function tokenFromQuery(url: string): string | undefined {
  const i = url.indexOf('?');
  if (i < 0) return undefined;
  const t = new URLSearchParams(url.slice(i + 1)).get('token');
  return t ? `Bearer ${t}` : undefined;
}
