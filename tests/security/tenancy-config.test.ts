import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../apps/server/src/config.js';

// Issue 10, item 6: quotas are set per API key (API_KEYS options or the keys file) with
// defaults for every tenant from the environment. loadConfig is pure: unit tests.

const KEY_A = 'tenancy-config-key-a-0123456789';
const KEY_B = 'tenancy-config-key-b-0123456789';
const tmp = mkdtempSync(path.join(tmpdir(), 'ariadne-tenancy-config-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

const limits = (c: ReturnType<typeof loadConfig>, tenant: string) => ({ ...c.quotas.defaults, ...c.quotas.perTenant.get(tenant) });

describe('per-key quotas', () => {
  it('API_KEYS takes key:tenant:name=value options and keeps the old key:tenant form (colons in keys too)', () => {
    const c = loadConfig({
      API_KEYS: `${KEY_A}:acme:max_sessions=10:max_contexts=20:sessions_per_minute=30, svc:account:0123456789:ops, ${KEY_B}:beta:max_runs=2:max_queued=0`,
    });
    expect(c.apiKeys.get(KEY_A)).toBe('acme');
    expect(c.apiKeys.get('svc:account:0123456789')).toBe('ops');
    expect(c.apiKeys.get(KEY_B)).toBe('beta');
    expect(limits(c, 'acme')).toMatchObject({ maxSessions: 10, maxContexts: 20, sessionsPerMinute: 30 });
    expect(limits(c, 'beta')).toMatchObject({ maxRuns: 2, maxQueued: 0 });
    // Defaults for everyone else: 75% of POOL_MAX_CONTEXTS (20) and 50% of QUEUE_MAX (100).
    expect(limits(c, 'ops')).toEqual({ maxSessions: 0, maxContexts: 15, maxQueued: 50, maxRuns: 0, sessionsPerMinute: 0 });
  });

  it('the keys file takes options per entry, flat or under "quotas"', () => {
    const file = path.join(tmp, 'keys.json');
    writeFileSync(file, JSON.stringify([
      { key: KEY_A, tenant: 'acme', max_sessions: 3 },
      { key: KEY_B, tenant: 'beta', quotas: { max_contexts: 4, sessions_per_minute: 6 } },
    ]));
    const c = loadConfig({ API_KEYS_FILE: file });
    expect(limits(c, 'acme').maxSessions).toBe(3);
    expect(limits(c, 'beta')).toMatchObject({ maxContexts: 4, sessionsPerMinute: 6 });
    const obj = path.join(tmp, 'keys-object.json');
    writeFileSync(obj, JSON.stringify({ [KEY_A]: 'acme', [KEY_B]: { tenant: 'beta', max_runs: 1 } }));
    const d = loadConfig({ API_KEYS_FILE: obj });
    expect(d.apiKeys.get(KEY_A)).toBe('acme');
    expect(limits(d, 'beta').maxRuns).toBe(1);
  });

  it('defaults come from the environment; shares apply only with two or more tenants', () => {
    const c = loadConfig({
      API_KEYS: `${KEY_A}:acme,${KEY_B}:beta`, POOL_MAX_CONTEXTS: '8', QUEUE_MAX: '10',
      TENANT_MAX_SESSIONS: '4', TENANT_MAX_RUNS: '2', TENANT_SESSIONS_PER_MINUTE: '60',
    });
    expect(c.quotas.defaults).toEqual({ maxSessions: 4, maxContexts: 6, maxQueued: 5, maxRuns: 2, sessionsPerMinute: 60 });
    expect(loadConfig({ API_KEYS: `${KEY_A}:acme,${KEY_B}:beta`, TENANT_MAX_CONTEXTS: '7', TENANT_MAX_QUEUED: '0' }).quotas.defaults).toMatchObject({ maxContexts: 7, maxQueued: 0 });
    // One tenant (or open mode) has nobody to be protected from.
    expect(loadConfig({ API_KEYS: `${KEY_A}:acme` }).quotas.defaults).toMatchObject({ maxContexts: 0, maxQueued: 0 });
    expect(loadConfig({}).quotas.defaults.maxContexts).toBe(0);
  });

  it('refuses unknown options, bad numbers and disagreeing keys of one tenant, naming them', () => {
    expect(problemsOf({ API_KEYS: `${KEY_A}:acme:max_tabs=3` })[0]).toContain('unknown quota option "max_tabs"');
    expect(problemsOf({ API_KEYS: `${KEY_A}:acme:max_sessions=-1` })[0]).toContain('max_sessions=-1');
    expect(problemsOf({ API_KEYS: `${KEY_A}:acme:max_sessions=2,${KEY_B}:acme:max_sessions=3` })[0]).toContain('two different maxSessions');
    expect(problemsOf({ TENANT_MAX_CONTEXTS: '150%' })[0]).toContain('TENANT_MAX_CONTEXTS');
    expect(problemsOf({ TENANT_MAX_QUEUED: 'many' })[0]).toContain('TENANT_MAX_QUEUED');
    expect(problemsOf({ CHROMIUM_SANDBOX: 'maybe' })[0]).toContain('CHROMIUM_SANDBOX');
    expect(problemsOf({ POOL_ISOLATION: 'process' })[0]).toContain('POOL_ISOLATION');
    expect(problemsOf({ POOL_BROWSERS: '4', POOL_MAX_BROWSERS: '2' })[0]).toContain('POOL_MAX_BROWSERS');
  });
});
