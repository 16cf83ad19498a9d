import { Type } from 'typebox';
import { ERROR_CODES } from './errors.js';

// The one error body every route answers with (also used in openapi.yaml).
export const ErrorResponse = Type.Object(
  {
    error: Type.Object({
      code: Type.Union(ERROR_CODES.map((c) => Type.Literal(c))),
      message: Type.String(),
      details: Type.Optional(Type.Record(Type.String(), Type.Any())),
    }),
  },
  { $id: 'ErrorResponse', description: 'Every error: a stable code, a message, optional details.' },
);

export const Ok = Type.Object({ ok: Type.Boolean() });
