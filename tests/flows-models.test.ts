import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';
// @ts-expect-error plain ESM helper shared with bench/
import { startScriptedModel } from './fixtures/app/scripted-model.mjs';

// The anthropic and openai planners, run as the service runs them (POST /v1/runs with
// planner, apiKey, baseUrl) against a local server that speaks each provider's real
// wire protocol and validates every request. The scripted model makes the mistakes
// real ones make — malformed tool arguments, a ref that does not exist, acting on a
// page it has not snapshotted — and the first request is rate limited (429 with
// retry-after), so the loop, the tool schemas and the error paths run for real.

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ RUN_ASSERT_TIMEOUT_MS: '2000' }), startFixtureServer()]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

const PLAN = [
  '#Case 1: Log in and buy',
  '- Go to /app/login.html',
  '- Type alice into "Username"',
  '- Type {{PASSWORD}} into "Password"',
  '- Click "Log in"',
  '- Verify "Welcome, alice" is visible',
  '- Click "Add to cart" in the "Thread Cap" card',
  '- Verify "Added Thread Cap to the cart" is visible',
].join('\n');

function script(malformed: Record<string, unknown>) {
  return {
    'Case 1: Log in and buy': [
      { tool: 'snapshot', args: {} },
      { tool: 'navigate', args: { url: '/app/login.html', step: 1 } },
      // Acts on the new page without a snapshot: refused, not run.
      { tool: 'type', args: { ref: 'e1', text: 'alice', step: 2 } },
      { tool: 'snapshot', args: {} },
      { tool: 'type', args: { ref: { $ref: ['textbox', 'Username'] }, text: 'alice', step: 2 } },
      malformed,
      { tool: 'type', args: { ref: { $ref: ['textbox', 'Password'] }, text: 'secret', step: 3 } },
      // A ref that is in no snapshot.
      { tool: 'click', args: { ref: 'e999', step: 4 } },
      { tool: 'snapshot', args: {} },
      { tool: 'click', args: { ref: { $ref: ['button', 'Log in'] }, step: 4 } },
      { tool: 'wait_for_stable', args: { step: 5 } },
      { tool: 'snapshot', args: {} },
      { tool: 'assert', args: { step: 5, type: 'text_visible', text: 'Welcome, alice' } },
      // The cards arrive after the page: let it settle, then look again.
      { tool: 'wait_for_stable', args: { step: 6 } },
      { tool: 'snapshot', args: {} },
      { tool: 'click', args: { ref: { $ref: ['button', 'Add to cart', { after: 'Thread Cap' }] }, step: 6 } },
      { tool: 'assert', args: { step: 7, type: 'text_visible', text: 'Added Thread Cap to the cart' } },
      { tool: 'complete_case', args: { passed: true, summary: 'logged in and added the cap' } },
    ],
  };
}

async function finished(id: string): Promise<any> {
  for (;;) {
    const r = await svc.api.get(`/v1/runs/${id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((x) => setTimeout(x, 250));
  }
}

describe.each([
  ['anthropic', { tool: 'click', args: {} }, (url: string) => url],
  ['openai', { tool: 'click', rawArguments: '{"ref": "e' }, (url: string) => `${url}/v1`],
] as const)('%s planner over the real wire protocol', (planner, malformed, base) => {
  it('runs the case, recovering from a 429, malformed arguments, an unknown ref and a stale page', async () => {
    const model = await startScriptedModel({ apiKey: 'sk-test-123', script: script(malformed), rateLimitFirst: 1 });
    try {
      const res = await svc.api.post('/v1/runs', {
        url: `${fx.url}/app/login.html`,
        plan: PLAN,
        planner,
        model: 'scripted-1',
        apiKey: 'sk-test-123',
        baseUrl: base(model.url),
        variables: { PASSWORD: 'secret' },
        options: { trace: false },
      });
      expect(res.status).toBe(202);
      expect(JSON.stringify(res.body)).not.toContain('sk-test-123');
      const run = await finished(res.body.id);
      expect(model.stats.invalid, 'requests the provider would refuse').toEqual([]);
      expect(run.status, JSON.stringify(run.report?.cases?.[0]?.steps?.map((s: any) => [s.action, s.ref, s.locator?.code, s.status, s.url, s.error?.message]))).toBe("passed");
      expect(model.stats.rateLimited).toBe(1);
      const c = run.report.cases[0];
      // 18 moves → 18 turns (the 429 was retried by the SDK inside one turn).
      expect(c.usage.turns).toBe(18);
      expect(c.usage.inputTokens).toBe(model.stats.turns.reduce((n: number, t: any) => n + t.inputTokens, 0));
      expect(c.usage.outputTokens).toBeGreaterThan(0);
      // The unknown ref was answered with diagnostics: the actionable refs of the last snapshot.
      const miss = model.stats.lastResults.find((r: string) => r.includes('Ref e999 is not in your last snapshot'));
      expect(miss).toMatch(/Actionable refs in that snapshot: .*button \\?"Log in\\?"/);
      // Only the latest snapshot travels with each request (older ones are left out).
      expect(Math.max(...model.stats.turns.map((t: any) => t.snapshots))).toBe(1);
      expect(model.stats.turns.filter((t: any) => t.snapshots === 1).length).toBeGreaterThan(10);
      expect(run.report.model).toBe('scripted-1');
      // Only real actions and assertions are steps; refused calls never reached the page.
      expect(c.steps.map((s: any) => [s.action, s.planStep, s.status])).toEqual([
        ['navigate', 1, 'passed'],
        ['fill', 2, 'passed'],
        ['fill', 3, 'passed'],
        ['click', 4, 'passed'],
        ['wait_for_stable', 5, 'passed'],
        ['assert', 5, 'passed'],
        ['wait_for_stable', 6, 'passed'],
        ['click', 6, 'passed'],
        ['assert', 7, 'passed'],
      ]);
      expect(c.steps[7].locator.verified).toBe(true);
      expect(c.steps[2].secretParams).toEqual(['PASSWORD']);
      expect(c.assertions.map((a: any) => a.passed)).toEqual([true, true]);
      expect(c.missingAssertions).toEqual([]);

      // A replay re-runs the recorded actions without asking the model anything.
      const requests = model.stats.requests;
      const replay = await svc.api.post('/v1/runs', { replayOf: run.id, apiKey: 'sk-test-123', baseUrl: base(model.url), options: { trace: false } });
      expect(replay.status, JSON.stringify(replay.body)).toBe(202);
      const again = await finished(replay.body.id);
      expect(again.status).toBe('passed');
      expect(again.report.planner).toBe(`replay+${planner}`);
      expect(again.report.cases[0].healedSteps).toEqual([]);
      expect(again.report.usage.turns).toBe(0);
      expect(model.stats.requests).toBe(requests);
    } finally {
      await model.close();
    }
  });
});

describe('a model that claims success', () => {
  it('fails a case whose Verify step was never asserted, and one with a failed assertion, whatever complete_case says', async () => {
    const plan = [
      '#Case 1: unasserted',
      '- Go to /app/products.html',
      '- Verify "Products" is visible',
      '#Case 2: wrong text',
      '- Verify "Free shipping on everything" is visible',
    ].join('\n');
    const model = await startScriptedModel({
      apiKey: 'k',
      script: {
        'Case 1: unasserted': [
          { tool: 'navigate', args: { url: '/app/products.html', step: 1 } },
          { tool: 'complete_case', args: { passed: true, summary: 'all good' } },
        ],
        'Case 2: wrong text': [
          { tool: 'assert', args: { step: 1, type: 'text_visible', text: 'Free shipping on everything' } },
          { text: 'Looks fine to me.' },
          { tool: 'complete_case', args: { passed: true, summary: 'all good' } },
        ],
      },
    });
    try {
      const res = await svc.api.post('/v1/runs', { url: `${fx.url}/app/login.html`, plan, planner: 'openai', apiKey: 'k', baseUrl: `${model.url}/v1`, options: { trace: false, screenshots: false } });
      const run = await finished(res.body.id);
      expect(model.stats.invalid).toEqual([]);
      expect(run.status).toBe('failed');
      const [c1, c2] = run.report.cases;
      expect(c1).toMatchObject({ status: 'failed', completed: true, missingAssertions: [{ planStep: 2, text: 'Verify "Products" is visible' }] });
      expect(c1.summary).toContain('Not every Verify step was asserted');
      expect(c2.status).toBe('failed');
      expect(c2.assertions[0]).toMatchObject({ passed: false, error: { code: 'assertion_failed' } });
      // The text-only turn was nudged, and it counted as a turn.
      expect(c2.usage.turns).toBe(3);
    } finally {
      await model.close();
    }
  });

  it('stops a case at its turn limit', async () => {
    const model = await startScriptedModel({ apiKey: 'k', script: { 'Case 1: loops': Array.from({ length: 20 }, () => ({ tool: 'snapshot', args: {} })) } });
    try {
      const res = await svc.api.post('/v1/runs', { url: `${fx.url}/app/login.html`, plan: '#Case 1: loops\n- Verify "Log in" is visible', planner: 'anthropic', apiKey: 'k', baseUrl: model.url, options: { trace: false, maxTurnsPerCase: 5 } });
      const run = await finished(res.body.id);
      const c = run.report.cases[0];
      expect(c.status).toBe('failed');
      expect(c.error).toMatchObject({ code: 'limit_exceeded', details: { limit: 'turns', max: 5 } });
      expect(c.usage.turns).toBe(5);
    } finally {
      await model.close();
    }
  });
});

describe('self-healing with a model planner', () => {
  it('a replay hands the one step whose locator broke to the model, and only that step', async () => {
    const plan = '#Case 1: sign in\n- Go to /app/login.html\n- Type alice into "Username"\n- Type secret into "Password"\n- Click the "Log in" button\n- Verify "Welcome, alice" is visible';
    const original = await svc.api.post('/v1/runs', { url: `${fx.url}/app/login.html`, plan, options: { trace: false } });
    const first = await finished(original.body.id);
    expect(first.status, JSON.stringify(first.report?.cases?.[0]?.steps?.map((s: any) => [s.action, s.status, s.error?.message]) ?? first)).toBe('passed');
    const model = await startScriptedModel({
      apiKey: 'k',
      script: {
        'Case 1: sign in': [
          { tool: 'snapshot', args: {} },
          { tool: 'type', args: { ref: { $ref: ['textbox', 'Your username'] }, text: 'alice', step: 2 } },
          { tool: 'complete_case', args: { passed: true, summary: 'typed the user name' } },
        ],
      },
    });
    await fetch(`${fx.url}/app/api/patch`, { method: 'POST', body: JSON.stringify({ replace: [['<label for="user">Username</label>', '<label for="user">Your username</label>']] }) });
    try {
      const res = await svc.api.post('/v1/runs', { replayOf: original.body.id, planner: 'openai', apiKey: 'k', baseUrl: `${model.url}/v1`, options: { trace: false } });
      const run = await finished(res.body.id);
      expect(model.stats.invalid).toEqual([]);
      expect(run.status, JSON.stringify(run.report.cases[0].steps.map((s: any) => [s.action, s.status, s.healed, s.error?.message]))).toBe('passed');
      const c = run.report.cases[0];
      expect(c.healedSteps).toEqual([2]);
      expect(c.usage.turns).toBe(3);
      // The model saw only step 2.
      expect(model.stats.turns.every((t: any) => t.case === 'Case 1: sign in')).toBe(true);
      const healed = c.steps.filter((s: any) => s.healed);
      expect(healed.map((s: any) => [s.planStep, s.action, s.locator?.code])).toEqual([[2, 'fill', "page.getByRole('textbox', { name: 'Your username', exact: true })"]]);
      expect(c.steps.filter((s: any) => !s.healed).every((s: any) => s.action === 'navigate' || s.action === 'assert' || s.locator?.strategy === 'recorded')).toBe(true);
    } finally {
      await fetch(`${fx.url}/app/api/patch`, { method: 'POST', body: JSON.stringify({ replace: [] }) });
      await model.close();
    }
  });
});
