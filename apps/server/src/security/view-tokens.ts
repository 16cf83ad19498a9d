import type { FastifyRequest } from 'fastify';
import { AppError } from '@ariadne/schema';
import type { ReportLinks } from './report-links.js';

// Short-lived, signed view tokens for a session's live view, instead of the API key in its
// URL. A token is `<exp>.<hex HMAC>` over ("live", session id, tenant, exp) with the
// report-link key (the same on every node), sent as `?view=`. It opens that one session's
// live page and its stream read-only (screencast, events, snapshots: no actions), until
// exp; a stream opened before exp stays open. It never works as a key anywhere else.

export const VIEW_TOKEN_DEFAULT_TTL = 900;
export const VIEW_TOKEN_MIN_TTL = 60;
export const VIEW_TOKEN_MAX_TTL = 3600;

/** What a request let in by a view token may do: watch this session until exp. */
export interface ViewGrant {
  sessionId: string;
  exp: number;
  /** The token itself (the page hands it to its own stream). */
  token: string;
}

const TOKEN = /^(\d{1,12})\.([0-9a-f]{64})$/;

export async function viewToken(links: ReportLinks, sessionId: string, tenant: string, opts: { ttlSeconds?: number; now?: number } = {}): Promise<{ token: string; exp: number; expiresAt: string }> {
  const ttl = Math.min(Math.max(Math.floor(opts.ttlSeconds ?? VIEW_TOKEN_DEFAULT_TTL), VIEW_TOKEN_MIN_TTL), VIEW_TOKEN_MAX_TTL);
  const exp = Math.floor((opts.now ?? Date.now()) / 1000) + ttl;
  return { token: `${exp}.${await links.sign('live', sessionId, tenant, exp)}`, exp, expiresAt: new Date(exp * 1000).toISOString() };
}

/** The `view` query parameter of a URL, if any. */
export function viewParam(url: string): string | null {
  const i = url.indexOf('?');
  return i < 0 ? null : new URLSearchParams(url.slice(i + 1)).get('view');
}

/**
 * Checks `?view=` against the session in the path: the session's tenant and the grant, or
 * 401 invalid_signature (malformed, tampered, another session's, an unknown session) or
 * 401 signature_expired (a genuine token whose time is over).
 */
export async function verifyViewToken(links: ReportLinks, tenantOfSession: (id: string) => Promise<string | null>, request: FastifyRequest, now = Date.now()): Promise<{ tenant: string; grant: ViewGrant }> {
  const sessionId = ((request.params ?? {}) as { id?: string }).id ?? '';
  const token = viewParam(request.url) ?? '';
  const invalid = () => new AppError('invalid_signature', 'This live-view link is not valid. Ask for a new one (POST /v1/sessions/:id/live-link), or send Authorization: Bearer <key>.');
  const m = TOKEN.exec(token);
  if (!m || !/^[\w-]{1,64}$/.test(sessionId)) throw invalid();
  const exp = Number(m[1]);
  const tenant = await tenantOfSession(sessionId);
  if (!tenant || !(await links.matches('live', sessionId, tenant, exp, m[2]))) throw invalid();
  if (exp * 1000 <= now) {
    throw new AppError('signature_expired', `This live-view link expired at ${new Date(exp * 1000).toISOString()}. Ask for a new one (POST /v1/sessions/:id/live-link).`, { expiredAt: new Date(exp * 1000).toISOString() });
  }
  return { tenant, grant: { sessionId, exp, token } };
}
