import { Type } from 'typebox';
import { RoleSpec } from '@ariadne/schema';
import { RunOptions } from './runs.js';

// Request and response shapes of /v1/suites and /v1/hooks. Secrets are write-only:
// no response schema has a place for a secret's value.

const VarName = { pattern: '^[A-Za-z_][\\w.-]*$' };

const SuitePlan = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  plan: Type.String({ minLength: 1, maxLength: 100_000, description: 'Markdown plan, as for POST /v1/runs.' }),
  path: Type.Optional(Type.String({ maxLength: 2048, description: 'Where this plan starts, resolved against the base URL (default: the base URL itself).' })),
}, { additionalProperties: false });

const TriggerInput = Type.Object({
  id: Type.Optional(Type.String({ maxLength: 64, description: 'On update: an existing trigger\'s id, to keep its hook URL (and its secret when "secret" is left out).' })),
  type: Type.Union([Type.Literal('github'), Type.Literal('vercel'), Type.Literal('netlify'), Type.Literal('generic')], { description: 'github: deployment_status events (X-Hub-Signature-256). vercel: deployment.succeeded (x-vercel-signature). netlify: deploy notifications in state ready (x-webhook-signature JWT). generic: any CI (X-Ariadne-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">).' }),
  secret: Type.Optional(Type.String({ minLength: 8, maxLength: 512, description: 'Signing secret shared with the platform (write-only; stored encrypted).' })),
  environments: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50, description: 'Only deployments to these environments start runs (github: environment; vercel: target, "preview" when none; netlify: context).' })),
}, { additionalProperties: false });

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  baseUrl: Type.String({ minLength: 1, maxLength: 2048, description: 'Where the plans run unless a run or a deployment says otherwise (http or https).' }),
  plans: Type.Array(SuitePlan, { minItems: 1, maxItems: 50 }),
  variables: Type.Optional(Type.Record(Type.String(VarName), Type.String({ maxLength: 10_000 }), { maxProperties: 200 })),
  secrets: Type.Optional(Type.Record(Type.String(VarName), Type.String({ minLength: 1, maxLength: 10_000 }), { maxProperties: 100, description: 'Write-only {{NAME}} variables, stored encrypted (SECRETS_KEY), redacted from every output whatever their names; a given map replaces the stored one.' })),
  roles: Type.Optional(Type.Array(RoleSpec, { maxItems: 16 })),
  planner: Type.Optional(Type.Union([Type.Literal('rules'), Type.Literal('anthropic'), Type.Literal('openai')])),
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  options: Type.Optional(RunOptions),
  triggers: Type.Optional(Type.Array(TriggerInput, { maxItems: 20 })),
};

export const CreateSuiteBody = Type.Object(fields, { additionalProperties: false });

export const UpdateSuiteBody = Type.Object({
  name: Type.Optional(fields.name),
  baseUrl: Type.Optional(fields.baseUrl),
  plans: Type.Optional(fields.plans),
  variables: fields.variables,
  secrets: fields.secrets,
  roles: fields.roles,
  planner: fields.planner,
  model: fields.model,
  options: fields.options,
  triggers: fields.triggers,
}, { additionalProperties: false, minProperties: 1 });

const SuiteStatusSchema = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('passed'), Type.Literal('failed'), Type.Literal('error'), Type.Literal('cancelled')]);

export const SuiteRunSchema = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  baseUrl: Type.String(),
  status: SuiteStatusSchema,
  trigger: Type.Object({
    type: Type.String({ description: 'manual, github, vercel, netlify or generic.' }),
    repo: Type.Optional(Type.String()),
    sha: Type.Optional(Type.String()),
    environment: Type.Optional(Type.String()),
    delivery: Type.Optional(Type.String()),
  }),
  runs: Type.Array(Type.Object({ plan: Type.String(), runId: Type.String(), status: Type.Union([Type.String(), Type.Null()], { description: 'null: the run has expired (RUN_RETENTION_SECONDS).' }), url: Type.String() })),
});

export const SuiteSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  baseUrl: Type.String(),
  plans: Type.Array(SuitePlan),
  variables: Type.Record(Type.String(), Type.String()),
  secrets: Type.Array(Type.String(), { description: 'Names of the stored secrets (values are never returned).' }),
  roles: Type.Optional(Type.Array(RoleSpec)),
  planner: Type.Optional(Type.String()),
  model: Type.Optional(Type.String()),
  options: Type.Optional(Type.Any()),
  triggers: Type.Array(Type.Object({
    id: Type.String(),
    type: Type.String(),
    environments: Type.Optional(Type.Array(Type.String())),
    url: Type.String({ description: 'Paste this into the platform\'s webhook settings (with the same secret).' }),
  })),
  latest: Type.Union([SuiteRunSchema, Type.Null()], { description: 'The most recent suite run and its status.' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const RunSuiteBody = Type.Object({
  baseUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Run against this deployment instead of the suite\'s baseUrl.' })),
  sha: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  environment: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
}, { additionalProperties: false });

export const HookAnswer = Type.Object({
  status: Type.Union([Type.Literal('accepted'), Type.Literal('duplicate'), Type.Literal('ignored'), Type.Literal('pong')]),
  reason: Type.Optional(Type.String()),
  suiteRun: Type.Optional(Type.String({ description: 'The suite run this delivery started (or, for a duplicate, the one the first delivery started).' })),
  runs: Type.Optional(Type.Array(Type.String())),
});
