import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import { registerErrorHandling } from './plugins/errors.js';
import { registerAuth } from './plugins/auth.js';
import { sessionRoutes } from './routes/sessions.js';
import { pageOpRoutes } from './routes/page-ops.js';
import { healthRoutes } from './routes/health.js';
import type { ServerDeps } from './deps.js';

// Builds the HTTP app from its parts. It does not start anything: runtime.ts owns
// Redis, the pool and the listening socket; scripts/openapi builds it to read the spec.

export const API_VERSION = '0.1.0';

export async function buildApp(deps: ServerDeps, logger?: Logger | false): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger } : { logger: false }),
    bodyLimit: deps.config.bodyLimit,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, useDefaults: true, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Ariadne',
        version: API_VERSION,
        description: 'Browsers for AI agents: sessions with roles, accessibility snapshots with refs, actions by ref.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(websocket, { options: { maxPayload: 1024 * 1024 } });

  registerErrorHandling(app);
  registerAuth(app, deps.config.apiKeys);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  await app.register(healthRoutes(deps));
  await app.register(sessionRoutes(deps));
  await app.register(pageOpRoutes(deps));
  return app;
}
