import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';
import { specRunner, type SpecRunner } from './helpers/playwright-test.js';

// GET /v1/runs/:id/spec hands back a Playwright Test file of the passing cases. Proof:
// Playwright Test itself (@playwright/test, on the Debian Chromium) runs the exported
// file against the fixture shop and it passes; the same file with one expected text
// changed fails, so it really checks the page.

let svc: TestService;
let fx: FixtureServer;
let runner: SpecRunner;
let dir: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  runner = specRunner();
  dir = runner.dir;
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  runner?.remove();
});

const playwrightTest = (file: string, env: Record<string, string>) => runner.run(file, env);

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
    writeFileSync(broken, spec.replace("getByText('Order confirmed (Express shipping)'", "getByText('Order confirmed (Standard shipping)'"));
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
