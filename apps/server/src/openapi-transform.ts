import type { FastifySchema, RouteOptions } from 'fastify';

// @fastify/websocket hides WebSocket routes from the spec (schema.hide), so clients
// reading openapi.yaml would never learn the stream exists. Document them as what
// they are on the wire: a GET that answers 101 Switching Protocols. The message
// protocol and close codes are in README.md.

interface TransformInput {
  schema: FastifySchema & { hide?: boolean; description?: string };
  url: string;
  route: RouteOptions & { websocket?: boolean };
}

export function openapiTransform({ schema, url, route }: TransformInput): { schema: FastifySchema; url: string } {
  if (!route.websocket || !schema) return { schema, url };
  const { hide: _hide, ...rest } = schema;
  return {
    url,
    schema: {
      ...rest,
      description: rest.description ?? 'WebSocket upgrade (send `Connection: Upgrade`, `Upgrade: websocket`). Messages and close codes: README.md.',
      response: { 101: { description: 'Switching Protocols: the connection is now a WebSocket.', type: 'null' } },
    } as FastifySchema,
  };
}
