import { randomUUID } from 'node:crypto';
import { egressDenial, type FetchLike } from '@ariadne/egress';
import type { DeliveryRecord } from '@ariadne/flows';
import { signAriadne } from '../signatures.js';

// One outbound POST, tried a bounded number of times with a doubling wait between tries,
// through the service's egress-checking fetch. Every try is recorded (time, duration,
// answer or error) and nothing else: no header, no body, no secret. Signed deliveries
// carry X-Ariadne-Signature (t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">), re-signed at
// each try so a receiver's replay window holds, and the same X-Ariadne-Delivery id.

export interface RetryPolicy {
  attempts: number;
  /** Wait before the second try; doubled before each next one. */
  backoffMs: number;
  /** Per try, the whole exchange (body included). */
  timeoutMs?: number;
}

export interface Outbound {
  url: string;
  body: string;
  /** Signs the body when given. */
  secret?: string;
  headers?: Record<string, string>;
  event: string;
}

export type Attempt = DeliveryRecord['attempts'][number];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Worth another try: no answer, a timeout, a server error, 408 or 429. */
const retriable = (status: number) => status >= 500 || status === 408 || status === 429;

export async function deliver(fetchFn: FetchLike, out: Outbound, policy: RetryPolicy): Promise<{ delivered: boolean; attempts: Attempt[]; status?: number; error?: string }> {
  const attempts: Attempt[] = [];
  const deliveryId = randomUUID();
  const max = Math.max(1, policy.attempts);
  for (let i = 1; i <= max; i++) {
    const started = Date.now();
    const at = new Date(started).toISOString();
    let again = true;
    try {
      const res = await fetchFn(out.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'ariadne-notify',
          'x-ariadne-event': out.event,
          'x-ariadne-delivery': deliveryId,
          ...(out.secret ? { 'x-ariadne-signature': signAriadne(out.secret, out.body) } : {}),
          ...out.headers,
        },
        body: out.body,
        signal: AbortSignal.timeout(policy.timeoutMs ?? 10_000),
        redirect: 'manual',
      });
      await res.arrayBuffer().catch(() => {});
      attempts.push({ at, durationMs: Date.now() - started, status: res.status });
      if (res.status >= 200 && res.status < 300) return { delivered: true, attempts, status: res.status };
      again = retriable(res.status);
    } catch (err) {
      const denied = egressDenial(err);
      const error = denied
        ? `egress_denied: ${denied.message}`
        : (err as Error).name === 'TimeoutError' ? `timeout (${Math.round((policy.timeoutMs ?? 10_000) / 1000)} s)` : errorText(err);
      attempts.push({ at, durationMs: Date.now() - started, error });
      // A refusal by the egress policy does not change on retry.
      again = !denied;
    }
    if (!again || i === max) break;
    await sleep(policy.backoffMs * 2 ** (i - 1));
  }
  const last = attempts[attempts.length - 1];
  return { delivered: false, attempts, ...(last?.status !== undefined ? { status: last.status, error: `HTTP ${last.status}` } : {}), ...(last?.error ? { error: last.error } : {}) };
}

/** fetch's "fetch failed" says little: its cause (ECONNREFUSED, ...) says what happened. */
function errorText(err: unknown): string {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return (cause ? `${e.message}: ${cause}` : e.message).slice(0, 300);
}
