import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

// Request validation. Query strings, path params and headers arrive as text, so they are
// coerced ("5" → 5). JSON bodies are typed already: coercing them would turn
// `"ttlSeconds": true` into a 1-second session and `"name": 42` into role "42", so a
// wrong type in a body is a 400 that names the field (as on the WebSocket channel).
//
// Compiled validators and response serializers are kept for the process, keyed by the
// schema's JSON: compiling them was most of an app's start (about 1.5 s of CPU per start),
// and every app a process builds (the test suite builds one per file, a node builds one)
// has the same routes. A compiled function depends only on its schema and these options.

const options = { useDefaults: true, removeAdditional: false, allErrors: false, strict: false } as const;

function makeAjv(coerceTypes: boolean): Ajv {
  const ajv = new Ajv({ ...options, coerceTypes });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  return ajv;
}

/** The value kept under the key, compiled on first use. */
function cached<T>(map: Map<string, T>, key: string, compile: () => T): T {
  let v = map.get(key);
  if (v === undefined) {
    v = compile();
    map.set(key, v);
  }
  return v;
}

let ajvs: { strict: Ajv; coercing: Ajv } | null = null;
const validators = new Map<string, ValidateFunction>();

export function registerValidation(app: FastifyInstance): void {
  ajvs ??= { strict: makeAjv(false), coercing: makeAjv(true) };
  const { strict, coercing } = ajvs;
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? strict : coercing;
    return cached(validators, `${ajv === strict ? 'b' : 'c'}${JSON.stringify(schema)}`, () => ajv.compile(schema));
  });
}

type SerializerFactory = (externalSchemas: unknown, serializerOpts: unknown) => (route: { schema: unknown }) => (doc: unknown) => string;
const serializers = new Map<string, (doc: unknown) => string>();

/** Fastify's own response serializer compiler (fast-json-stringify), each schema compiled once per process. */
export const cachedSerializers: NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']> = {
  buildSerializer: ((externalSchemas: unknown, serializerOpts: unknown) => {
    const compile = (SerializerSelector as unknown as () => SerializerFactory)()(externalSchemas, serializerOpts);
    // Shared schemas ($ref to app.addSchema) or serializer options would make the key incomplete: compile as usual.
    const plain = !serializerOpts && (!externalSchemas || Object.keys(externalSchemas as object).length === 0);
    return (route: { schema: unknown }) => (plain ? cached(serializers, JSON.stringify(route.schema), () => compile(route)) : compile(route));
  }) as never,
};
