import type { FastifyRequest } from 'fastify';
import type { ServerDeps } from '../deps.js';
import { sameToken, type ConsoleSessionStore } from './session-store.js';

// What the console's pages share: its context, cookie names, and the checks every
// state-changing form goes through (a token of the sign-in, and this origin).

export const SIGN_IN_COOKIE = 'ariadne_console';
/** Before sign-in: the double-submit token of the sign-in form (against login CSRF). */
export const PRE_COOKIE = 'ariadne_console_pre';
export const SIGN_IN_TTL_SECONDS = 8 * 3600;

export interface ConsoleContext {
  deps: ServerDeps;
  signIns: ConsoleSessionStore;
  keyed: boolean;
  /** SHA-256 (hex) of every configured key: a sign-in whose key was removed stops working. */
  keyDigests: Set<string>;
  /** The CSRF token of open mode (no sign-in), shared by the nodes through Redis. */
  openCsrf(): Promise<string>;
}

/**
 * The request comes from a page of this origin. Fetch metadata first (browsers send
 * Sec-Fetch-Site whatever the referrer policy); Origin next, except "null", which the
 * console's own no-referrer pages send on their form posts; neither: the token decides.
 */
export function sameOrigin(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  const origin = req.headers.origin;
  if (!origin || origin === 'null') return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/** The CSRF token the request's forms carry (its sign-in's, or open mode's). */
export async function csrfOf(ctx: ConsoleContext, req: FastifyRequest): Promise<string> {
  return req.consoleSignIn?.csrf ?? (ctx.keyed ? '' : await ctx.openCsrf());
}

/** A state-changing request is refused unless it carries the token and comes from this origin. */
export async function checkCsrf(ctx: ConsoleContext, req: FastifyRequest, given: string | undefined): Promise<boolean> {
  if (!sameOrigin(req)) return false;
  const expected = await csrfOf(ctx, req);
  return sameToken(given, expected);
}

