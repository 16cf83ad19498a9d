import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, ENV_VARS, loadConfig } from '../apps/server/src/config.js';

// loadConfig is pure (env in, Config or ConfigError out; API_KEYS_FILE is the only
// read), so these are unit tests without a browser or Redis.

const tmp = mkdtempSync(path.join(tmpdir(), 'ariadne-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const KEY_A = 'a'.repeat(16);
const KEY_B = 'key-for-tenant-b-0123456789';

/** The problems loadConfig reports for env (fails if it does not throw a ConfigError). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

function writeTmp(name: string, content: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, content);
  return file;
}

describe('loadConfig defaults', () => {
  it('runs with no environment at all: local, embedded Redis, open mode', () => {
    const c = loadConfig({});
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.redisUrl).toBeNull();
    expect(c.redisPrefix).toBe('ariadne:');
    expect(c.stateDir).toBe('.ariadne');
    expect(c.chromiumPath).toBe('/usr/bin/chromium');
    expect(c.pool).toEqual({ browsers: 2, maxContextsPerBrowser: 10, maxContexts: 20, warmContexts: 2 });
    expect(c.session).toEqual({ idleTimeoutSeconds: 300, ttlSeconds: 3600, maxTtlSeconds: 86400 });
    expect(c.timeouts).toEqual({ actionMs: 10_000, navigationMs: 30_000, snapshotMs: 15_000, describeWaitMs: 1000, shutdownMs: 15_000 });
    expect(c.allowedSchemes).toEqual(['http:', 'https:']);
    expect(c.apiKeys.size).toBe(0);
    expect(c.bodyLimit).toBe(10 * 1024 * 1024);
    expect(c.logLevel).toBe('info');
    expect(c.nodeId).toMatch(new RegExp(`-${process.pid}-[0-9a-f]{6}$`));
  });

  it('agrees with the defaults ENV_VARS documents', () => {
    const c = loadConfig({});
    const actual: Record<string, unknown> = {
      PORT: c.port, HOST: c.host, REDIS_PREFIX: c.redisPrefix, STATE_DIR: c.stateDir, CHROMIUM_PATH: c.chromiumPath,
      POOL_BROWSERS: c.pool.browsers, POOL_MAX_CONTEXTS_PER_BROWSER: c.pool.maxContextsPerBrowser,
      POOL_MAX_CONTEXTS: c.pool.maxContexts, POOL_WARM_CONTEXTS: c.pool.warmContexts,
      SESSION_IDLE_TIMEOUT_SECONDS: c.session.idleTimeoutSeconds, SESSION_TTL_SECONDS: c.session.ttlSeconds,
      SESSION_MAX_TTL_SECONDS: c.session.maxTtlSeconds, ACTION_TIMEOUT_MS: c.timeouts.actionMs,
      NAVIGATION_TIMEOUT_MS: c.timeouts.navigationMs, SNAPSHOT_TIMEOUT_MS: c.timeouts.snapshotMs,
      DESCRIBE_WAIT_MS: c.timeouts.describeWaitMs, ALLOWED_SCHEMES: c.allowedSchemes.map((s) => s.slice(0, -1)).join(','),
      BODY_LIMIT_BYTES: c.bodyLimit, SHUTDOWN_TIMEOUT_MS: c.timeouts.shutdownMs, LOG_LEVEL: c.logLevel, LOG_BUFFER_BYTES: c.logBufferBytes,
      STREAM_PING_INTERVAL_MS: c.stream.pingIntervalMs, STREAM_MESSAGES_PER_SECOND: c.stream.messagesPerSecond,
      STREAM_MAX_PER_SESSION: c.stream.maxPerSession, REQUEST_TIMEOUT_MS: c.security.requestTimeoutMs,
      HEADERS_TIMEOUT_MS: c.security.headersTimeoutMs, METRICS_PUBLIC: Number(c.security.metricsPublic), ALLOW_EVALUATE: Number(c.security.allowEvaluate),
      STREAM_MAX_BUFFERED_BYTES: c.stream.maxBufferedBytes, STREAM_SLOW_CONSUMER_MS: c.stream.slowConsumerMs,
      STREAM_EVENTS_PER_SECOND: c.stream.eventsPerSecond, OPERATION_TIMEOUT_MS: c.limits.operationTimeoutMs,
      CONTEXT_CLOSE_TIMEOUT_MS: c.limits.contextCloseTimeoutMs, DOWNLOADS: c.limits.downloads ? 'on' : 'off',
      DOWNLOAD_MAX_BYTES: c.limits.downloadMaxBytes, MAX_TABS_PER_ROLE: c.limits.maxTabsPerRole,
      LEASE_TTL_MS: c.cluster.leaseTtlMs, HEARTBEAT_MS: c.cluster.heartbeatMs, REAP_INTERVAL_MS: c.cluster.reapIntervalMs, JOB_LOCK_MS: c.cluster.jobLockMs,
      QUEUE_MAX: c.cluster.queueMax, QUEUE_TIMEOUT_SECONDS: c.cluster.queueTimeoutSeconds, WORKER_MODE: c.cluster.workerMode,
      RUN_CONCURRENCY: c.runs.concurrency, RUN_RETENTION_SECONDS: c.runs.retentionSeconds, RUN_MAX_STEPS_PER_CASE: c.runs.maxStepsPerCase,
      RUN_MAX_TURNS_PER_CASE: c.runs.maxTurnsPerCase, RUN_MAX_TOKENS_PER_CASE: c.runs.maxTokensPerCase, RUN_MAX_TOKENS: c.runs.maxTokensPerRun,
      RUN_CASE_TIMEOUT_MS: c.runs.caseTimeoutMs, RUN_TIMEOUT_MS: c.runs.runTimeoutMs, RUN_ASSERT_TIMEOUT_MS: c.runs.assertTimeoutMs,
      FLOW_PLANNER: c.runs.planner, ANTHROPIC_MODEL: c.runs.anthropic.model, OPENAI_MODEL: c.runs.openai.model,
      INBOX_DOMAIN: c.inbox.domain, INBOX_TTL_SECONDS: c.inbox.ttlSeconds, INBOX_MAX_MESSAGES: c.inbox.maxMessages,
      INBOX_MAX_MESSAGE_BYTES: c.inbox.maxMessageBytes,
      MCP_IDLE_TIMEOUT_SECONDS: c.mcp.idleTimeoutSeconds,
      SUITE_SCHEDULE_MIN_SECONDS: c.suites.scheduleMinSeconds, HOOK_REPLAY_WINDOW_SECONDS: c.suites.hookReplayWindowSeconds,
      TENANT_MAX_SESSIONS: c.quotas.defaults.maxSessions, TENANT_MAX_RUNS: c.quotas.defaults.maxRuns,
      TENANT_SESSIONS_PER_MINUTE: c.quotas.defaults.sessionsPerMinute, POOL_ISOLATION: c.isolation.mode,
      POOL_TENANT_BROWSER_IDLE_SECONDS: c.isolation.tenantBrowserIdleSeconds, CHROMIUM_SANDBOX: c.isolation.sandbox,
      NOTIFY_ATTEMPTS: c.notify.attempts, NOTIFY_BACKOFF_MS: c.notify.backoffMs,
    };
    // Inboxes are off by default; the SMTP listener binds where HTTP does unless told.
    expect(c.inbox.smtpPort).toBeNull();
    expect(c.inbox.smtpHost).toBe(c.host);
    // Derived at start from where the server listens (runtime.ts), not a literal value.
    expect(c.cluster.nodeUrl).toBe('');
    // Shares of capacity (e.g. 75%), applied only with two or more tenants (tenancy-config test).
    const derived = ['NODE_URL', 'TENANT_MAX_CONTEXTS', 'TENANT_MAX_QUEUED'];
    for (const v of ENV_VARS) {
      if (v.default.startsWith('(') || derived.includes(v.name)) continue; // "(embedded)", "(none)": a behaviour, checked above
      expect(v.name in actual, `${v.name} is new: add it to this test with the Config field it sets`).toBe(true);
      expect(String(actual[v.name]), v.name).toBe(v.default);
    }
  });

  it('derives the hosts /mcp accepts from HOST, NODE_URL and MCP_ALLOWED_HOSTS', () => {
    expect(loadConfig({}).mcp.allowedHosts.sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    const c = loadConfig({ HOST: '0.0.0.0', NODE_URL: 'http://node-a.internal:3000', MCP_ALLOWED_HOSTS: ' Ariadne.Example.com ,tools.local' });
    expect(c.mcp.allowedHosts).toEqual(expect.arrayContaining(['node-a.internal', 'ariadne.example.com', 'tools.local']));
    expect(c.mcp.allowedHosts).not.toContain('0.0.0.0');
  });

  it('treats empty and blank values as unset, and trims', () => {
    const c = loadConfig({ PORT: '  ', HOST: '', LOG_LEVEL: ' debug ', POOL_BROWSERS: ' 3 ', REDIS_URL: ' ' });
    expect(c.port).toBe(3000);
    expect(c.host).toBe('127.0.0.1');
    expect(c.logLevel).toBe('debug');
    expect(c.pool.browsers).toBe(3);
    expect(c.redisUrl).toBeNull();
  });

  it('reads explicit values', () => {
    const c = loadConfig({
      PORT: '0', HOST: '0.0.0.0', REDIS_URL: 'redis://10.0.0.5:6379/2', REDIS_PREFIX: 'x:', NODE_ID: 'node-7',
      POOL_BROWSERS: '4', POOL_MAX_CONTEXTS_PER_BROWSER: '5', POOL_MAX_CONTEXTS: '20', POOL_WARM_CONTEXTS: '0',
      ALLOWED_SCHEMES: 'HTTPS:, file ,', LOG_LEVEL: 'silent',
    });
    expect(c.port).toBe(0);
    expect(c.host).toBe('0.0.0.0');
    expect(c.redisUrl).toBe('redis://10.0.0.5:6379/2');
    expect(c.redisPrefix).toBe('x:');
    expect(c.nodeId).toBe('node-7');
    expect(c.pool).toEqual({ browsers: 4, maxContextsPerBrowser: 5, maxContexts: 20, warmContexts: 0 });
    expect(c.allowedSchemes).toEqual(['https:', 'file:']);
    expect(c.logLevel).toBe('silent');
    expect(loadConfig({ REDIS_URL: 'rediss://user:pw@host:6380' }).redisUrl).toBe('rediss://user:pw@host:6380');
  });
});

describe('loadConfig validation: every problem names its variable', () => {
  // Every integer variable (its documented default is a number) rejects non-integers.
  const integerVars = ENV_VARS.filter((v) => /^\d+$/.test(v.default)).map((v) => v.name);

  it.each(integerVars)('%s rejects a non-number, a fraction and a negative', (name) => {
    for (const bad of ['abc', '1.5', '-5', '1e99']) {
      const problems = problemsOf({ [name]: bad });
      expect(problems, `${name}=${bad}`).toHaveLength(1);
      expect(problems[0]).toContain(`${name}=${bad}`);
      expect(problems[0]).toMatch(/must be an integer between \d+ and \d+/);
    }
  });

  it.each([
    ['PORT', '65536'],
    ['POOL_BROWSERS', '0'],
    ['POOL_MAX_CONTEXTS_PER_BROWSER', '0'],
    ['POOL_MAX_CONTEXTS', '0'],
    ['SESSION_IDLE_TIMEOUT_SECONDS', '0'],
    ['SESSION_TTL_SECONDS', '0'],
    ['SESSION_MAX_TTL_SECONDS', '604801'],
    ['ACTION_TIMEOUT_MS', '99'],
    ['NAVIGATION_TIMEOUT_MS', '300001'],
    ['SNAPSHOT_TIMEOUT_MS', '50'],
    ['DESCRIBE_WAIT_MS', '30001'],
    ['SHUTDOWN_TIMEOUT_MS', '99'],
    ['BODY_LIMIT_BYTES', '1023'],
    ['STREAM_PING_INTERVAL_MS', '99'],
    ['STREAM_MESSAGES_PER_SECOND', '0'],
    ['LEASE_TTL_MS', '499'],
    ['HEARTBEAT_MS', '99'],
    ['REAP_INTERVAL_MS', '99'],
    ['JOB_LOCK_MS', '1999'],
    ['QUEUE_MAX', '1000001'],
    ['QUEUE_TIMEOUT_SECONDS', '3601'],
  ])('%s=%s is out of range', (name, value) => {
    const problems = problemsOf({ [name]: value });
    expect(problems.join('\n')).toContain(`${name}=${value} must be an integer between`);
  });

  it('POOL_WARM_CONTEXTS cannot exceed POOL_MAX_CONTEXTS', () => {
    expect(problemsOf({ POOL_MAX_CONTEXTS: '4', POOL_WARM_CONTEXTS: '5' }).join('\n')).toContain('POOL_WARM_CONTEXTS (5) cannot exceed POOL_MAX_CONTEXTS (4)');
  });

  it('POOL_MAX_CONTEXTS cannot exceed what the browsers hold', () => {
    const problems = problemsOf({ POOL_BROWSERS: '2', POOL_MAX_CONTEXTS_PER_BROWSER: '3', POOL_MAX_CONTEXTS: '7', POOL_WARM_CONTEXTS: '1' });
    expect(problems).toEqual(['POOL_MAX_CONTEXTS (7) exceeds POOL_BROWSERS x POOL_MAX_CONTEXTS_PER_BROWSER (6)']);
    expect(loadConfig({ POOL_BROWSERS: '2', POOL_MAX_CONTEXTS_PER_BROWSER: '3', POOL_MAX_CONTEXTS: '6', POOL_WARM_CONTEXTS: '1' }).pool.maxContexts).toBe(6);
  });

  it('HEARTBEAT_MS must be at most half of LEASE_TTL_MS', () => {
    expect(problemsOf({ LEASE_TTL_MS: '3000', HEARTBEAT_MS: '1501' })).toEqual(['HEARTBEAT_MS (1501) must be at most half of LEASE_TTL_MS (3000)']);
    expect(loadConfig({ LEASE_TTL_MS: '3000', HEARTBEAT_MS: '1500' }).cluster).toMatchObject({ leaseTtlMs: 3000, heartbeatMs: 1500 });
  });

  it('NODE_URL must be an http(s) URL; a trailing slash is dropped', () => {
    for (const bad of ['node-2:3000', 'ftp://node-2', 'http://']) {
      expect(problemsOf({ NODE_URL: bad })).toEqual([`NODE_URL=${bad} must be an http(s) URL`]);
    }
    expect(loadConfig({ NODE_URL: 'http://10.0.0.7:3000/' }).cluster.nodeUrl).toBe('http://10.0.0.7:3000');
  });

  it('WORKER_MODE is inline or off', () => {
    expect(loadConfig({ WORKER_MODE: 'off' }).cluster.workerMode).toBe('off');
    expect(problemsOf({ WORKER_MODE: 'separate' })).toEqual(['WORKER_MODE=separate must be inline or off']);
  });

  it('REDIS_URL must be a redis:// or rediss:// URL', () => {
    for (const bad of ['http://localhost:6379', 'localhost:6379', 'redis:/x']) {
      expect(problemsOf({ REDIS_URL: bad })[0]).toContain(`REDIS_URL must start with redis:// or rediss:// (got ${bad})`);
    }
  });

  it('LOG_LEVEL must be a pino level', () => {
    expect(problemsOf({ LOG_LEVEL: 'verbose' })[0]).toContain('LOG_LEVEL=verbose must be one of fatal, error, warn, info, debug, trace, silent');
  });

  it('ALLOWED_SCHEMES refuses script and browser-internal schemes', () => {
    for (const s of ['javascript', 'chrome', 'chrome-extension:', 'DevTools']) {
      expect(problemsOf({ ALLOWED_SCHEMES: `https,${s}` })[0]).toMatch(/^ALLOWED_SCHEMES cannot include [a-z-]+:$/);
    }
  });

  it('reports every problem at once, and the message points at docs/configuration.md', () => {
    let error: ConfigError | undefined;
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'loud', REDIS_URL: 'nope', API_KEYS: 'short:acme' });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect(error!.problems).toHaveLength(4);
    for (const name of ['PORT', 'LOG_LEVEL', 'REDIS_URL', 'API_KEYS']) expect(error!.message).toContain(name);
    expect(error!.message).toContain('docs/configuration.md');
  });
});

describe('API keys', () => {
  it('API_KEYS maps key:tenant pairs; the last colon splits, so keys may contain colons', () => {
    const c = loadConfig({ API_KEYS: ` ${KEY_A}:acme , ${KEY_B}:beta.team_1,, svc:account:0123456789:ops ` });
    expect([...c.apiKeys.entries()]).toEqual([
      [KEY_A, 'acme'],
      [KEY_B, 'beta.team_1'],
      ['svc:account:0123456789', 'ops'],
    ]);
  });

  it('rejects keys shorter than 16 characters, and accepts 16', () => {
    const problems = problemsOf({ API_KEYS: `${'k'.repeat(15)}:acme` });
    expect(problems).toEqual(['API_KEYS: API keys must be at least 16 characters']);
    expect(loadConfig({ API_KEYS: `${'k'.repeat(16)}:acme` }).apiKeys.get('k'.repeat(16))).toBe('acme');
  });

  it('rejects entries without a tenant, and tenants with odd characters', () => {
    expect(problemsOf({ API_KEYS: KEY_A })).toEqual(['API_KEYS entries must look like key:tenant']);
    expect(problemsOf({ API_KEYS: `:${KEY_A}` })).toEqual(['API_KEYS entries must look like key:tenant']);
    expect(problemsOf({ API_KEYS: `${KEY_A}:` })[0]).toContain('API_KEYS: tenant "" must be 1-64 letters');
    expect(problemsOf({ API_KEYS: `${KEY_A}:acme corp` })[0]).toContain('API_KEYS: tenant "acme corp"');
    expect(problemsOf({ API_KEYS: `${KEY_A}:${'t'.repeat(65)}` })[0]).toContain('API_KEYS: tenant');
  });

  it('API_KEYS_FILE reads {"key": "tenant"} objects', () => {
    const file = writeTmp('keys-object.json', JSON.stringify({ [KEY_A]: 'acme', [KEY_B]: 'beta' }));
    const c = loadConfig({ API_KEYS_FILE: file });
    expect(Object.fromEntries(c.apiKeys)).toEqual({ [KEY_A]: 'acme', [KEY_B]: 'beta' });
  });

  it('API_KEYS_FILE reads [{key, tenant}] arrays, and adds to API_KEYS', () => {
    const file = writeTmp('keys-array.json', JSON.stringify([{ key: KEY_B, tenant: 'beta' }]));
    const c = loadConfig({ API_KEYS_FILE: file, API_KEYS: `${KEY_A}:acme` });
    expect(Object.fromEntries(c.apiKeys)).toEqual({ [KEY_A]: 'acme', [KEY_B]: 'beta' });
  });

  it('API_KEYS_FILE: short keys and bad tenants are named', () => {
    const file = writeTmp('keys-bad.json', JSON.stringify({ short: 'acme', [KEY_B]: 'bad tenant!' }));
    expect(problemsOf({ API_KEYS_FILE: file })).toEqual([
      'API_KEYS_FILE: API keys must be at least 16 characters',
      'API_KEYS_FILE: tenant "bad tenant!" must be 1-64 letters, digits, _ . -',
    ]);
  });

  it('API_KEYS_FILE that is missing or not JSON is an error naming the file', () => {
    const missing = path.join(tmp, 'nope.json');
    expect(problemsOf({ API_KEYS_FILE: missing })[0]).toMatch(new RegExp(`^API_KEYS_FILE=${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} could not be read as JSON: ENOENT`));
    const broken = writeTmp('broken.json', '{ "key": ');
    expect(problemsOf({ API_KEYS_FILE: broken })[0]).toContain(`API_KEYS_FILE=${broken} could not be read as JSON`);
  });
});
