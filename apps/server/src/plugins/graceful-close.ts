import type { FastifyInstance } from 'fastify';

// Fastify's close() waits for every keep-alive connection to end. One that was busy
// when shutdown began turns idle afterwards and is then kept for its whole
// keepAliveTimeout (72 s by default; fastify/fastify#7044), so a SIGTERM during a
// request held the process for over a minute. While closing, answer with
// `Connection: close` and drop sockets as soon as they are idle.

export function registerGracefulClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    app.server.closeIdleConnections?.();
    done();
  });
  app.addHook('onSend', async (_req, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  app.addHook('onResponse', async () => {
    if (closing) app.server.closeIdleConnections?.();
  });
}
