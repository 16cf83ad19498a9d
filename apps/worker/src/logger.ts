import { pino, type DestinationStream, type Logger } from 'pino';
import { logRedaction } from '@ariadne/schema';

// The standalone worker's logger: the same redaction as the server's (API keys and
// tokens, ?token=, Authorization and cookies, URL user-info and query values, typed
// values), since its jobs carry the same data (a run's own model apiKey, page URLs, errors).

export function createWorkerLogger(level: string = process.env.LOG_LEVEL ?? 'info', destination?: DestinationStream): Logger {
  return pino({ level, base: { role: 'worker' }, ...logRedaction() }, destination);
}
