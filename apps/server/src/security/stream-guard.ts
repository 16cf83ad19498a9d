import type { RawData } from 'ws';
import type { FastifyRequest } from 'fastify';
import { AppError } from '@ariadne/schema';

// Limits of the WebSocket channel that must hold before and after the upgrade.

/** The id of a command we will not run (rate limit), so even a refusal answers it. */
export function commandIdOf(data: RawData, binary: boolean, maxBytes: number): string | number | null {
  if (binary) return null;
  const buf = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as Buffer);
  if (buf.byteLength > maxBytes) return null;
  try {
    const msg = JSON.parse(buf.toString()) as { id?: unknown };
    return msg && (typeof msg.id === 'string' || typeof msg.id === 'number') ? msg.id : null;
  } catch {
    return null;
  }
}

/**
 * Open WebSockets per (tenant, session) on this node. A slot is taken before the
 * upgrade is accepted and given back when the TCP socket closes, however it ends.
 */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(private readonly max: number) {}

  take(request: FastifyRequest, tenant: string, sessionId: string): void {
    const key = `${tenant}\n${sessionId}`;
    const n = this.open.get(key) ?? 0;
    if (n >= this.max) {
      throw new AppError('too_many_streams', `Session ${sessionId} already has ${n} open WebSockets (at most ${this.max}, STREAM_MAX_PER_SESSION); close one first.`, { sessionId, limit: this.max });
    }
    this.open.set(key, n + 1);
    let released = false;
    request.raw.socket.once('close', () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left <= 0) this.open.delete(key);
      else this.open.set(key, left);
    });
  }

  count(tenant: string, sessionId: string): number {
    return this.open.get(`${tenant}\n${sessionId}`) ?? 0;
  }
}
