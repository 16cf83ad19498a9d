import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { OpenAIPlanner, registerModelPlanner } from '@ariadne/flows';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';
import { startScriptedModel, type Move } from './helpers/scripted-model.js';
// The page layer's text evidence (its module is reached in the page package's build).
import { textEvidence } from '../packages/page/dist/inspect/text-evidence.js';

// What a model planner and its report are told must be true: a type with submit really
// submits (a React-style controlled field), a missing text's evidence says whether it is
// there but hidden and why, else the texts nearest to it (the list's entries, not the
// footer), and the model API's misbehaviour ends a case honestly or is waited out within
// bounds (429 with Retry-After, refusals, answers that come too late, the run's token cap).

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ RUN_ASSERT_TIMEOUT_MS: '700' }), startFixtureServer()]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function finished(id: string): Promise<any> {
  for (;;) {
    const r = await svc.api.get(`/v1/runs/${id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((x) => setTimeout(x, 150));
  }
}

async function run(planner: 'openai' | 'anthropic', plan: string, script: Record<string, Move[]>, options: Record<string, unknown> = {}) {
  const model = await startScriptedModel({ apiKey: 'k', script });
  try {
    const res = await svc.api.post('/v1/runs', { url: `${fx.url}/model/todos.html`, plan, planner, model: 'scripted', apiKey: 'k', baseUrl: planner === 'openai' ? `${model.url}/v1` : model.url, options: { trace: false, screenshots: false, ...options } });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const out = await finished(res.body.id);
    expect(model.stats.invalid).toEqual([]);
    return { run: out, model };
  } finally {
    await model.close();
  }
}

const ref = (role: string, name?: string) => ({ $ref: [role, name] });

describe('text evidence and type+submit through a model run', () => {
  it('tells the model and the report the same evidence, and submits a controlled field with type+submit', async () => {
    const plan = [
      '#Case 1: Evidence',
      '- Verify "Walk the dog" is visible',
      '- Verify "Feed the cat" is visible',
      '- Verify "Ships within 3 days" is visible',
      '#Case 2: Add a todo',
      '- Add a todo "Walk the dog"',
      '- Verify "Walk the dog" is visible',
    ].join('\n');
    const { run: r, model } = await run('openai', plan, {
      'Evidence': [
        { tool: 'assert', args: { step: 1, type: 'text_visible', text: 'Walk the dog' } },
        { tool: 'assert', args: { step: 2, type: 'text_visible', text: 'Feed the cat' } },
        { tool: 'assert', args: { step: 3, type: 'text_visible', text: 'Ships within 3 days' } },
        { tool: 'complete_case', args: { passed: false, summary: 'not there' } },
      ],
      'Add a todo': [
        { tool: 'snapshot', args: {} },
        { tool: 'type', args: { ref: ref('textbox', 'What needs to be done?'), text: 'Walk the dog', submit: true, step: 1 } },
        { tool: 'assert', args: { step: 2, type: 'text_visible', text: 'Walk the dog' } },
        { tool: 'complete_case', args: { passed: true, summary: 'added' } },
      ],
    });
    const [evidence, add] = r.report.cases;
    const [absent, filtered, collapsed] = evidence.assertions;
    // Not on the page: the nearest texts are the list's entries, not the footer's credits.
    expect(absent.passed).toBe(false);
    expect(absent.evidence.hidden).toEqual([]);
    expect(['Buy milk', 'Pay rent']).toContain(absent.evidence.nearest[0].text);
    expect(absent.evidence.nearest.map((n: any) => n.text)).not.toContain('Created by the TodoMVC Team');
    expect(absent.actual).toMatch(/^closest text on the page: "(Buy milk|Pay rent)"/);
    // Filtered out of the list (display: none on its item), and folded in a closed <details>.
    expect(filtered.evidence.hidden[0].why).toContain('display: none on <li.completed>');
    expect(filtered.actual).toMatch(/^on the page but not visible: display: none on <li\.completed>/);
    expect(collapsed.actual).toMatch(/inside a closed <details> \(collapsed\)/);
    // The model read the same words as the report.
    const told = model.stats.turns.filter((t) => t.case === 'Evidence').at(-1)!.results;
    for (const [i, a] of evidence.assertions.entries()) expect(JSON.parse(told[i].replace(/^ERROR: /, '')).actual).toBe(a.actual);

    // type+submit on a controlled field: Enter reached the page, and the entry was added.
    expect(add.status, JSON.stringify(add.steps.map((s: any) => [s.action, s.status, s.error?.message]))).toBe('passed');
    expect(add.steps[0]).toMatchObject({ action: 'type', status: 'passed' });
    const typed = model.stats.turns.filter((t) => t.case === 'Add a todo')[2].results.at(-1)!;
    expect(typed).toMatch(/^ok: type \w+ done; the page changed/);
    expect(typed).toMatch(/\+ listitem.*Walk the dog/);
  });
});

describe('text evidence in the page', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: svc.service.config.chromiumPath, args: ['--no-sandbox', '--disable-gpu'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('says why a present text is hidden: a scroller, a zero-height fold, a visually-hidden clip', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${fx.url}/model/todos.html`);
      const why = async (t: string) => (await textEvidence(page, t)).hidden[0]?.why.join('; ') ?? '(visible)';
      expect(await why('Deep in the scroller')).toMatch(/scrolled out of view inside the scroller <div\.scroller>/);
      expect(await why('Folded away note')).toMatch(/collapsed: <div\.folded> is \d+x0 px with overflow hidden/);
      expect(await why('Screen reader only note')).toMatch(/clipped to nothing/);
      expect(await why('Buy milk')).toBe('(visible)');
      // A near miss by its words ranks first, whatever the list holds.
      const near = await textEvidence(page, 'Pay the rent');
      expect(near.nearest[0].text).toBe('Pay rent');
    } finally {
      await page.close();
    }
  });
});

describe('model API faults end a case honestly or are waited out within bounds', () => {
  const PLAN = '#Case 1: Look\n- Verify "Buy milk" is visible';
  const look = (extra: Partial<Move> = {}): Move[] => [
    { tool: 'assert', args: { step: 1, type: 'text_visible', text: 'Buy milk' }, ...extra } as Move,
    { tool: 'complete_case', args: { passed: true, summary: 'seen' } },
  ];

  it('waits out a 429 for the Retry-After it gives', async () => {
    const { run: r, model } = await run('openai', PLAN, { Look: look({ rateLimit: { times: 1, retryAfter: '1' } }) });
    expect(r.status).toBe('passed');
    expect(model.stats.rateLimited).toBe(1);
    const [first, second] = model.stats.arrivals;
    expect(second - first).toBeGreaterThanOrEqual(950);
    expect(r.report.cases[0].usage.retries).toBe(1);
  });

  it('fails at once, saying so, when a 429 asks for longer than the bound', async () => {
    const t0 = Date.now();
    const { run: r, model } = await run('anthropic', PLAN, { Look: look({ rateLimit: { times: 5, retryAfter: '120' } }) });
    expect(Date.now() - t0).toBeLessThan(20_000);
    expect(model.stats.rateLimited).toBe(1);
    const c = r.report.cases[0];
    expect(c.status).toBe('failed');
    expect(c.error ?? r.report.error).toMatchObject({ code: 'model_error', message: expect.stringMatching(/HTTP 429 and asked to wait 120 s, longer than the 30 s/) });
  });

  it.each(['openai', 'anthropic'] as const)('ends the case as a refusal when the %s model refuses', async (planner) => {
    const { run: r } = await run(planner, PLAN, { Look: [{ refuse: 'I can not help with browsing this site.' }] });
    const c = r.report.cases[0];
    expect(c.status).toBe('failed');
    expect(c.summary).toMatch(/^The model refused to go on \(its words, excerpt: "I can not help with browsing this site\."\)/);
    expect(c.usage.turns).toBe(1);
  });

  it('retries an answer that does not come within the request timeout', async () => {
    registerModelPlanner('openai', (_k, o) => new OpenAIPlanner({ ...o, requestTimeoutMs: 1000 }));
    try {
      const { run: r, model } = await run('openai', PLAN, { Look: look({ delayOnceMs: 2500 }) });
      expect(model.stats.delayed).toBe(1);
      expect(r.status, JSON.stringify(r.report.cases[0].error ?? r.report.error)).toBe('passed');
      expect(r.report.cases[0].usage.retries).toBe(1);
    } finally {
      registerModelPlanner('openai', (_k, o) => new OpenAIPlanner(o));
    }
  });

  it('ends the case at the run\'s token cap and skips the cases left, saying why', async () => {
    const plan = '#Case 1: Big\n- Verify "Buy milk" is visible\n#Case 2: Never\n- Verify "Pay rent" is visible';
    const big = { usage: { input: 900, output: 200 } };
    const { run: r } = await run('openai', plan, { Big: [{ tool: 'snapshot', args: {}, ...big }, { tool: 'assert', args: { step: 1, type: 'text_visible', text: 'Buy milk' }, ...big }], Never: look() }, { maxTokensPerRun: 1000 });
    const [c1, c2] = r.report.cases;
    expect(c1.status).toBe('failed');
    expect(c1.error).toMatchObject({ code: 'limit_exceeded', details: { limit: 'run_tokens', max: 1000 } });
    expect(c1.usage).toMatchObject({ turns: 1, inputTokens: 900, outputTokens: 200 });
    expect(c2.status).toBe('skipped');
    expect(c2.summary).toBe('The run reached its limit of 1000 tokens (1100 used) before this case.');
    expect(r.report.totals).toMatchObject({ turns: 1, inputTokens: 900, outputTokens: 200, skipped: 1, failed: 1 });
  });
});
