import type { FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';

// Request validation. Query strings, path params and headers arrive as text, so they are
// coerced ("5" → 5). JSON bodies are typed already: coercing them would turn
// `"ttlSeconds": true` into a 1-second session and `"name": 42` into role "42", so a
// wrong type in a body is a 400 that names the field (as on the WebSocket channel).

const options = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false } as const;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ ...options, coerceTypes });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

export function registerValidation(app: FastifyInstance): void {
  const strict = makeAjv(false);
  const coercing = makeAjv(true);
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
}
