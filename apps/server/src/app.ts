import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import websocket from '@fastify/websocket';
import swagger from '@fastify/swagger';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import { registerErrorHandling } from './plugins/errors.js';
import { registerAuth } from './plugins/auth.js';
import { registerForwarding } from './plugins/forward.js';
import { opsRoutes } from './routes/ops.js';
import { cachedSerializers, registerValidation } from './plugins/validation.js';
import { registerGracefulClose } from './plugins/graceful-close.js';
import { RequestLog } from './plugins/request-log.js';
import { sessionRoutes } from './routes/sessions.js';
import { pageOpRoutes } from './routes/page-ops.js';
import { healthRoutes } from './routes/health.js';
import { streamRoutes } from './routes/stream.js';
import { runRoutes, runStoreFor } from './routes/runs.js';
import { inboxRoutes } from './routes/inboxes.js';
import { mcpRoutes } from './routes/mcp.js';
import { tenantRoutes } from './routes/tenant.js';
import { suiteRoutes } from './routes/suites.js';
import { reportRoutes } from './routes/report.js';
import { ReportLinks, verifySignedLink } from './security/report-links.js';
import { verifyViewToken } from './security/view-tokens.js';
import { onSocketError } from './stream/socket-errors.js';
import { openapiTransform } from './openapi-transform.js';
import { consolePlugin } from './console/index.js';
import type { ServerDeps } from './deps.js';

// Builds the HTTP app from its parts. It does not start anything: runtime.ts owns
// Redis, the pool and the listening socket; scripts/openapi builds it to read the spec.

export const API_VERSION = '0.1.0';

export async function buildApp(deps: ServerDeps, logger?: Logger | false): Promise<FastifyInstance> {
  const app = Fastify({
    ...(logger ? { loggerInstance: logger as FastifyBaseLogger, logController: new RequestLog(logger as FastifyBaseLogger) } : { logger: false }),
    bodyLimit: deps.config.bodyLimit,
    // A stalled request (slow headers, a body that never ends) is cut off with 408;
    // Node checks its connections every second so the limit holds to about a second.
    requestTimeout: deps.config.security.requestTimeoutMs,
    http: { headersTimeout: deps.config.security.headersTimeoutMs, requestTimeout: deps.config.security.requestTimeoutMs, connectionsCheckingInterval: 1000 },
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    ajv: { customOptions: { coerceTypes: true, removeAdditional: false, useDefaults: true, allErrors: false } },
    schemaController: { compilersFactory: cachedSerializers },
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
    transform: openapiTransform as never,
  });
  // The hard frame limit sits above the per-message limit, so an oversized command gets
  // an error reply (connection kept) rather than a protocol close.
  await app.register(websocket, {
    options: { maxPayload: deps.config.bodyLimit * 2 },
    // A client's bad frame is a warning with its close code (stream/socket-errors.ts).
    errorHandler: onSocketError,
    // On shutdown, streams close with the documented "going away" code and reason.
    preClose(this: FastifyInstance, done: () => void) {
      for (const client of this.websocketServer.clients) client.close(1001, 'server_shutting_down');
      this.websocketServer.close();
      done();
    },
  });

  registerErrorHandling(app, (code) => deps.metrics?.errors.inc({ code }));
  registerValidation(app);
  registerGracefulClose(app);
  // Signed report links (a page and its screenshots, without a key): security/report-links.ts.
  const reportLinks = new ReportLinks(deps.redis, deps.config.redisPrefix, deps.config.suites.secretsKey);
  const runStore = runStoreFor(deps.redis, deps.config);
  // The web console (console/): its sign-in check runs before the key check below.
  await app.register(consolePlugin(deps));
  registerAuth(app, deps.config.apiKeys, {
    metricsPublic: deps.config.security.metricsPublic,
    verifyLink: (req, route) => verifySignedLink(reportLinks, async (id) => (await runStore.get(id))?.tenant ?? null, req, route),
    // Live-view tokens (security/view-tokens.ts): the session's tenant from the cluster directory.
    verifyView: (req) => verifyViewToken(reportLinks, async (id) => (await deps.store?.get(id).catch(() => null))?.tenant ?? null, req),
  });
  await registerForwarding(app, deps);
  app.addHook('onSend', async (req, reply) => {
    reply.header('x-request-id', req.id);
  });

  await app.register(healthRoutes(deps));
  await app.register(opsRoutes(deps));
  await app.register(sessionRoutes(deps));
  await app.register(pageOpRoutes(deps));
  await app.register(runRoutes(deps));
  await app.register(reportRoutes(deps, reportLinks));
  await app.register(inboxRoutes(deps));
  await app.register(mcpRoutes(deps));
  await app.register(tenantRoutes(deps));
  await app.register(suiteRoutes(deps));
  await app.register(streamRoutes(deps, {
    pingIntervalMs: deps.config.stream.pingIntervalMs,
    maxMessageBytes: deps.config.bodyLimit,
    messagesPerSecond: deps.config.stream.messagesPerSecond,
    maxPerSession: deps.config.stream.maxPerSession,
    maxBufferedBytes: deps.config.stream.maxBufferedBytes,
    slowConsumerMs: deps.config.stream.slowConsumerMs,
    eventsPerSecond: deps.config.stream.eventsPerSecond,
  }, reportLinks));
  return app;
}
