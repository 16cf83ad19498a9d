import { AppError } from '@ariadne/schema';
import type { RunRecord } from '../service/run-store.js';
import type { PlannerDefaults } from '../service/run-service.js';
import type { Planner } from './planner.js';
import { RulesPlanner } from './rules.js';
import { AnthropicPlanner } from './anthropic.js';
import { OpenAIPlanner } from './openai.js';

// Which planner a run gets: the one it asked for, with model, key and base URL from the
// request, else from the server's configuration.

export type ModelPlannerMaker = (kind: 'anthropic' | 'openai', o: { model: string; apiKey: string; baseUrl?: string }) => Planner;

const makers: Partial<Record<'anthropic' | 'openai', ModelPlannerMaker>> = {
  anthropic: (_k, o) => new AnthropicPlanner(o),
  openai: (_k, o) => new OpenAIPlanner(o),
};

export function registerModelPlanner(kind: 'anthropic' | 'openai', make: ModelPlannerMaker): void {
  makers[kind] = make;
}

export function plannerFor(rec: RunRecord, secret: { apiKey?: string }, defaults: PlannerDefaults): Planner {
  const kind = rec.request.planner;
  if (kind === 'rules') return new RulesPlanner();
  if (kind === 'anthropic' || kind === 'openai') {
    const d = defaults[kind];
    const make = makers[kind];
    if (!make) throw new AppError('invalid_request', `The ${kind} planner is not available in this build.`, { field: 'planner' });
    const apiKey = secret.apiKey ?? d.apiKey;
    if (!apiKey) throw new AppError('invalid_request', `The ${kind} planner needs an API key.`, { field: 'apiKey' });
    return make(kind, { model: rec.request.model ?? d.model, apiKey, baseUrl: rec.request.baseUrl ?? (d.baseUrl || undefined) });
  }
  throw new AppError('invalid_request', `Unknown planner "${kind}".`, { field: 'planner' });
}
