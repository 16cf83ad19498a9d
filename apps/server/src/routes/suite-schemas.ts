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

const Schedule = Type.Object({
  cron: Type.String({ minLength: 9, maxLength: 200, description: 'Cron expression: 5 fields (minute hour day month weekday) or 6 with seconds first. A suite runs at most once a minute (SUITE_SCHEDULE_MIN_SECONDS).' }),
  timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'IANA time zone the expression is read in (default UTC), e.g. Europe/Paris.' })),
}, { additionalProperties: false, description: 'Run the suite on a schedule (a synthetic monitor): once per tick across the whole cluster; runs record trigger type "schedule".' });
const NotifyOn = Type.Union([Type.Literal('failure'), Type.Literal('success'), Type.Literal('always')]);

const NotifyInput = Type.Object({
  type: Type.Union([Type.Literal('webhook'), Type.Literal('slack')], { description: 'webhook: a JSON summary of the suite run (event suite_run.finished). slack: an incoming-webhook message (text and blocks) with the failing case, step and error and the report link.' }),
  url: Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL, stored encrypted (a Slack webhook URL is a credential); checked against the egress policy.' }),
  on: Type.Optional(Type.Array(NotifyOn, { minItems: 1, maxItems: 3, description: 'When to send: failure (failed or error), success (passed or flaky), always. Default: webhook always, slack failure.' })),
}, { additionalProperties: false });

const GitHubSettings = Type.Object({
  apiBase: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'GitHub API base URL for commit statuses (default https://api.github.com; GitHub Enterprise: https://HOST/api/v3). The token is the suite secret GITHUB_TOKEN.' })),
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
  schedule: Type.Optional(Schedule),
  retries: Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description: 'A failed case is tried again this many times in a fresh browser context (default 0); a case that passes only then is reported flaky.' })),
  notify: Type.Optional(Type.Array(NotifyInput, { maxItems: 10, description: 'Where the result of each suite run goes, once all its runs are done (signed with the suite\'s notify secret).' })),
  notifySecret: Type.Optional(Type.String({ minLength: 16, maxLength: 256, description: 'Signs every notification (X-Ariadne-Signature: t=<unix s>,v1=<hex HMAC-SHA256 of "t.body">); write-only. Left out while notify is set: one is generated and answered once (notifySecret in this answer).' })),
  github: Type.Optional(GitHubSettings),
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
  schedule: Type.Optional(Type.Union([Schedule, Type.Null()], { description: 'A new schedule, or null to stop running on a schedule.' })),
  retries: fields.retries,
  notify: fields.notify,
  notifySecret: fields.notifySecret,
  github: fields.github,
}, { additionalProperties: false, minProperties: 1 });

const SuiteStatusSchema = Type.Union([Type.Literal('queued'), Type.Literal('running'), Type.Literal('passed'), Type.Literal('flaky'), Type.Literal('failed'), Type.Literal('error'), Type.Literal('cancelled')], { description: 'flaky: every run passed, some case only on a retry.' });

export const SuiteRunSchema = Type.Object({
  id: Type.String(),
  createdAt: Type.String(),
  baseUrl: Type.String(),
  status: SuiteStatusSchema,
  trigger: Type.Object({
    type: Type.String({ description: 'manual, schedule, github, vercel, netlify or generic.' }),
    scheduledFor: Type.Optional(Type.String({ description: 'A scheduled run: the tick it was started for (ISO time).' })),
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
  schedule: Type.Optional(Type.Object({
    cron: Type.String(),
    timezone: Type.Optional(Type.String()),
    next: Type.Union([Type.String(), Type.Null()], { description: 'When the next scheduled run starts (ISO time; null: not scheduled in Redis any more).' }),
  })),
  retries: Type.Integer(),
  notify: Type.Array(Type.Object({
    type: Type.String(),
    on: Type.Array(Type.String()),
    url: Type.String({ description: 'As it may be shown: a webhook\'s origin and path, a Slack URL\'s origin only.' }),
  })),
  github: Type.Optional(GitHubSettings),
  notifySecret: Type.Optional(Type.String({ description: 'Only in the answer that generated it (create, or the update that first set notify): keep it to verify X-Ariadne-Signature. Never shown again.' })),
  latest: Type.Union([SuiteRunSchema, Type.Null()], { description: 'The most recent suite run and its status.' }),
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const RunSuiteBody = Type.Object({
  baseUrl: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'Run against this deployment instead of the suite\'s baseUrl.' })),
  sha: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  repo: Type.Optional(Type.String({ pattern: '^[\\w.-]+/[\\w.-]+$', maxLength: 200, description: 'owner/name: with sha (and the suite secret GITHUB_TOKEN), the run posts GitHub commit statuses like a GitHub-triggered one.' })),
  environment: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
}, { additionalProperties: false });

export const HookAnswer = Type.Object({
  status: Type.Union([Type.Literal('accepted'), Type.Literal('duplicate'), Type.Literal('ignored'), Type.Literal('pong')]),
  reason: Type.Optional(Type.String()),
  suiteRun: Type.Optional(Type.String({ description: 'The suite run this delivery started (or, for a duplicate, the one the first delivery started).' })),
  runs: Type.Optional(Type.Array(Type.String())),
});
