import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError, type ErrorCode } from '@ariadne/schema';
import { publicError } from '../security/internal-errors.js';

// One error shape everywhere: { error: { code, message, details? } }. Validation
// failures name the field; Fastify's own 4xx (bad JSON, body too large) get stable
// codes; anything unexpected is a logged 500 that never takes the server down.

function fieldOf(v: { instancePath?: string; params?: Record<string, unknown> }): string {
  const path = (v.instancePath ?? '').replace(/^\//, '').replace(/\//g, '.');
  const missing = v.params?.missingProperty ?? v.params?.additionalProperty;
  if (missing) return path ? `${path}.${String(missing)}` : String(missing);
  return path || '(root)';
}

export function registerErrorHandling(app: FastifyInstance, onError: (code: string) => void = () => {}): void {
  app.setErrorHandler((err: FastifyError | AppError | Error, request, reply) => {
    if (err instanceof AppError) {
      onError(err.code);
      // Internal faults are logged in full (redacted) and answered without their text.
      const out = publicError(err, request.id);
      if (err.code === 'internal_error') request.log.error({ err: (err as { cause?: unknown }).cause ?? err, details: err.details }, `internal error: ${err.message}`);
      else if (err.status >= 500) request.log.warn({ code: err.code, details: out.details }, out.message);
      if (err.headers) reply.headers(err.headers);
      return reply.status(err.status).send(out.toJSON());
    }
    const fe = err as FastifyError;
    if (fe.validation) {
      const first = fe.validation[0];
      const field = fieldOf(first as never);
      const where = fe.validationContext ?? 'body';
      const message = first.params && (first.params as { additionalProperty?: string }).additionalProperty
        ? `Unknown field "${field}" in ${where}.`
        : `Invalid ${where} field "${field}": ${first.message ?? 'invalid'}.`;
      return reply.status(400).send({
        error: { code: 'invalid_request', message, details: { field, in: where, errors: fe.validation.slice(0, 5).map((v) => ({ field: fieldOf(v as never), message: v.message })) } },
      });
    }
    const status = fe.statusCode ?? 500;
    let code: ErrorCode = 'internal_error';
    if (status === 413 || fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') code = 'payload_too_large';
    else if (status === 429) code = 'rate_limited';
    else if (status >= 400 && status < 500) code = 'invalid_request';
    if (code === 'internal_error') {
      onError(code);
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send(publicError(err, request.id).toJSON());
    }
    return reply.status(code === 'invalid_request' ? 400 : status).send({ error: { code, message: fe.message } });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({ error: { code: 'not_found', message: `No route ${request.method} ${request.url.split('?')[0]}.` } });
  });
}
