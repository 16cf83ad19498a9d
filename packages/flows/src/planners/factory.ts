import { AppError } from '@ariadne/schema';
import type { FetchLike } from '@ariadne/egress';
import type { RunRecord } from '../service/run-store.js';
import type { PlannerDefaults } from '../service/run-service.js';
import type { Planner } from './planner.js';
import { RulesPlanner } from './rules-planner.js';
import { AnthropicPlanner } from './anthropic.js';
import { OpenAIPlanner } from './openai.js';

// Which planner a run gets: the one it asked for, with model, key and base URL from the
// request, else from the server's configuration.
//
// The server's key (ANTHROPIC_API_KEY / OPENAI_API_KEY) is only ever sent to the
// server's base URL for that provider. A base URL the tenant chose needs the tenant's
// own key, and its connections go through the egress policy (`egressFetch`).

export type ModelPlannerMaker = (kind: 'anthropic' | 'openai', o: { model: string; apiKey: string; baseUrl?: string; fetch?: FetchLike }) => Planner;

const makers: Partial<Record<'anthropic' | 'openai', ModelPlannerMaker>> = {
  anthropic: (_k, o) => new AnthropicPlanner(o),
  openai: (_k, o) => new OpenAIPlanner(o),
};

export function registerModelPlanner(kind: 'anthropic' | 'openai', make: ModelPlannerMaker): void {
  makers[kind] = make;
}

/** Where the SDKs go when no base URL is configured. */
export const SDK_BASE_URLS = { anthropic: 'https://api.anthropic.com', openai: 'https://api.openai.com/v1' } as const;

function sameBase(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const x = new URL(u);
      return `${x.protocol}//${x.host}${x.pathname.replace(/\/+$/, '')}`.toLowerCase();
    } catch {
      return u.replace(/\/+$/, '').toLowerCase();
    }
  };
  return norm(a) === norm(b);
}

/** Is this run's base URL one the tenant chose (not the server's own for that provider)? */
export function tenantBaseUrl(kind: 'anthropic' | 'openai', baseUrl: string | undefined, defaults: PlannerDefaults): boolean {
  if (!baseUrl) return false;
  return !sameBase(baseUrl, defaults[kind].baseUrl || SDK_BASE_URLS[kind]);
}

/** The 400 a run gets when it names its own base URL but relies on the server's key. */
export function ownKeyRequired(kind: 'anthropic' | 'openai'): AppError {
  return new AppError('invalid_request', `A run with its own "baseUrl" must bring its own "apiKey": the server's ${kind} key is only sent to the server's configured base URL.`, { field: 'apiKey' });
}

export function plannerFor(rec: RunRecord, secret: { apiKey?: string }, defaults: PlannerDefaults, opts: { egressFetch?: FetchLike } = {}): Planner {
  const kind = rec.request.planner;
  if (kind === 'rules') return new RulesPlanner();
  if (kind === 'anthropic' || kind === 'openai') {
    const d = defaults[kind];
    const make = makers[kind];
    if (!make) throw new AppError('invalid_request', `The ${kind} planner is not available in this build.`, { field: 'planner' });
    const foreign = tenantBaseUrl(kind, rec.request.baseUrl, defaults);
    if (foreign && !secret.apiKey) throw ownKeyRequired(kind);
    const apiKey = secret.apiKey ?? d.apiKey;
    if (!apiKey) throw new AppError('invalid_request', `The ${kind} planner needs an API key.`, { field: 'apiKey' });
    return make(kind, {
      model: rec.request.model ?? d.model,
      apiKey,
      baseUrl: rec.request.baseUrl ?? (d.baseUrl || undefined),
      ...(foreign && opts.egressFetch ? { fetch: opts.egressFetch } : {}),
    });
  }
  throw new AppError('invalid_request', `Unknown planner "${kind}".`, { field: 'planner' });
}
