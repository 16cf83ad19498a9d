import type { ReportLinks } from '../security/report-links.js';
import { viewToken } from '../security/view-tokens.js';

// The one place the console links to a session's live view (GET /v1/sessions/:id/live).
// With keys, the link carries a short-lived signed view token (security/view-tokens.ts), the
// same a POST /v1/sessions/:id/live-link hands out: it opens that session's watch-only view
// on whichever node owns it. The page and its stream also accept the console's sign-in
// cookie on this node (see the hook in index.ts). In open mode no token is needed.

export interface LiveLinkContext {
  tenant: string;
  sessionId: string;
  role?: string;
  /** The service's signed-link keys; absent in open mode. */
  links?: ReportLinks;
}

export async function liveViewHref(ctx: LiveLinkContext): Promise<string> {
  const q = new URLSearchParams();
  if (ctx.role) q.set('role', ctx.role);
  if (ctx.links) q.set('view', (await viewToken(ctx.links, ctx.sessionId, ctx.tenant)).token);
  const s = q.toString();
  return `/v1/sessions/${encodeURIComponent(ctx.sessionId)}/live${s ? `?${s}` : ''}`;
}

/** Routes a console sign-in may open besides the console's own: the live view and its stream. */
export const LIVE_VIEW_ROUTES = new Set(['/v1/sessions/:id/live', '/v1/sessions/:id/stream']);
