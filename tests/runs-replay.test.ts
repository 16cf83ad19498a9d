import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES_DIR, startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// Replay: POST /v1/runs { replayOf } re-runs the recorded actions on their recorded,
// verified locators, without the planner; after a "deploy" that renames a field, the
// step whose locator no longer resolves is redone by the planner (self-healing) and
// the report says which steps healed. Secrets are recorded as {{NAME}}, never as values.

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ RUN_ASSERT_TIMEOUT_MS: '3000' }), startFixtureServer()]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function run(body: unknown): Promise<any> {
  const res = await svc.api.post('/v1/runs', body);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  for (;;) {
    const r = await svc.api.get(`/v1/runs/${res.body.id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((x) => setTimeout(x, 250));
  }
}

const patch = (replace: [string, string][]) => fetch(`${fx.url}/app/api/patch`, { method: 'POST', body: JSON.stringify({ replace }) });

describe('replay', () => {
  it('replays the recorded actions, heals a step whose locator broke, and says which', async () => {
    const original = await run({
      url: `${fx.url}/app/login.html`,
      plan: readFileSync(path.join(FIXTURES_DIR, 'app/plans/shop.md'), 'utf8'),
      variables: { USER: 'alice', PASSWORD: 'secret' },
      options: { trace: false },
    });
    expect(original.status).toBe('passed');
    // The password was recorded as a placeholder, never as its value.
    const pw = original.report.cases[0].steps.find((s: any) => s.planStep === 3);
    expect(pw.params.value).toBe('{{PASSWORD}}');
    expect(JSON.stringify(original.report)).not.toContain('"secret"');

    // Same app: everything replays on the recorded locators, nothing heals.
    const same = await run({ replayOf: original.id, options: { trace: false } });
    expect(same.status, JSON.stringify(same.report.cases.map((c: any) => c.steps.filter((s: any) => s.error)))).toBe('passed');
    expect(same.replayOf).toBe(original.id);
    expect(same.planner).toBe('rules');
    expect(same.report.planner).toBe('replay+rules');
    expect(same.report.cases.map((c: any) => c.healedSteps)).toEqual([[], [], [], []]);
    const actions = same.report.cases.flatMap((c: any) => c.steps).filter((s: any) => ['click', 'fill', 'type', 'select', 'check'].includes(s.action));
    // Without the planner: no snapshot refs, the recorded locators.
    expect(actions.every((s: any) => s.ref === undefined && s.locator.strategy === 'recorded')).toBe(true);
    const originalCodes = original.report.cases.flatMap((c: any) => c.steps).filter((s: any) => s.locator && s.action !== 'assert').map((s: any) => s.locator.code);
    expect(actions.map((s: any) => s.locator.code)).toEqual(originalCodes);

    // A deploy renames the username field: its recorded locator no longer resolves.
    await patch([['<label for="user">Username</label>', '<label for="user">Your username</label>']]);
    try {
      const healed = await run({ replayOf: original.id, options: { trace: false } });
      expect(healed.status, JSON.stringify(healed.report.cases[0].steps.map((s: any) => [s.action, s.status, s.error?.message]))).toBe('passed');
      const c1 = healed.report.cases[0];
      expect(c1.healedSteps).toEqual([2]);
      const fixed = c1.steps.filter((s: any) => s.healed);
      expect(fixed).toHaveLength(1);
      expect(fixed[0]).toMatchObject({ planStep: 2, action: 'fill', status: 'passed', locator: { code: "page.getByRole('textbox', { name: 'Your username', exact: true })", verified: true } });
      expect(c1.steps.filter((s: any) => !s.healed && s.locator && s.action !== 'assert').every((s: any) => s.locator.strategy === 'recorded')).toBe(true);
      expect(healed.report.cases.slice(1).map((c: any) => c.healedSteps)).toEqual([[], [], []]);
      const junit = await svc.api.get(`/v1/runs/${healed.id}/junit`);
      expect(junit.body).toContain('[healed]');
      // The spec of the healed run uses the new locator.
      const spec = await svc.api.get(`/v1/runs/${healed.id}/spec`);
      expect(spec.body).toContain("page.getByRole('textbox', { name: 'Your username', exact: true }).fill('alice')");
      expect(spec.body).toContain("env('PASSWORD')");
    } finally {
      await patch([]);
    }
  });

  it('fails a replay when the app really broke (a check fails): no healing hides it', async () => {
    const original = await run({ url: `${fx.url}/app/products.html`, plan: '#Case 1: cart\n- Click "Add to cart" in the "Blue Mug" card\n- Verify "Added Blue Mug to the cart" is visible', options: { trace: false } });
    expect(original.status).toBe('passed');
    await patch([['document.getElementById(\'added\').textContent = `Added ${p.name} to the cart`;', '']]);
    try {
      const replay = await run({ replayOf: original.id, options: { trace: false } });
      expect(replay.status).toBe('failed');
      const c = replay.report.cases[0];
      expect(c.healedSteps).toEqual([]);
      expect(c.assertions[0]).toMatchObject({ passed: false, planStep: 2 });
    } finally {
      await patch([]);
    }
  });

  it('refuses to replay a run that has not finished, or another tenant\'s', async () => {
    const res = await svc.api.post('/v1/runs', { url: `${fx.url}/app/products.html`, plan: '- Wait 3 seconds\n- Verify "Products" is visible', options: { trace: false } });
    const r = await svc.api.post('/v1/runs', { replayOf: res.body.id });
    expect(r.status).toBe(409);
    expect(r.body.error).toMatchObject({ code: 'run_finished', details: { field: 'replayOf' } });
    await svc.api.delete(`/v1/runs/${res.body.id}`);
  });
});
