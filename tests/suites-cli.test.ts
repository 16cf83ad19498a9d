import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { runToEnd } from './helpers/process.js';
import { startTestService, type TestService } from './helpers/service.js';

// `ariadne suite push | run | list` (issue 13) as a child process against a running
// service: a suite file kept in a repo (YAML, plans in Markdown files beside it, secrets
// as ${ENV} references) is created then updated by name with its hook URLs kept; a suite
// run waits and exits like `ariadne run` (0 passed, 1 a case failed, 2 could not run).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/ariadne.mjs');
const KEY = 'cli-suite-key-0123456789abcdef';
const SECRET = `cs${randomBytes(12).toString('hex')}`;
const HOOK_SECRET = `hs${randomBytes(12).toString('hex')}`;

let svc: TestService;
let fx: FixtureServer;
let dir: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([
    startTestService({ API_KEYS: `${KEY}:ci`, SECRETS_KEY: randomBytes(32).toString('hex'), RUN_ASSERT_TIMEOUT_MS: '1500' }),
    startFixtureServer(),
  ]);
  dir = mkdtempSync(path.join(tmpdir(), 'ariadne-suite-cli-'));
  mkdirSync(path.join(dir, 'plans'));
  writeFileSync(path.join(dir, 'plans', 'unlock.md'), [
    '#Case 1: Unlock the vault',
    '- Type {{WHO}} into "Name"',
    '- Type {{ACCESS_CODE}} into "Access code"',
    '- Click the "Unlock" button',
    '- Verify "Unlocked for {{WHO}}" is visible',
  ].join('\n'));
}, 120_000);
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return runToEnd(process.execPath, [BIN, ...args], {
    env: { ...process.env, NO_COLOR: '1', ARIADNE_SERVER: svc.url, ARIADNE_TOKEN: KEY, ...env },
    timeoutMs: 170_000,
  });
}

const suiteYaml = (extraPlan = '') => `# kept in the app's repo: no secret values, only \${ENV} references
name: vault-cli
baseUrl: ${fx.url}/suites/
plans:
  - name: unlock
    path: vault.html
    file: plans/unlock.md
${extraPlan}variables:
  WHO: Dana
secrets:
  ACCESS_CODE: \${VAULT_CODE}
triggers:
  - type: github
    secret: \${HOOK_SECRET}
    environments: [production]
`;

describe('ariadne suite', () => {
  it('pushes a suite file (create, then update by name keeping hook URLs), lists it, and runs it with --wait', async () => {
    const file = path.join(dir, 'suite.yaml');
    writeFileSync(file, suiteYaml());
    const env = { VAULT_CODE: SECRET, HOOK_SECRET };

    const created = await cli(['suite', 'push', file], env);
    expect(created.code, created.out + created.err).toBe(0);
    expect(created.out).toMatch(/Created suite vault-cli \(([\w-]+)\)/);
    const hook = /github hook: (\S+)/.exec(created.out)?.[1];
    expect(hook).toMatch(/\/v1\/hooks\/[0-9a-f]{32}$/);
    expect(created.out + created.err).not.toContain(SECRET);
    const suites = (await svc.api.withToken(KEY).get('/v1/suites')).body.suites;
    expect(suites).toHaveLength(1);
    expect(suites[0]).toMatchObject({ name: 'vault-cli', secrets: ['ACCESS_CODE'], variables: { WHO: 'Dana' } });
    expect(suites[0].plans[0].plan).toContain('Type {{ACCESS_CODE}} into "Access code"');

    // Pushed again with a second plan: the same suite, the same hook URL.
    writeFileSync(file, suiteYaml(`  - name: wrong
    path: vault.html
    plan: |
      #Case 1: Expect the impossible
      - Verify "Locked forever" is visible
`));
    const updated = await cli(['suite', 'push', file], env);
    expect(updated.code, updated.out + updated.err).toBe(0);
    expect(updated.out).toContain('Updated suite vault-cli');
    expect(updated.out).toContain(`github hook: ${hook}`);
    const after = (await svc.api.withToken(KEY).get('/v1/suites')).body.suites;
    expect(after).toHaveLength(1);
    expect(after[0].plans.map((p: any) => p.name)).toEqual(['unlock', 'wrong']);

    const listed = await cli(['suite', 'list']);
    expect(listed.code).toBe(0);
    expect(listed.out).toContain('vault-cli');

    // One plan fails: exit 1, with the failing case in the summary.
    const ran = await cli(['suite', 'run', 'vault-cli', '--sha', 'abc123', '--environment', 'staging', '--wait']);
    expect(ran.code, ran.out + ran.err).toBe(1);
    expect(ran.out).toContain('✓ unlock: passed — 1/1 cases passed');
    expect(ran.out).toContain('✗ wrong: failed');
    expect(ran.out).toContain('Suite vault-cli: failed — 1/2 cases passed in 2 run(s)');
    expect(ran.out + ran.err).not.toContain(SECRET);
    const history = (await svc.api.withToken(KEY).get(`/v1/suites/${after[0].id}/runs`)).body.runs;
    expect(history[0].trigger).toMatchObject({ type: 'manual', sha: 'abc123', environment: 'staging' });
  }, 300_000);

  it('exits 0 when every case passes (by id, against --base-url), 2 for an unknown suite, a missing env var or no server', async () => {
    const file = path.join(dir, 'ok.json');
    writeFileSync(file, JSON.stringify({ name: 'vault-ok', baseUrl: 'http://127.0.0.1:9/nowhere/', plans: [{ name: 'unlock', path: 'vault.html', file: 'plans/unlock.md' }], variables: { WHO: 'Ann' }, secrets: { ACCESS_CODE: '${VAULT_CODE}' } }));
    const pushed = await cli(['suite', 'push', file], { VAULT_CODE: SECRET });
    expect(pushed.code, pushed.out + pushed.err).toBe(0);
    const id = /Created suite vault-ok \(([\w-]+)\)/.exec(pushed.out)![1];
    const ok = await cli(['suite', 'run', id, '--base-url', `${fx.url}/suites/`, '--wait']);
    expect(ok.code, ok.out + ok.err).toBe(0);
    expect(ok.out).toContain('Suite vault-ok: passed — 1/1 cases passed');

    const unknown = await cli(['suite', 'run', 'no-such-suite']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('No suite "no-such-suite"');
    const env = { ...process.env, NO_COLOR: '1', ARIADNE_SERVER: svc.url, ARIADNE_TOKEN: KEY };
    delete env.VAULT_CODE;
    const unset = await runToEnd(process.execPath, [BIN, 'suite', 'push', file], { env, timeoutMs: 170_000 });
    expect(unset.code).toBe(2);
    expect(unset.err).toContain('VAULT_CODE');
    const noServer = await cli(['suite', 'list'], { ARIADNE_SERVER: '' });
    expect(noServer.code).toBe(2);
    const usage = await cli(['suite', 'frobnicate']);
    expect(usage.code).toBe(2);
  }, 300_000);
});
