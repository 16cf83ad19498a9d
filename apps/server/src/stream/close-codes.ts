// WebSocket close codes of GET /v1/sessions/:id/stream. Each end of a stream has its
// own code, so a client can tell an expired session from a crashed one without
// parsing text. Documented in docs/api.md; 4xxx mirrors the HTTP status where it can.

export const CLOSE = {
  /** The client closed, or the server closed normally. */
  normal: { code: 1000, reason: 'normal' },
  /** The server is shutting down (standard "going away"). */
  shutting_down: { code: 1001, reason: 'server_shutting_down' },
  /** A frame larger than the hard protocol limit (standard "message too big"). */
  too_big: { code: 1009, reason: 'message_too_big' },
  unauthorized: { code: 4401, reason: 'unauthorized' },
  session_not_found: { code: 4404, reason: 'session_not_found' },
  /** Idle timeout or TTL: a timeout never looks like a crash. */
  session_expired: { code: 4408, reason: 'session_expired' },
  session_deleted: { code: 4410, reason: 'session_deleted' },
  session_crashed: { code: 4500, reason: 'session_crashed' },
  session_lost: { code: 4503, reason: 'session_lost' },
  /** The client reads slower than its events come: its send queue stayed over the cap (docs/security.md, "Limits"). */
  slow_consumer: { code: 4008, reason: 'slow_consumer' },
  /** The client stopped answering pings. */
  ping_timeout: { code: 4000, reason: 'ping_timeout' },
} as const;

export type CloseKey = keyof typeof CLOSE;

/** Which close a session end maps to. */
export function closeForEnd(status: string, reason: string): (typeof CLOSE)[CloseKey] {
  if (reason === 'server_shutdown') return CLOSE.shutting_down;
  if (status === 'expired') return CLOSE.session_expired;
  if (status === 'crashed') return CLOSE.session_crashed;
  if (status === 'lost') return CLOSE.session_lost;
  return CLOSE.session_deleted;
}
