// The one place the console links to a session's live view (GET /v1/sessions/:id/live).
// Today the page and its stream accept the console's sign-in cookie (see the hook in
// index.ts); when the live view moves to short-lived signed view tokens, this function
// mints one and every console link follows.

export interface LiveLinkContext {
  tenant: string;
  sessionId: string;
  role?: string;
}

export async function liveViewHref(ctx: LiveLinkContext): Promise<string> {
  const q = ctx.role ? `?role=${encodeURIComponent(ctx.role)}` : '';
  return `/v1/sessions/${encodeURIComponent(ctx.sessionId)}/live${q}`;
}

/** Routes a console sign-in may open besides the console's own: the live view and its stream. */
export const LIVE_VIEW_ROUTES = new Set(['/v1/sessions/:id/live', '/v1/sessions/:id/stream']);
