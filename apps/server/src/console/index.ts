import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { withRedis } from '@ariadne/cluster';
import { OPEN_MODE_TENANT } from '../plugins/auth.js';
import type { ServerDeps } from '../deps.js';
import { ConsoleSessionStore, cookiesOf, sha256, type ConsoleSignIn } from './session-store.js';
import { sameOrigin, SIGN_IN_COOKIE, SIGN_IN_TTL_SECONDS, type ConsoleContext } from './csrf.js';
import { LIVE_VIEW_ROUTES } from './live-link.js';
import { consoleRoutes } from './routes.js';

// The web console (issue 28): server-rendered pages at / and /console/... for people,
// over the same stores and services as the API. This file is the part that touches every
// request: it authenticates console pages by their sign-in cookie (keys never reach the
// browser after sign-in), and lets a signed-in browser open the live view it links to.
// The pages themselves are in routes.ts (an encapsulated plugin: its form parser and
// error pages stay out of the API).

declare module 'fastify' {
  interface FastifyRequest {
    /** The console sign-in behind this request (keyed mode), with its cookie value. */
    consoleSignIn: (ConsoleSignIn & { id: string }) | null;
  }
  interface FastifyContextConfig {
    /** A console page: authenticated by the console itself (sign-in cookie), not by a key. */
    console?: boolean;
  }
}

function hasQueryToken(url: string): boolean {
  const i = url.indexOf('?');
  return i >= 0 && new URLSearchParams(url.slice(i + 1)).has('token');
}

export function consolePlugin(deps: ServerDeps): FastifyPluginAsync {
  const plugin = async (app: FastifyInstance) => {
    const keyed = deps.config.apiKeys.size > 0;
    const signIns = new ConsoleSessionStore(deps.redis, deps.config.redisPrefix, SIGN_IN_TTL_SECONDS);
    let open: Promise<string> | null = null;
    const ctx: ConsoleContext = {
      deps,
      signIns,
      keyed,
      keyDigests: new Set([...deps.config.apiKeys.keys()].map(sha256)),
      openCsrf: () => (open ??= (async () => {
        const key = `${deps.config.redisPrefix}console:open-csrf`;
        await withRedis(() => deps.redis.set(key, randomBytes(32).toString('base64url'), 'NX'));
        return (await withRedis(() => deps.redis.get(key)))!;
      })().catch((err) => { open = null; throw err; })),
    };

    app.decorateRequest('consoleSignIn', null);
    // Runs before the key check (registered ahead of it in app.ts): a console page is let
    // through to its own handler, which sends a visitor without a sign-in to the sign-in
    // page; the live view and its stream accept a sign-in too when no key is presented
    // (GET only; an upgrade only from this origin).
    app.addHook('onRequest', async (req: FastifyRequest) => {
      const isConsole = req.routeOptions.config?.console === true;
      const route = req.routeOptions.url;
      if (!isConsole && !(route && LIVE_VIEW_ROUTES.has(route))) return;
      // Console pages are never upgraded: the key check refuses the upgrade.
      if (isConsole && (req as { ws?: boolean }).ws) return;
      if (!keyed) {
        if (isConsole) {
          req.tenant = OPEN_MODE_TENANT;
          req.consoleAuthed = true;
        }
        return;
      }
      if (!isConsole) {
        if (req.method !== 'GET' || req.headers.authorization || hasQueryToken(req.url)) return;
        if ((req as { ws?: boolean }).ws && !sameOrigin(req)) return;
      }
      const id = cookiesOf(req.headers.cookie).get(SIGN_IN_COOKIE);
      const signIn = id ? await signIns.get(id) : null;
      if (signIn && ctx.keyDigests.has(signIn.keyDigest)) {
        req.tenant = signIn.tenant;
        req.consoleSignIn = { ...signIn, id: id! };
        req.consoleAuthed = true;
      } else if (isConsole) {
        req.consoleAuthed = true;
      }
    });
    await app.register(consoleRoutes(ctx));
  };
  // Not encapsulated: the hook above must see every request (see app.ts for its place).
  (plugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
  return plugin;
}

