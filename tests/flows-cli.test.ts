import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { runToEnd } from './helpers/process.js';
import { startTestService, type TestService } from './helpers/service.js';

// The CLI for CI: `ariadne run plan.md --url ...` prints live progress, writes the
// reports asked for, and exits 0 / 1 (a case failed) / 2 (could not run) — against a
// running server, and on its own (starting a service in-process).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'packages/flows/dist/cli.js');
const PLANS = path.join(FIXTURES_DIR, 'app/plans');

let svc: TestService;
let fx: FixtureServer;
let dir: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ API_KEYS: 'cli-test-key-0123456789:ci' }), startFixtureServer()]);
  dir = mkdtempSync(path.join(tmpdir(), 'ariadne-cli-test-'));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return runToEnd(process.execPath, [CLI, ...args], { env: { ...process.env, NO_COLOR: '1', ...env }, timeoutMs: 85_000 });
}

describe('ariadne run', () => {
  it('runs a plan against a server, prints progress, writes JUnit, JSON and the spec, exits 0', async () => {
    const junit = path.join(dir, 'report.xml');
    const json = path.join(dir, 'report.json');
    const spec = path.join(dir, 'shop.spec.ts');
    const r = await cli(['run', path.join(PLANS, 'shop.md'), '--url', `${fx.url}/app/login.html`, '--server', svc.url, '--token', 'cli-test-key-0123456789',
      '--var', 'USER=alice', '--var', 'PASSWORD=secret', '--junit', junit, '--json', json, '--spec', spec, '--no-trace']);
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).toContain('▶ Case 1: Log in');
    expect(r.out).toMatch(/✓ \[default\] click page\.getByRole\('button', \{ name: 'Log in', exact: true \}\) — Click the "Log in" button \(\d+ ms\)/);
    expect(r.out).toContain('✓ Case 4 passed');
    expect(r.out).toMatch(/Run [\w-]+: passed — 4\/4 cases passed/);
    expect(readFileSync(junit, 'utf8')).toContain('tests="4" failures="0"');
    expect(JSON.parse(readFileSync(json, 'utf8')).status).toBe('passed');
    expect(readFileSync(spec, 'utf8')).toContain("import { test, expect");
  });

  it('exits 1 when a case fails, and says what broke', async () => {
    const r = await cli(['run', path.join(PLANS, 'wrong-text.md'), '--url', `${fx.url}/app/login.html`, '--server', svc.url, '--token', 'cli-test-key-0123456789', '--no-trace']);
    expect(r.code, r.out + r.err).toBe(1);
    expect(r.out).toContain('✗ [default] assert');
    expect(r.out).toContain('assertion_failed: Expected "Welcome back, Bob" is visible');
    expect(r.out).toMatch(/Run [\w-]+: failed — 1\/2 cases passed/);
  });

  it('exits 2 on a plan that does not parse (naming the line), a bad option, or a missing key', async () => {
    const bad = path.join(dir, 'bad.md');
    writeFileSync(bad, '#Case 1: a\n- click "x"\n- type {{NOPE}} into "y"\n');
    let r = await cli(['run', bad, '--url', `${fx.url}/app/login.html`, '--server', svc.url, '--token', 'cli-test-key-0123456789']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('invalid_request: Plan line 3: unknown variable {{NOPE}}');
    r = await cli(['run', bad, '--bogus']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Usage: ariadne run');
    r = await cli(['run', path.join(PLANS, 'shop.md'), '--url', fx.url, '--server', svc.url]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unauthorized');
  });

  it('starts its own service when no server is given', async () => {
    const r = await cli(['run', path.join(PLANS, 'multi-role.md'), '--url', `${fx.url}/app/login.html`, '--var', 'PASSWORD=secret', '--var', 'MESSAGE=Local run sale', '--no-trace', '--quiet'], { ARIADNE_SERVER: '' });
    expect(r.code, r.out + r.err).toBe(0);
    expect(r.out).not.toContain('▶ Case');
    expect(r.out).toMatch(/Run [\w-]+: passed — 2\/2 cases passed/);
    expect(existsSync(CLI)).toBe(true);
  }, 90_000);
});
