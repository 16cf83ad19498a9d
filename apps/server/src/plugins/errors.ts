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

interface ValidationItem { keyword?: string; instancePath?: string; params?: { allowedValue?: unknown; allowedValues?: unknown[] } }

/** The values a field may take when it failed a choice of constants (a union of literals, an enum). */
function allowedValues(errors: ValidationItem[], path: string): string[] {
  const out: string[] = [];
  for (const e of errors) {
    if (e.instancePath !== path) continue;
    if (e.keyword === 'const' && typeof e.params?.allowedValue === 'string') out.push(e.params.allowedValue);
    if (e.keyword === 'enum') for (const v of e.params?.allowedValues ?? []) if (typeof v === 'string') out.push(v);
  }
  return [...new Set(out)];
}

function valueAt(root: unknown, path: string): unknown {
  let v = root;
  for (const k of path.split('/').filter(Boolean)) v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

// Action names other browser tools use (Playwright's API, Puppeteer, WebDriver, Playwright MCP)
// and how to say them here: an agent that guessed one is told at once.
const ACTION_SPELLINGS: Record<string, string> = {
  dblclick: 'use "click" with "double": true', doubleclick: 'use "click" with "double": true', double_click: 'use "click" with "double": true',
  tap: 'use "click"', goto: 'use "navigate"', open: 'use "navigate"', visit: 'use "navigate"', go: 'use "navigate"',
  selectoption: 'use "select" (value: the option\'s label or value)', select_option: 'use "select"', choose: 'use "select"',
  setvalue: 'use "fill"', input: 'use "fill" (or "type" to send keys)', keypress: 'use "press"', presskey: 'use "press"', press_key: 'use "press"', key: 'use "press"',
  setchecked: 'use "check" or "uncheck"', tick: 'use "check"', untick: 'use "uncheck"', mouseover: 'use "hover"',
  draganddrop: 'use "drag" (targetRef / targetSelector / targetDescription)', drag_and_drop: 'use "drag"', setinputfiles: 'use "upload"', upload_file: 'use "upload"',
  goback: 'use "back"', go_back: 'use "back"', goforward: 'use "forward"', waitfor: 'use "wait_for"', waitforselector: 'use "wait_for"', wait: 'use "wait_for"',
  handledialog: 'use "handle_dialog"', scrollintoview: 'use "scroll"',
};

function suggest(field: string, given: string, allowed: string[]): string | null {
  const g = given.toLowerCase().replace(/[\s-]/g, '');
  const near = allowed.find((a) => a.toLowerCase().replace(/_/g, '') === g.replace(/_/g, ''));
  if (near) return `Did you mean "${near}"?`;
  if (field === 'action' && ACTION_SPELLINGS[g]) return `For "${given}", ${ACTION_SPELLINGS[g]}.`;
  return null;
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
      const allowed = allowedValues(fe.validation as never, first.instancePath ?? '');
      const given = allowed.length ? valueAt(request[where === 'querystring' ? 'query' : where as 'body' | 'params' | 'headers'], first.instancePath ?? '') : undefined;
      const suggestion = allowed.length && typeof given === 'string' ? suggest(field, given, allowed) : null;
      const message = first.params && (first.params as { additionalProperty?: string }).additionalProperty
        ? `Unknown field "${field}" in ${where}.`
        : allowed.length
          ? `Invalid ${where} field "${field}": ${given === undefined ? 'it' : JSON.stringify(given)} is not one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}.${suggestion ? ` ${suggestion}` : ''}`
          : `Invalid ${where} field "${field}": ${first.message ?? 'invalid'}.`;
      return reply.status(400).send({
        error: {
          code: 'invalid_request',
          message,
          details: { field, in: where, ...(allowed.length ? { allowed } : {}), errors: fe.validation.slice(0, 5).map((v) => ({ field: fieldOf(v as never), message: v.message })) },
        },
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
