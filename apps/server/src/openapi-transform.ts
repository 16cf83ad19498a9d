import type { FastifySchema, RouteOptions } from 'fastify';

// Adjusts what @fastify/swagger writes for each route (the live routes are untouched):
// - WebSocket routes are hidden by @fastify/websocket (schema.hide), so clients reading
//   openapi.yaml would never learn the stream exists: document them as what they are
//   on the wire, a GET that answers 101 Switching Protocols (protocol in docs/api.md).
// - Every route answers errors with the same ErrorResponse body; inlined, its list of
//   codes was repeated for every status of every route (5x the size of the document).
//   Emit it once under components.schemas and point at it.

interface TransformInput {
  schema: FastifySchema & { hide?: boolean; description?: string; response?: Record<string, unknown> };
  url: string;
  route: RouteOptions & { websocket?: boolean };
  openapiObject: { components?: { schemas?: Record<string, unknown> } };
}

const SHARED = 'ErrorResponse';

export function openapiTransform({ schema, url, route, openapiObject }: TransformInput): { schema: FastifySchema; url: string } {
  if (!schema) return { schema, url };
  if (route.websocket) {
    const { hide: _hide, ...rest } = schema;
    return {
      url,
      schema: {
        ...rest,
        description: rest.description ?? 'WebSocket upgrade (send `Connection: Upgrade`, `Upgrade: websocket`). Messages and close codes: docs/api.md.',
        response: { 101: { description: 'Switching Protocols: the connection is now a WebSocket.', type: 'null' } },
      } as FastifySchema,
    };
  }
  if (!schema.response) return { schema, url };
  const response: Record<string, unknown> = {};
  for (const [status, s] of Object.entries(schema.response)) {
    const body = s as { $id?: string; description?: string } | undefined;
    if (body?.$id !== SHARED) {
      response[status] = s;
      continue;
    }
    const { $id: _id, ...definition } = body;
    openapiObject.components ??= {};
    openapiObject.components.schemas ??= {};
    openapiObject.components.schemas[SHARED] ??= definition;
    // A response given as { content } is passed through as is by @fastify/swagger.
    response[status] = {
      description: body.description,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${SHARED}` } } },
    };
  }
  return { url, schema: { ...schema, response } as FastifySchema };
}
