import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// GET /v1/runs/:id/spec hands back a Playwright Test file of the passing cases. Proof:
// Playwright Test itself (@playwright/test, on the Debian Chromium) runs the exported
// file against the fixture shop and it passes; the same file with one expected text
// changed fails, so it really checks the page.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PLAYWRIGHT = path.join(ROOT, 'node_modules/.bin/playwright');

let svc: TestService;
let fx: FixtureServer;
let dir: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  // Inside the repo, so the spec resolves @playwright/test from node_modules.
  dir = mkdtempSync(path.join(ROOT, 'tests/.spec-run-'));
  writeFileSync(path.join(dir, 'playwright.config.ts'), [
    "import { defineConfig } from '@playwright/test';",
    'export default defineConfig({',
    "  testDir: '.',",
    '  workers: 1,',
    '  retries: 0,',
    "  reporter: 'line',",
    '  timeout: 60_000,',
    `  outputDir: ${JSON.stringify(path.join(dir, 'results'))},`,
    '  use: {',
    "    browserName: 'chromium',",
    `    launchOptions: { executablePath: ${JSON.stringify(process.env.CHROMIUM_PATH || '/usr/bin/chromium')}, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] },`,
    '  },',
    '});',
  ].join('\n'));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function playwrightTest(file: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(PLAYWRIGHT, ['test', file, '--config', path.join(dir, 'playwright.config.ts')], {
      cwd: dir,
      env: { ...process.env, ...env, PLAYWRIGHT_BROWSERS_PATH: '0', CI: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

async function finishedRun(body: unknown): Promise<any> {
  const res = await svc.api.post('/v1/runs', body);
  expect(res.status).toBe(202);
  for (;;) {
    const r = await svc.api.get(`/v1/runs/${res.body.id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((x) => setTimeout(x, 250));
  }
}

describe('GET /v1/runs/:id/spec', () => {
  it('exports a spec that Playwright Test runs green against the fixture app, and red when the page differs', async () => {
    const run = await finishedRun({
      url: `${fx.url}/app/login.html`,
      plan: readFileSync(path.join(FIXTURES_DIR, 'app/plans/shop.md'), 'utf8'),
      variables: { USER: 'alice', PASSWORD: 'secret' },
      options: { trace: false },
    });
    expect(run.status).toBe('passed');
    const res = await svc.api.get(`/v1/runs/${run.id}/spec`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain(`ariadne-${run.id}.spec.ts`);
    const spec: string = res.body;
    // Verified locators and expect assertions, and no secret in the file.
    expect(spec).toContain("await page.getByRole('button', { name: 'Log in', exact: true }).click();");
    // Verify is exact by default (issue 11): the exported expect is too.
    expect(spec).toContain("await expect(page.getByText('Order confirmed (Express shipping)', { exact: true }).filter({ visible: true }).first()).toBeVisible();");
    expect(spec).toContain("env('PASSWORD')");
    // The confirm dialog of case 4: its handler is set before the click that opens it.
    expect(spec).toMatch(/page\.once\('dialog', \(dialog\) => void dialog\.accept\(\)\);\n {4}await page\.getByRole\('button', \{ name: 'Empty cart', exact: true \}\)\.click\(\);/);
    expect(spec).not.toContain("'secret'");
    expect(spec.match(/^ {2}test\(/gm)).toHaveLength(4);

    const file = path.join(dir, 'shop.spec.ts');
    writeFileSync(file, spec);
    const green = await playwrightTest(file, { PASSWORD: 'secret' });
    expect(green.code, green.output).toBe(0);
    expect(green.output).toMatch(/4 passed/);

    // The same spec expecting another text must fail: it checks the page for real.
    const broken = path.join(dir, 'broken.spec.ts');
    writeFileSync(broken, spec.replace("getByText('Order confirmed (Express shipping)')", "getByText('Order confirmed (Standard shipping)')"));
    const red = await playwrightTest(broken, { PASSWORD: 'secret' });
    expect(red.code).not.toBe(0);
    expect(red.output).toMatch(/1 failed/);
    expect(red.output).toContain('Order confirmed (Standard shipping)');
  }, 170_000);

  it('refuses a run with no passing case, and an unknown run', async () => {
    const run = await finishedRun({ url: `${fx.url}/app/login.html`, plan: '- Verify "Nothing like this" is visible', options: { trace: false } });
    expect(run.status).toBe('failed');
    const res = await svc.api.get(`/v1/runs/${run.id}/spec`);
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('no_passing_cases');
    expect((await svc.api.get('/v1/runs/nope/spec')).body.error.code).toBe('run_not_found');
  });
});
