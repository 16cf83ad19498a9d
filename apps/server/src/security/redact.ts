// The redaction rules live in @ariadne/schema, shared with the standalone worker's logger.
export {
  REDACTED, LOG_REDACT_PATHS, logRedaction, mapStrings, redactForeignUrl, redactRequestUrl, redactText, redactValues, typedValuesOf,
} from '@ariadne/schema';
