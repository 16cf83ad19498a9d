import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '@ariadne/schema';

// API keys → tenants. Keys are compared as SHA-256 digests in constant time, against
// every configured key (no early exit), and are never logged. No keys configured:
// local open mode, every caller is tenant "local".

declare module 'fastify' {
  interface FastifyRequest {
    tenant: string;
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

/** Routes whose URL starts with one of these need no key (probes, docs). */
const PUBLIC = ['/healthz', '/readyz', '/metrics', '/openapi', '/v1/pressure'];

export function registerAuth(app: FastifyInstance, keys: Map<string, string>): void {
  const authenticate = makeAuthenticator(keys);
  app.decorateRequest('tenant', '');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (PUBLIC.some((p) => request.url === p || request.url.startsWith(`${p}?`) || request.url.startsWith(`${p}.`))) return;
    // WebSocket clients cannot always set headers: accept ?token= as well.
    const header = request.headers.authorization ?? tokenFromQuery(request.url);
    const tenant = authenticate(header);
    // A WebSocket upgrade is accepted so the stream can close with its documented
    // 4401 code; the stream handler refuses it when tenant is empty.
    if (!tenant && request.headers.upgrade?.toLowerCase() === 'websocket') return;
    if (!tenant) throw new AppError('unauthorized', 'Missing or invalid API key: send Authorization: Bearer <key>.');
    request.tenant = tenant;
  });
}

function tokenFromQuery(url: string): string | undefined {
  const i = url.indexOf('?');
  if (i < 0) return undefined;
  const t = new URLSearchParams(url.slice(i + 1)).get('token');
  return t ? `Bearer ${t}` : undefined;
}
