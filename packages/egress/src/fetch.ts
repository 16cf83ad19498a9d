import { isIP } from 'node:net';
import { Agent, buildConnector, fetch as undiciFetch } from 'undici';
import type { EgressPolicy, Decision } from './policy.js';

// Outbound HTTP the service itself makes for a tenant (run callbacks, model APIs at a
// tenant-chosen base URL) goes through this fetch: every connection, including each
// redirect hop, is checked by the policy on the resolved address and then made to
// that very address (TLS still verifies the original name).

export class EgressDeniedError extends Error {
  readonly code = 'EGRESS_DENIED';
  constructor(readonly decision: Decision) {
    super(`Blocked by the egress policy: ${decision.host}:${decision.port} (${decision.reason ?? 'denied'}).`);
    this.name = 'EgressDeniedError';
  }
}

/** The EgressDeniedError somewhere in err's cause chain (fetch wraps connect errors). */
export function egressDenial(err: unknown): EgressDeniedError | null {
  let e: unknown = err;
  for (let i = 0; i < 6 && e; i++) {
    if (e instanceof EgressDeniedError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface EgressFetchOptions {
  /** Connect timeout per connection. */
  connectTimeoutMs?: number;
  /** Headers and body timeouts (nothing hangs). */
  responseTimeoutMs?: number;
}

export function createEgressFetch(policy: EgressPolicy, opts: EgressFetchOptions = {}): FetchLike {
  const connect = buildConnector({ timeout: opts.connectTimeoutMs ?? 10_000 });
  const agent = new Agent({
    headersTimeout: opts.responseTimeoutMs ?? 120_000,
    bodyTimeout: opts.responseTimeoutMs ?? 120_000,
    connect: (o, cb) => {
      const port = Number(o.port) || (o.protocol === 'https:' ? 443 : 80);
      const name = o.hostname.replace(/^\[|\]$/g, '');
      policy.decide(name, port).then((d) => {
        if (!d.allowed) return cb(new EgressDeniedError(d), null);
        connect({ ...o, hostname: d.address!, servername: o.servername || (isIP(name) ? undefined : name) }, cb);
      }, (err: Error) => cb(err, null));
    },
  });
  return ((input, init) => undiciFetch(input as never, { ...(init as object), dispatcher: agent } as never)) as FetchLike;
}
