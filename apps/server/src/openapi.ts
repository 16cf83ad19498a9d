import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { BrowserPool, SessionManager } from '@ariadne/pool';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import type { ServerDeps } from './deps.js';

// openapi.yaml is generated from the route schemas, never written by hand: build the
// app with stand-in deps (routes only need to be registered, no handler runs), and
// let @fastify/swagger render what was registered. scripts/openapi.mjs writes the
// result; tests/openapi.test.ts fails when the committed file drifts from it.

// Stand-in for the live services. Route plugins may wire themselves up at
// registration (subscribe to session events, ...), so every property is a callable
// that does nothing; no request is ever served, so no handler sees one.
const inert: unknown = new Proxy(function inert() {}, {
  get: (_t, prop) => (prop === 'then' ? undefined : inert), // not a thenable: `await` must not hang
  apply: () => inert,
  construct: () => inert as object,
});

/** The app with every route registered and nothing started (no Redis, no browsers). */
export async function buildSpecApp(): Promise<FastifyInstance> {
  const deps: ServerDeps = {
    config: loadConfig({}),
    sessions: inert as SessionManager,
    pool: inert as BrowserPool,
    redis: inert as Redis,
  };
  const app = await buildApp(deps, false);
  await app.ready();
  return app;
}

/** openapi.yaml, as it must be committed. */
export async function generateOpenApi(): Promise<string> {
  const app = await buildSpecApp();
  try {
    return app.swagger({ yaml: true });
  } finally {
    await app.close();
  }
}
