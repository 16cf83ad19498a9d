import { AppError } from '@ariadne/schema';
import { type EgressPolicy, portOf } from './policy.js';
import type { Denial, EgressChannel } from './proxy.js';

// What a navigation asks before it starts, and how a failed one is explained: the
// navigation guard of one browser context (registered with @ariadne/page).

export function deniedError(d: Pick<Denial, 'host' | 'port' | 'reason'> & { url?: string }): AppError {
  return new AppError('egress_denied', `${d.host}:${d.port} is blocked by the egress policy (${d.reason}).`, {
    host: d.host,
    port: d.port,
    reason: d.reason,
    ...(d.url ? { url: d.url.slice(0, 300) } : {}),
  });
}

/** Check a URL against the policy; throws AppError egress_denied (403). */
export async function checkEgressUrl(policy: EgressPolicy, raw: string, field?: string, channel?: EgressChannel): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return;
  }
  if (!/^(https?|wss?):$/.test(url.protocol)) return;
  const port = portOf(url);
  const d = await policy.decide(url.hostname, port);
  if (d.allowed) return;
  const denial: Denial = { time: Date.now(), host: d.host, port, reason: d.reason ?? 'denied', kind: 'navigation', url: url.href };
  channel?.record(denial);
  const err = deniedError(denial);
  if (field) err.details!.field = field;
  throw err;
}

export function navigationGuard(policy: EgressPolicy, channel: EgressChannel) {
  return {
    check: (url: string) => checkEgressUrl(policy, url, 'url', channel),
    explain(since: number, url?: string): AppError | null {
      const list = channel.denialsSince(since).filter((d) => d.kind !== 'navigation');
      if (!list.length) return null;
      let host: string | undefined;
      try {
        host = url ? new URL(url).hostname.replace(/^\[|\]$/g, '') : undefined;
      } catch {
        host = undefined;
      }
      const hit = (host && [...list].reverse().find((d) => d.host === host)) || list[list.length - 1];
      return deniedError(hit);
    },
  };
}

/** An EgressDeniedError (outbound fetch) as the API error, naming the request field it came from. */
export function deniedErrorFrom(err: { decision: { host: string; port: number; reason?: string } }, field?: string): AppError {
  const e = deniedError({ host: err.decision.host, port: err.decision.port, reason: err.decision.reason ?? 'denied' });
  if (field) e.details!.field = field;
  return e;
}
