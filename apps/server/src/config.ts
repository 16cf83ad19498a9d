import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { parseRules, splitList } from '@ariadne/egress';

// Every setting comes from the environment, is listed in ENV_VARS (the table in docs/configuration.md
// is generated from the same list), and is validated at start: a bad value stops the
// service with a message that names the variable.

interface EnvVar {
  name: string;
  default: string;
  description: string;
}

export const ENV_VARS: EnvVar[] = [
  { name: 'PORT', default: '3000', description: 'HTTP port.' },
  { name: 'HOST', default: '127.0.0.1', description: 'Interface to listen on (0.0.0.0 to expose).' },
  { name: 'REDIS_URL', default: '(embedded)', description: 'Redis to use. Unset: start an embedded redis-server (AOF on) under STATE_DIR.' },
  { name: 'REDIS_PREFIX', default: 'ariadne:', description: 'Key prefix, so several deployments can share one Redis.' },
  { name: 'STATE_DIR', default: '.ariadne', description: 'Local state: embedded Redis data, run artifacts, and the server\'s temp dir (STATE_DIR/tmp/<pid>, its TMPDIR).' },
  { name: 'CHROMIUM_PATH', default: '/usr/bin/chromium', description: 'Chromium binary.' },
  { name: 'POOL_BROWSERS', default: '2', description: 'Chromium processes to run.' },
  { name: 'POOL_MAX_CONTEXTS_PER_BROWSER', default: '10', description: 'Cap on contexts (roles) per Chromium process.' },
  { name: 'POOL_MAX_CONTEXTS', default: '20', description: 'Cap on leased contexts on this node; beyond it, session creation answers 503 capacity_exhausted.' },
  { name: 'POOL_WARM_CONTEXTS', default: '2', description: 'Contexts kept ready (each with a page) so a lease skips newContext + newPage.' },
  { name: 'SESSION_IDLE_TIMEOUT_SECONDS', default: '300', description: 'Default idle timeout of a session.' },
  { name: 'SESSION_TTL_SECONDS', default: '3600', description: 'Default absolute lifetime of a session.' },
  { name: 'SESSION_MAX_TTL_SECONDS', default: '86400', description: 'Upper bound for a requested ttlSeconds.' },
  { name: 'ACTION_TIMEOUT_MS', default: '10000', description: 'Default timeout of one action (clicks, fills, waits).' },
  { name: 'NAVIGATION_TIMEOUT_MS', default: '30000', description: 'Default timeout of a navigation.' },
  { name: 'SNAPSHOT_TIMEOUT_MS', default: '15000', description: 'Timeout of one accessibility snapshot.' },
  { name: 'DESCRIBE_WAIT_MS', default: '1000', description: 'How long the description ladder retries while the page settles before a miss answers (an action\'s timeoutMs waits longer).' },
  { name: 'ALLOWED_SCHEMES', default: 'http,https', description: 'URL schemes navigation may use (about:blank is always allowed).' },
  { name: 'EGRESS_DENY', default: '(none)', description: 'Comma list of CIDRs and host patterns (10.0.0.0/8, *.internal, localhost) browsers, callbacks and model base URLs may never reach; always wins.' },
  { name: 'EGRESS_ALLOW', default: '(none)', description: 'Comma list of CIDRs and host patterns allowed even though the default denies them (e.g. a staging network 10.20.0.0/16). With API keys the default denies loopback, link-local, metadata and private ranges.' },
  { name: 'API_KEYS', default: '(none)', description: 'Comma list of key:tenant pairs, each optionally followed by per-tenant quotas: key:tenant:max_sessions=10:max_contexts=20 (names: max_sessions, max_contexts, max_queued, max_runs, sessions_per_minute; 0 = unlimited). No keys at all = local open mode (tenant "local").' },
  { name: 'API_KEYS_FILE', default: '(none)', description: 'JSON file: {"key": "tenant", ...}, {"key": {"tenant": "...", "max_sessions": 10}} or [{"key": "...", "tenant": "...", "max_contexts": 20, ...}].' },
  { name: 'TENANT_MAX_SESSIONS', default: '0', description: 'Default cap on live sessions per tenant, cluster-wide (0 = unlimited); beyond it: 429 quota_exceeded. Per key: max_sessions.' },
  { name: 'TENANT_MAX_CONTEXTS', default: '75%', description: 'Default cap on contexts (roles) a tenant holds cluster-wide: a number, or a percentage of POOL_MAX_CONTEXTS; 0 = unlimited. Applies when two or more tenants are configured, so no tenant can take all capacity. Per key: max_contexts.' },
  { name: 'TENANT_MAX_QUEUED', default: '50%', description: 'Default cap on session requests a tenant may have waiting in the admission queue: a number or a percentage of QUEUE_MAX; 0 = unlimited. Applies when two or more tenants are configured. Per key: max_queued.' },
  { name: 'TENANT_MAX_RUNS', default: '0', description: 'Default cap on flow runs a tenant may have queued or running at once (0 = unlimited). Per key: max_runs.' },
  { name: 'TENANT_SESSIONS_PER_MINUTE', default: '0', description: 'Default rate of session creation per tenant, cluster-wide, over a sliding minute (0 = unlimited); beyond it: 429 rate_limited with Retry-After. Per key: sessions_per_minute.' },
  { name: 'POOL_ISOLATION', default: 'tenant', description: 'tenant: every Chromium process serves one tenant only (browsers are launched per tenant on demand); none: tenants share browsers (contexts are still separate).' },
  { name: 'POOL_MAX_BROWSERS', default: '(max(POOL_BROWSERS, 8))', description: 'Upper bound on Chromium processes on this node (tenant isolation launches browsers per tenant); an idle tenant browser is closed to make room.' },
  { name: 'POOL_TENANT_BROWSER_IDLE_SECONDS', default: '60', description: 'A tenant\'s browser with no leased context for this long is closed (POOL_BROWSERS spare browsers stay ready for new tenants).' },
  { name: 'CHROMIUM_SANDBOX', default: 'auto', description: 'Chromium\'s own sandbox. auto: on where the host allows it (not as root, user namespaces available), else off with one warning; on: required (start fails without it); off: --no-sandbox.' },
  { name: 'BODY_LIMIT_BYTES', default: '10485760', description: 'Largest request body accepted (uploads travel in the body).' },
  { name: 'SHUTDOWN_TIMEOUT_MS', default: '15000', description: 'Grace period for a graceful shutdown before browsers are killed.' },
  { name: 'STREAM_PING_INTERVAL_MS', default: '20000', description: 'WebSocket keep-alive ping interval; a client missing two pings is closed (4000).' },
  { name: 'STREAM_MESSAGES_PER_SECOND', default: '100', description: 'Messages a WebSocket client may send per second (bursts of 2x); beyond it: rate_limited replies.' },
  { name: 'STREAM_MAX_PER_SESSION', default: '8', description: 'WebSockets (stream and live view) open at once on one session; one more is refused before the upgrade with 429 too_many_streams.' },
  { name: 'REQUEST_TIMEOUT_MS', default: '30000', description: 'Time a client has to send a whole request (headers and body); a stalled upload is cut off with 408.' },
  { name: 'HEADERS_TIMEOUT_MS', default: '10000', description: 'Time a client has to send the request headers (at most REQUEST_TIMEOUT_MS).' },
  { name: 'METRICS_PUBLIC', default: '0', description: '1: GET /metrics and GET /v1/pressure answer without a key (for scrapers and load-balancer checks; tenant-labelled series are left out). 0: they need a key.' },
  { name: 'STREAM_MAX_BUFFERED_BYTES', default: '1048576', description: 'Send queue of one WebSocket client: over it, events are left out and counted (a `dropped` message follows).' },
  { name: 'STREAM_SLOW_CONSUMER_MS', default: '10000', description: 'A WebSocket client whose send queue stays over STREAM_MAX_BUFFERED_BYTES this long (or reaches 4x it) is closed 4008 slow_consumer.' },
  { name: 'STREAM_EVENTS_PER_SECOND', default: '1000', description: 'Console, pageerror and request_failed events per session per second sent to streams; the rest are counted in a `dropped` event.' },
  { name: 'OPERATION_TIMEOUT_MS', default: '20000', description: 'Deadline of any page operation (longer for navigations: NAVIGATION_TIMEOUT_MS + 5 s); past it: 504 operation_timeout.' },
  { name: 'CONTEXT_CLOSE_TIMEOUT_MS', default: '5000', description: 'How long closing a browser context may take (a stuck page can hang it) before its tabs are crashed and it is dropped.' },
  { name: 'DOWNLOADS', default: 'on', description: 'on: pages may download files (within DOWNLOAD_MAX_BYTES); off: every download is refused (acceptDownloads: false).' },
  { name: 'DOWNLOAD_MAX_BYTES', default: '104857600', description: 'Bytes of downloads one session may write; a download going over is cancelled and deleted (limit_reached event).' },
  { name: 'MAX_TABS_PER_ROLE', default: '20', description: 'Open tabs per role; a popup over the cap is closed (limit_reached event), opening one answers 409 tab_limit.' },
  { name: 'NODE_URL', default: 'http://HOST:PORT', description: 'How other nodes reach this one (forwarded requests). Set it when HOST is 0.0.0.0 or behind NAT.' },
  { name: 'LEASE_TTL_MS', default: '10000', description: 'A context lease (and a node) without a heartbeat for this long is dead; its sessions become lost.' },
  { name: 'HEARTBEAT_MS', default: '2000', description: 'How often a node renews its leases and its node record (at most LEASE_TTL_MS / 2).' },
  { name: 'JOB_LOCK_MS', default: '30000', description: 'How long a worker holds a run or schedule job without renewing its lock; the job of a node that died is taken over elsewhere within about 1.5× this.' },
  { name: 'REAP_INTERVAL_MS', default: '2000', description: 'How often the maintenance job reaps expired leases and dead nodes.' },
  { name: 'QUEUE_MAX', default: '100', description: 'Session requests that may wait for capacity cluster-wide; beyond it: 429 queue_full.' },
  { name: 'QUEUE_TIMEOUT_SECONDS', default: '30', description: 'Default time a session request waits for capacity before 503 queue_timeout.' },
  { name: 'WORKER_MODE', default: 'inline', description: 'inline: run the BullMQ workers (maintenance, runs) in the server process; off: run `node apps/worker/dist/main.js` separately.' },
  { name: 'RUNS_DIR', default: '(STATE_DIR/runs)', description: 'Where flow runs keep their artifacts (screenshots, traces), one folder per run.' },
  { name: 'RUN_CONCURRENCY', default: '2', description: 'Flow runs one node executes at once (each leases one context per role from the pool).' },
  { name: 'RUN_RETENTION_SECONDS', default: '604800', description: 'How long run records, reports and events are kept in Redis.' },
  { name: 'RUN_MAX_STEPS_PER_CASE', default: '60', description: 'Upper bound on recorded steps (actions, waits, assertions) in one case.' },
  { name: 'RUN_MAX_TURNS_PER_CASE', default: '40', description: 'Upper bound on model turns in one case (model planners).' },
  { name: 'RUN_MAX_TOKENS_PER_CASE', default: '400000', description: 'Upper bound on model tokens (input + output) in one case.' },
  { name: 'RUN_MAX_TOKENS', default: '2000000', description: 'Upper bound on model tokens in one run.' },
  { name: 'RUN_CASE_TIMEOUT_MS', default: '180000', description: 'Wall time of one case.' },
  { name: 'RUN_TIMEOUT_MS', default: '900000', description: 'Wall time of one run.' },
  { name: 'RUN_ASSERT_TIMEOUT_MS', default: '5000', description: 'How long an assertion keeps checking before it fails.' },
  { name: 'FLOW_PLANNER', default: 'rules', description: 'Default planner of a run: rules (offline), anthropic or openai.' },
  { name: 'ANTHROPIC_API_KEY', default: '(none)', description: 'Key for the anthropic planner (a run may pass its own apiKey).' },
  { name: 'ANTHROPIC_BASE_URL', default: '(SDK default)', description: 'Base URL of the Anthropic Messages API.' },
  { name: 'ANTHROPIC_MODEL', default: 'claude-haiku-4-5', description: 'Default model of the anthropic planner.' },
  { name: 'OPENAI_API_KEY', default: '(none)', description: 'Key for the openai planner; any string for servers that need none (Ollama, vLLM, LM Studio).' },
  { name: 'OPENAI_BASE_URL', default: '(SDK default)', description: 'Base URL of an OpenAI-compatible chat completions API, e.g. http://localhost:11434/v1 for Ollama.' },
  { name: 'OPENAI_MODEL', default: 'gpt-4o-mini', description: 'Default model of the openai planner.' },
  { name: 'SMTP_PORT', default: '(off)', description: 'Port of the built-in SMTP listener for disposable inboxes (POST /v1/inboxes); unset: inboxes are off.' },
  { name: 'SMTP_HOST', default: '(HOST)', description: 'Interface the SMTP listener binds to.' },
  { name: 'INBOX_DOMAIN', default: 'inbox.localhost', description: 'Domain of inbox addresses; point its MX at this service. Mail for any other domain or unknown address is refused at RCPT.' },
  { name: 'INBOX_TTL_SECONDS', default: '3600', description: 'Default lifetime of an inbox and its messages (a request may ask for less or more, up to 7 days).' },
  { name: 'INBOX_MAX_MESSAGES', default: '50', description: 'Messages one inbox accepts; beyond it, mail is refused (552).' },
  { name: 'INBOX_MAX_MESSAGE_BYTES', default: '1048576', description: 'Largest message the SMTP listener accepts (552 beyond it).' },
  { name: 'MCP_ALLOWED_HOSTS', default: '(loopback, HOST, NODE_URL host)', description: 'Comma list of host names the /mcp endpoint accepts in Host and Origin (DNS-rebinding defence); * accepts any.' },
  { name: 'ALLOW_EVALUATE', default: '1', description: '1: the evaluate action (POST …/actions, MCP browser_evaluate) runs a caller\'s JavaScript function in the page; 0: it is refused (403 evaluate_disabled).' },
  { name: 'MCP_IDLE_TIMEOUT_SECONDS', default: '600', description: 'An MCP session on /mcp idle this long is closed, and its browser session deleted.' },
  { name: 'SECRETS_KEY', default: '(none)', description: 'Key that encrypts suite secrets and webhook secrets at rest (AES-256-GCM): 32 bytes as 64 hex characters or base64. Unset: suites cannot store secrets or triggers.' },
  { name: 'HOOK_REPLAY_WINDOW_SECONDS', default: '259200', description: 'A GitHub deployment_status delivery whose signed updated_at (else created_at) is older than this is refused (401 signature_expired): a seen delivery cannot be replayed once its dedupe record is gone. Default 3 days, GitHub\'s redelivery horizon; at most 6 days (deliveries are remembered 7).' },
  { name: 'SUITE_SCHEDULE_MIN_SECONDS', default: '60', description: 'Shortest interval a suite schedule may fire at (its cron is refused otherwise, 400 invalid_schedule). Lower it for tests only.' },
  { name: 'PUBLIC_URL', default: '(NODE_URL)', description: 'Where users reach this service (https://ariadne.example.com): the base of every link sent out (commit statuses, Slack and webhook messages, signed report links). Never taken from a request\'s Host header; unset, links use NODE_URL (else http://HOST:PORT) and /healthz warns when that is loopback.' },
  { name: 'NOTIFY_ATTEMPTS', default: '4', description: 'Tries of one outbound delivery (run callbacks, suite notify targets, GitHub commit statuses) before it is recorded as undelivered.' },
  { name: 'NOTIFY_BACKOFF_MS', default: '1000', description: 'Wait before the second try of a delivery; doubled before each next one.' },
  { name: 'NODE_ID', default: '(host-pid-random)', description: 'This node\'s id in the cluster.' },
  { name: 'LOG_LEVEL', default: 'info', description: 'pino level: fatal, error, warn, info, debug, trace, silent.' },
  { name: 'LOG_BUFFER_BYTES', default: '4096', description: 'Info and debug lines are written to stdout in batches of this many bytes, or every 200 ms, whichever comes first; warnings and errors at once, everything on exit. 0: every line at once (each is then a write that wakes the log reader).' },
];

export interface Config {
  port: number;
  host: string;
  redisUrl: string | null;
  redisPrefix: string;
  stateDir: string;
  chromiumPath: string;
  pool: { browsers: number; maxContextsPerBrowser: number; maxContexts: number; warmContexts: number };
  session: { idleTimeoutSeconds: number; ttlSeconds: number; maxTtlSeconds: number };
  timeouts: { actionMs: number; navigationMs: number; snapshotMs: number; describeWaitMs: number; shutdownMs: number };
  allowedSchemes: string[];
  apiKeys: Map<string, string>;
  /** Egress policy lists (packages/egress); the mode follows apiKeys (keys set: strict). */
  egress: { deny: string[]; allow: string[] };
  /** Per-tenant limits: defaults for every tenant, and overrides given with a tenant's API key. */
  quotas: QuotaConfig;
  /** How tenants' contexts are placed on Chromium processes, and Chromium's sandbox. */
  isolation: IsolationConfig;
  bodyLimit: number;
  stream: { pingIntervalMs: number; messagesPerSecond: number; maxPerSession: number; maxBufferedBytes: number; slowConsumerMs: number; eventsPerSecond: number };
  /** Request timeouts and public endpoints (see docs/security.md). */
  security: { requestTimeoutMs: number; headersTimeoutMs: number; metricsPublic: boolean; allowEvaluate: boolean };
  mcp: { allowedHosts: string[]; idleTimeoutSeconds: number };
  limits: { operationTimeoutMs: number; contextCloseTimeoutMs: number; downloads: boolean; downloadMaxBytes: number; maxTabsPerRole: number };
  cluster: { nodeUrl: string; leaseTtlMs: number; heartbeatMs: number; reapIntervalMs: number; jobLockMs: number; queueMax: number; queueTimeoutSeconds: number; workerMode: 'inline' | 'off' };
  runs: {
    dir: string;
    concurrency: number;
    retentionSeconds: number;
    maxStepsPerCase: number;
    maxTurnsPerCase: number;
    maxTokensPerCase: number;
    maxTokensPerRun: number;
    caseTimeoutMs: number;
    runTimeoutMs: number;
    assertTimeoutMs: number;
    planner: 'rules' | 'anthropic' | 'openai';
    anthropic: { apiKey: string; baseUrl: string; model: string };
    openai: { apiKey: string; baseUrl: string; model: string };
  };
  inbox: { smtpPort: number | null; smtpHost: string; domain: string; ttlSeconds: number; maxMessages: number; maxMessageBytes: number };
  /** Saved suites (issue 13): the key their secrets are encrypted with, null when unset. */
  suites: { secretsKey: Buffer | null; scheduleMinSeconds: number; hookReplayWindowSeconds: number };
  /** Outbound deliveries about runs (issue 13): tries, backoff, the public base of report links. */
  notify: { attempts: number; backoffMs: number; publicUrl: string };
  nodeId: string;
  logLevel: string;
  /** Batch size of the stdout log stream (0: a write per line): runtime.ts logDestination. */
  logBufferBytes: number;
}

/** 0 = unlimited. */
export interface TenantLimits {
  maxSessions: number;
  maxContexts: number;
  maxQueued: number;
  maxRuns: number;
  sessionsPerMinute: number;
}

export interface QuotaConfig {
  defaults: TenantLimits;
  perTenant: Map<string, Partial<TenantLimits>>;
}

export interface IsolationConfig {
  mode: 'tenant' | 'none';
  maxBrowsers: number;
  tenantBrowserIdleSeconds: number;
  sandbox: 'auto' | 'on' | 'off';
}

/** Option names accepted after key:tenant in API_KEYS and in API_KEYS_FILE entries. */
export const QUOTA_OPTIONS: Record<string, keyof TenantLimits> = {
  max_sessions: 'maxSessions',
  max_contexts: 'maxContexts',
  max_queued: 'maxQueued',
  max_runs: 'maxRuns',
  sessions_per_minute: 'sessionsPerMinute',
};

/** The limits that apply to one tenant: its key's overrides over the defaults. */
export function limitsFor(quotas: QuotaConfig, tenant: string): TenantLimits {
  return { ...quotas.defaults, ...quotas.perTenant.get(tenant) };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}\nSee the configuration table in docs/configuration.md.`);
  }
}

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const str = (name: string, def: string) => (env[name] ?? '').trim() || def;
  const int = (name: string, def: number, min: number, max: number) => {
    const raw = (env[name] ?? '').trim();
    if (!raw) return def;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) {
      problems.push(`${name}=${raw} must be an integer between ${min} and ${max}`);
      return def;
    }
    return n;
  };

  const pool = {
    browsers: int('POOL_BROWSERS', 2, 1, 64),
    maxContextsPerBrowser: int('POOL_MAX_CONTEXTS_PER_BROWSER', 10, 1, 500),
    maxContexts: int('POOL_MAX_CONTEXTS', 20, 1, 10_000),
    warmContexts: int('POOL_WARM_CONTEXTS', 2, 0, 1000),
  };
  if (pool.warmContexts > pool.maxContexts) problems.push(`POOL_WARM_CONTEXTS (${pool.warmContexts}) cannot exceed POOL_MAX_CONTEXTS (${pool.maxContexts})`);
  if (pool.maxContexts > pool.browsers * pool.maxContextsPerBrowser) {
    problems.push(`POOL_MAX_CONTEXTS (${pool.maxContexts}) exceeds POOL_BROWSERS x POOL_MAX_CONTEXTS_PER_BROWSER (${pool.browsers * pool.maxContextsPerBrowser})`);
  }

  const redisUrl = (env.REDIS_URL ?? '').trim() || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) problems.push(`REDIS_URL must start with redis:// or rediss:// (got ${redisUrl})`);

  const logLevel = str('LOG_LEVEL', 'info');
  if (!LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL=${logLevel} must be one of ${LEVELS.join(', ')}`);

  const allowedSchemes = str('ALLOWED_SCHEMES', 'http,https')
    .split(',')
    .map((s) => s.trim().toLowerCase().replace(/:$/, ''))
    .filter(Boolean)
    .map((s) => `${s}:`);
  for (const s of allowedSchemes) {
    if (['javascript:', 'chrome:', 'chrome-extension:', 'devtools:'].includes(s)) problems.push(`ALLOWED_SCHEMES cannot include ${s}`);
  }

  const apiKeys = new Map<string, string>();
  const perTenant = new Map<string, Partial<TenantLimits>>();
  const addKey = (key: string, tenant: string, where: string, limits: Partial<TenantLimits> = {}) => {
    if (key.length < 16) problems.push(`${where}: API keys must be at least 16 characters`);
    else if (!/^[A-Za-z0-9_.-]{1,64}$/.test(tenant)) problems.push(`${where}: tenant "${tenant}" must be 1-64 letters, digits, _ . -`);
    else {
      apiKeys.set(key, tenant);
      // Quotas belong to the tenant: two keys of one tenant must not disagree.
      const before = perTenant.get(tenant) ?? {};
      for (const [name, value] of Object.entries(limits) as [keyof TenantLimits, number][]) {
        if (before[name] !== undefined && before[name] !== value) problems.push(`${where}: tenant "${tenant}" is given two different ${name} quotas`);
      }
      if (Object.keys(limits).length) perTenant.set(tenant, { ...before, ...limits });
    }
  };
  const quotaOption = (name: string, raw: unknown, where: string, limits: Partial<TenantLimits>) => {
    const field = QUOTA_OPTIONS[name];
    const n = Number(raw);
    if (!field) problems.push(`${where}: unknown quota option "${name}" (known: ${Object.keys(QUOTA_OPTIONS).join(', ')})`);
    else if (!Number.isInteger(n) || n < 0 || n > 1_000_000) problems.push(`${where}: ${name}=${String(raw)} must be an integer between 0 and 1000000`);
    else limits[field] = n;
  };
  for (const entry of str('API_KEYS', '').split(',').map((s) => s.trim()).filter(Boolean)) {
    // key:tenant[:name=value...]; keys may contain colons, so options are taken from the end.
    const parts = entry.split(':');
    const limits: Partial<TenantLimits> = {};
    while (parts.length > 2 && /^[a-z_]+=[^:=]*$/.test(parts[parts.length - 1])) {
      const [name, value] = parts.pop()!.split('=');
      quotaOption(name, value, 'API_KEYS', limits);
    }
    const pair = parts.join(':');
    const i = pair.lastIndexOf(':');
    if (i <= 0) problems.push('API_KEYS entries must look like key:tenant');
    else addKey(pair.slice(0, i), pair.slice(i + 1), 'API_KEYS', limits);
  }
  const keysFile = str('API_KEYS_FILE', '');
  if (keysFile) {
    try {
      const parsed = JSON.parse(readFileSync(keysFile, 'utf8')) as unknown;
      type Entry = { key?: unknown; tenant?: unknown; quotas?: Record<string, unknown> } & Record<string, unknown>;
      const entries: [unknown, Entry][] = Array.isArray(parsed)
        ? (parsed as Entry[]).map((e) => [e?.key, e ?? {}])
        : Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, typeof v === 'object' && v ? (v as Entry) : { tenant: v }]);
      for (const [k, e] of entries) {
        const limits: Partial<TenantLimits> = {};
        const options = { ...e, ...(typeof e.quotas === 'object' && e.quotas ? e.quotas : {}) };
        for (const [name, value] of Object.entries(options)) {
          if (!['key', 'tenant', 'quotas'].includes(name)) quotaOption(name, value, 'API_KEYS_FILE', limits);
        }
        addKey(String(k), String(e.tenant), 'API_KEYS_FILE', limits);
      }
    } catch (err) {
      problems.push(`API_KEYS_FILE=${keysFile} could not be read as JSON: ${(err as Error).message}`);
    }
  }
  // Defaults for every tenant. The two that protect tenants from each other (contexts,
  // queued requests) are shares of this node's capacity and only apply when there is
  // more than one tenant to protect.
  const tenantCount = new Set(apiKeys.values()).size;
  const share = (name: string, def: string, of: number) => {
    const raw = str(name, def);
    const pct = /^(\d{1,3})%$/.exec(raw);
    if (pct) {
      if (Number(pct[1]) > 100) problems.push(`${name}=${raw} must be a percentage up to 100%`);
      return tenantCount >= 2 && Number(pct[1]) > 0 ? Math.max(1, Math.floor((of * Number(pct[1])) / 100)) : 0;
    }
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0 || n > 1_000_000) problems.push(`${name}=${raw} must be an integer between 0 and 1000000, or a percentage`);
    return Number.isInteger(n) && n >= 0 ? n : 0;
  };
  const queueMax = int('QUEUE_MAX', 100, 0, 1_000_000);
  const quotas: QuotaConfig = {
    defaults: {
      maxSessions: int('TENANT_MAX_SESSIONS', 0, 0, 1_000_000),
      maxContexts: share('TENANT_MAX_CONTEXTS', '75%', pool.maxContexts),
      maxQueued: share('TENANT_MAX_QUEUED', '50%', queueMax),
      maxRuns: int('TENANT_MAX_RUNS', 0, 0, 1_000_000),
      sessionsPerMinute: int('TENANT_SESSIONS_PER_MINUTE', 0, 0, 1_000_000),
    },
    perTenant,
  };
  const isolationMode = str('POOL_ISOLATION', 'tenant');
  if (isolationMode !== 'tenant' && isolationMode !== 'none') problems.push(`POOL_ISOLATION=${isolationMode} must be tenant or none`);
  const sandbox = str('CHROMIUM_SANDBOX', 'auto');
  if (!['auto', 'on', 'off'].includes(sandbox)) problems.push(`CHROMIUM_SANDBOX=${sandbox} must be auto, on or off`);
  const isolation: IsolationConfig = {
    mode: isolationMode as 'tenant' | 'none',
    maxBrowsers: int('POOL_MAX_BROWSERS', Math.max(pool.browsers, 8), 1, 256),
    tenantBrowserIdleSeconds: int('POOL_TENANT_BROWSER_IDLE_SECONDS', 60, 1, 86_400),
    sandbox: sandbox as 'auto' | 'on' | 'off',
  };
  if (isolation.maxBrowsers < pool.browsers) problems.push(`POOL_MAX_BROWSERS (${isolation.maxBrowsers}) cannot be below POOL_BROWSERS (${pool.browsers})`);

  const egress = { deny: splitList(env.EGRESS_DENY), allow: splitList(env.EGRESS_ALLOW) };
  for (const [name, list] of [['EGRESS_DENY', egress.deny], ['EGRESS_ALLOW', egress.allow]] as const) {
    for (const p of parseRules(list).problems) problems.push(`${name}: ${p}`);
  }

  const workerMode = str('WORKER_MODE', 'inline');
  if (workerMode !== 'inline' && workerMode !== 'off') problems.push(`WORKER_MODE=${workerMode} must be inline or off`);
  const leaseTtlMs = int('LEASE_TTL_MS', 10_000, 500, 600_000);
  const heartbeatMs = int('HEARTBEAT_MS', 2000, 100, 300_000);
  if (heartbeatMs * 2 > leaseTtlMs) problems.push(`HEARTBEAT_MS (${heartbeatMs}) must be at most half of LEASE_TTL_MS (${leaseTtlMs})`);
  const nodeUrl = str('NODE_URL', '');
  const publicUrl = str('PUBLIC_URL', '');
  if (publicUrl && !/^https?:\/\/[^/]+/.test(publicUrl)) problems.push(`PUBLIC_URL=${publicUrl} must be an http(s) URL`);
  if (nodeUrl && !/^https?:\/\/[^/]+/.test(nodeUrl)) problems.push(`NODE_URL=${nodeUrl} must be an http(s) URL`);

  const planner = str('FLOW_PLANNER', 'rules');
  if (!['rules', 'anthropic', 'openai'].includes(planner)) problems.push(`FLOW_PLANNER=${planner} must be rules, anthropic or openai`);
  const baseUrl = (name: string) => {
    const v = str(name, '');
    if (v && !/^https?:\/\/[^/]+/.test(v)) problems.push(`${name}=${v} must be an http(s) URL`);
    return v.replace(/\/$/, '');
  };
  const stateDir = str('STATE_DIR', '.ariadne');
  const inboxDomain = str('INBOX_DOMAIN', 'inbox.localhost').toLowerCase();
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/.test(inboxDomain)) problems.push(`INBOX_DOMAIN=${inboxDomain} must be a domain name such as inbox.example.test`);
  const securityConfig = () => {
    const requestTimeoutMs = int('REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000);
    const headersTimeoutMs = int('HEADERS_TIMEOUT_MS', 10_000, 500, 3_600_000);
    if (headersTimeoutMs > requestTimeoutMs) problems.push(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) cannot exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
    return { requestTimeoutMs, headersTimeoutMs, metricsPublic: int('METRICS_PUBLIC', 0, 0, 1) === 1, allowEvaluate: int('ALLOW_EVALUATE', 1, 0, 1) === 1 };
  };
  const downloads = str('DOWNLOADS', 'on').toLowerCase();
  if (downloads !== 'on' && downloads !== 'off') problems.push(`DOWNLOADS=${downloads} must be on or off`);

  const config: Config = {
    port: int('PORT', 3000, 0, 65535),
    host: str('HOST', '127.0.0.1'),
    redisUrl,
    redisPrefix: str('REDIS_PREFIX', 'ariadne:'),
    stateDir,
    chromiumPath: str('CHROMIUM_PATH', '/usr/bin/chromium'),
    pool,
    session: {
      idleTimeoutSeconds: int('SESSION_IDLE_TIMEOUT_SECONDS', 300, 1, 86400),
      ttlSeconds: int('SESSION_TTL_SECONDS', 3600, 1, 7 * 86400),
      maxTtlSeconds: int('SESSION_MAX_TTL_SECONDS', 86400, 1, 7 * 86400),
    },
    timeouts: {
      actionMs: int('ACTION_TIMEOUT_MS', 10_000, 100, 120_000),
      navigationMs: int('NAVIGATION_TIMEOUT_MS', 30_000, 100, 300_000),
      snapshotMs: int('SNAPSHOT_TIMEOUT_MS', 15_000, 100, 120_000),
      describeWaitMs: int('DESCRIBE_WAIT_MS', 1000, 0, 30_000),
      shutdownMs: int('SHUTDOWN_TIMEOUT_MS', 15_000, 100, 300_000),
    },
    allowedSchemes,
    apiKeys,
    egress,
    quotas,
    isolation,
    bodyLimit: int('BODY_LIMIT_BYTES', 10 * 1024 * 1024, 1024, 512 * 1024 * 1024),
    stream: {
      pingIntervalMs: int('STREAM_PING_INTERVAL_MS', 20_000, 100, 600_000),
      messagesPerSecond: int('STREAM_MESSAGES_PER_SECOND', 100, 1, 100_000),
      maxPerSession: int('STREAM_MAX_PER_SESSION', 8, 1, 1000),
      maxBufferedBytes: int('STREAM_MAX_BUFFERED_BYTES', 1024 * 1024, 16 * 1024, 1024 * 1024 * 1024),
      slowConsumerMs: int('STREAM_SLOW_CONSUMER_MS', 10_000, 100, 600_000),
      eventsPerSecond: int('STREAM_EVENTS_PER_SECOND', 1000, 1, 1_000_000),
    },
    security: securityConfig(),
    mcp: {
      allowedHosts: mcpAllowedHosts(str('MCP_ALLOWED_HOSTS', ''), str('HOST', '127.0.0.1'), nodeUrl),
      idleTimeoutSeconds: int('MCP_IDLE_TIMEOUT_SECONDS', 600, 1, 86_400),
    },
    limits: {
      operationTimeoutMs: int('OPERATION_TIMEOUT_MS', 20_000, 100, 600_000),
      contextCloseTimeoutMs: int('CONTEXT_CLOSE_TIMEOUT_MS', 5000, 100, 120_000),
      downloads: downloads === 'on',
      downloadMaxBytes: int('DOWNLOAD_MAX_BYTES', 100 * 1024 * 1024, 0, Number.MAX_SAFE_INTEGER),
      maxTabsPerRole: int('MAX_TABS_PER_ROLE', 20, 1, 1000),
    },
    cluster: {
      nodeUrl: nodeUrl.replace(/\/$/, ''),
      leaseTtlMs,
      heartbeatMs,
      reapIntervalMs: int('REAP_INTERVAL_MS', 2000, 100, 600_000),
      jobLockMs: int('JOB_LOCK_MS', 30_000, 2_000, 600_000),
      queueMax,
      queueTimeoutSeconds: int('QUEUE_TIMEOUT_SECONDS', 30, 0, 3600),
      workerMode: workerMode as 'inline' | 'off',
    },
    runs: {
      dir: str('RUNS_DIR', `${stateDir.replace(/\/$/, '')}/runs`),
      concurrency: int('RUN_CONCURRENCY', 2, 1, 256),
      retentionSeconds: int('RUN_RETENTION_SECONDS', 604_800, 60, 31_536_000),
      maxStepsPerCase: int('RUN_MAX_STEPS_PER_CASE', 60, 1, 10_000),
      maxTurnsPerCase: int('RUN_MAX_TURNS_PER_CASE', 40, 1, 10_000),
      maxTokensPerCase: int('RUN_MAX_TOKENS_PER_CASE', 400_000, 1000, 100_000_000),
      maxTokensPerRun: int('RUN_MAX_TOKENS', 2_000_000, 1000, 1_000_000_000),
      caseTimeoutMs: int('RUN_CASE_TIMEOUT_MS', 180_000, 1000, 86_400_000),
      runTimeoutMs: int('RUN_TIMEOUT_MS', 900_000, 1000, 86_400_000),
      assertTimeoutMs: int('RUN_ASSERT_TIMEOUT_MS', 5000, 0, 120_000),
      planner: planner as 'rules' | 'anthropic' | 'openai',
      anthropic: { apiKey: str('ANTHROPIC_API_KEY', ''), baseUrl: baseUrl('ANTHROPIC_BASE_URL'), model: str('ANTHROPIC_MODEL', 'claude-haiku-4-5') },
      openai: { apiKey: str('OPENAI_API_KEY', ''), baseUrl: baseUrl('OPENAI_BASE_URL'), model: str('OPENAI_MODEL', 'gpt-4o-mini') },
    },
    inbox: {
      smtpPort: (env.SMTP_PORT ?? '').trim() ? int('SMTP_PORT', 0, 0, 65535) : null,
      smtpHost: str('SMTP_HOST', str('HOST', '127.0.0.1')),
      domain: inboxDomain,
      ttlSeconds: int('INBOX_TTL_SECONDS', 3600, 10, 7 * 86400),
      maxMessages: int('INBOX_MAX_MESSAGES', 50, 1, 10_000),
      maxMessageBytes: int('INBOX_MAX_MESSAGE_BYTES', 1024 * 1024, 1024, 50 * 1024 * 1024),
    },
    suites: { secretsKey: secretsKey(env.SECRETS_KEY, problems), scheduleMinSeconds: int('SUITE_SCHEDULE_MIN_SECONDS', 60, 1, 31_536_000), hookReplayWindowSeconds: int('HOOK_REPLAY_WINDOW_SECONDS', 3 * 86_400, 60, 6 * 86_400) },
    notify: { attempts: int('NOTIFY_ATTEMPTS', 4, 1, 10), backoffMs: int('NOTIFY_BACKOFF_MS', 1000, 0, 600_000), publicUrl: publicUrl.replace(/\/+$/, '') },
    nodeId: str('NODE_ID', `${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`),
    logLevel,
    logBufferBytes: int('LOG_BUFFER_BYTES', 4096, 0, 15_000),
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}

/** Host names /mcp accepts: loopback, the listening HOST and NODE_URL's host, plus MCP_ALLOWED_HOSTS. */
function mcpAllowedHosts(list: string, host: string, nodeUrl: string): string[] {
  const out = new Set(['localhost', '127.0.0.1', '[::1]']);
  if (host && !['0.0.0.0', '::'].includes(host)) out.add(host.includes(':') && !host.startsWith('[') ? `[${host}]` : host.toLowerCase());
  if (nodeUrl) {
    try {
      out.add(new URL(nodeUrl).hostname.toLowerCase());
    } catch {
      /* reported by the NODE_URL check */
    }
  }
  for (const h of list.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean)) out.add(h);
  return [...out];
}

/** SECRETS_KEY: exactly 32 bytes, as 64 hex characters or base64 (never echoed in the problem). */
function secretsKey(raw: string | undefined, problems: string[]): Buffer | null {
  const v = (raw ?? '').trim();
  if (!v) return null;
  const key = /^[0-9a-fA-F]{64}$/.test(v) ? Buffer.from(v, 'hex') : /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) ? Buffer.from(v, 'base64') : null;
  if (!key || key.length !== 32) {
    problems.push('SECRETS_KEY must be 32 bytes: 64 hex characters or base64 (e.g. openssl rand -hex 32)');
    return null;
  }
  return key;
}
