import { AppError } from '@ariadne/schema';
import { mapStrings, redactText, redactValues, typedValuesOf } from './redact.js';

// What a client may see of an error. A stable AppError keeps its code and message,
// with URLs and typed values redacted; an internal fault (a bug, a TypeError, a
// bridge script that threw) is a 500 internal_error carrying only the request id:
// its text is logged, never returned.

export const INTERNAL_MESSAGE = 'Internal error; it has been logged.';

export function publicError(err: unknown, requestId: string | undefined): AppError {
  if (err instanceof AppError && err.code !== 'internal_error') {
    const details = err.details ? (mapStrings(err.details, redactText) as Record<string, unknown>) : undefined;
    return new AppError(err.code, redactText(err.message), details, err.headers);
  }
  return new AppError('internal_error', requestId ? `${INTERNAL_MESSAGE} Request id: ${requestId}.` : INTERNAL_MESSAGE, requestId ? { requestId } : undefined);
}

/** The same error with the values this command typed (fill/type/press input) hidden. */
export function withoutTypedValues(err: AppError, input: unknown): AppError {
  const values = typedValuesOf(input);
  if (!values.length) return err;
  const scrub = (s: string) => redactValues(redactText(s), values);
  const out = new AppError(err.code, scrub(err.message), err.details ? (mapStrings(err.details, scrub) as Record<string, unknown>) : undefined, err.headers);
  const cause = (err as { cause?: unknown }).cause;
  return cause === undefined ? out : Object.assign(out, { cause });
}
