// The redaction rules live in @ariadne/schema, shared with the standalone worker's logger.
export {
  REDACTED, LOG_REDACT_PATHS, addSecretValues, logRedaction, looksLikeToken, mapStrings, redactForeignUrl, redactRequestUrl, redactText, redactValues, typedValuesOf,
} from '@ariadne/schema';
