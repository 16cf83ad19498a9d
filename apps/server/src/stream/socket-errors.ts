import type { FastifyReply, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';

// Errors on an established WebSocket (any route). A client's bad frame (over the size
// limit, invalid UTF-8, a protocol violation) is the client's fault: ws has already
// answered it with a close code (1009, 1007, 1002), so it is a warning with that code, not
// a server error with a stack. A dropped connection is routine (debug). Anything else is
// ours: logged at error level, and the socket is cut.

/** The close code ws attached to a frame error (its private `status-code` symbol). */
export function closeCodeOf(err: unknown): number | null {
  if (!err || typeof err !== 'object') return null;
  const sym = Object.getOwnPropertySymbols(err).find((s) => s.description === 'status-code');
  const code = sym ? (err as Record<symbol, unknown>)[sym] : undefined;
  return typeof code === 'number' ? code : null;
}

const DROPPED = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

export function onSocketError(err: Error & { code?: string }, socket: WebSocket, request: FastifyRequest, _reply?: FastifyReply): void {
  const closeCode = closeCodeOf(err);
  if (closeCode !== null || (err.code ?? '').startsWith('WS_ERR_')) {
    // ws is closing the socket with closeCode; let the close handshake finish.
    request.log.warn({ wsError: err.code, closeCode, message: err.message }, 'WebSocket client sent a bad frame: closed');
    return;
  }
  if (err.code && DROPPED.has(err.code)) {
    request.log.debug({ wsError: err.code }, 'WebSocket connection dropped');
    socket.terminate();
    return;
  }
  request.log.error({ err }, 'WebSocket error');
  socket.terminate();
}
