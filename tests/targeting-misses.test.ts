import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runRulesPlan, type RulesPlanRun } from './helpers/rules-plan.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// Honest misses (issue 11 §4), through the REST ladder and the rules planner, with the
// service's DEFAULT look-up budget (DESCRIBE_WAIT_MS unset): a target that is not there
// fails within 1.5 s (the error reports the budget and what it used), unless the request
// (timeoutMs) or the plan ("... when it appears") asks to wait; the nearest candidates come
// by text — text inside open shadow roots, nested ones too — and by role. Step durations are
// the real time, waits included. Wall-clock bounds here are generous upper bounds for a
// loaded machine (2.5 s), which the old 3–5 s misses would still fail.

let svc: TestService;
let fx: FixtureServer;
let dir: string;
let seq = 0;

beforeAll(async () => {
  // '' = the default DESCRIBE_WAIT_MS (the test helper otherwise sets 500).
  [svc, fx] = await Promise.all([startTestService({ DESCRIBE_WAIT_MS: '' }), startFixtureServer()]);
  dir = mkdtempSync(path.join(tmpdir(), 'ariadne-miss-'));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function plan(page: string, steps: string[]): Promise<RulesPlanRun> {
  // The flow settings' own default look-up budget (DEFAULT_SETTINGS.describeWaitMs).
  return runRulesPlan(svc, { url: `${fx.url}/plain-english/${page}`, steps, runId: `miss${++seq}`, artifactsDir: dir });
}

async function open(page: string): Promise<string> {
  const id = await svc.api.createSession();
  const res = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/plain-english/${page}` });
  expect(res.status).toBe(200);
  return id;
}

/** The page's #log (an <output>, a status element after the "Log:" text). */
async function logOf(id: string): Promise<string> {
  const res = await svc.api.snapshot(id, 'maxTokens=100000');
  const rest = String(res.body.snapshot).slice(String(res.body.snapshot).indexOf('Log:'));
  const out = /status[^:\n]*:\s*(.*)/.exec(rest);
  return out ? out[1].replace(/^"|"$/g, '') : '';
}

const names = (d: any) => (d.nearest as { name: string }[]).map((n) => n.name);

describe('REST: a description that finds nothing', () => {
  it('answers within the 1 s default budget, with nearest candidates by text (open shadow roots, nested) and by role', async () => {
    expect(svc.service.config.timeouts.describeWaitMs).toBe(1000);
    const id = await open('misses.html');
    try {
      for (const [description, expected] of [
        ['the Invoice archive button', 'Invoice archive for 2023'], // a <span> in an open shadow root
        ['Renewal settings', 'Renewal date: 1 March'], // a <div> in a shadow root inside a shadow root
      ] as const) {
        const started = Date.now();
        const res = await svc.api.action(id, { action: 'click', description });
        const wall = Date.now() - started;
        expect(res.status, description).toBe(409);
        expect(res.body.error.code).toBe('target_not_found');
        const d = res.body.error.details;
        expect(d.waitBudgetMs).toBe(1000);
        expect(d.waitedMs).toBeGreaterThanOrEqual(0);
        // The budget, plus at most one look-up pass begun before it ended: on CI's loaded
        // 2-core machine one pass has taken ~700 ms, and up to ~1.9 s on a slow day. A wait
        // that ignored the budget (the action's default 5 s) fails both.
        expect(d.waitedMs).toBeLessThan(3000);
        expect(wall).toBeLessThan(4000);
        expect(names(d), description).toContain(expected);
        expect(d.nearest.find((n: any) => n.name === expected).match).toMatch(/text/);
      }
      // No word matches anything: the controls of the kind asked for are offered instead.
      const none = await svc.api.action(id, { action: 'click', description: 'the Export button' });
      expect(none.status).toBe(409);
      expect(none.body.error.details.nearest).toContainEqual(expect.objectContaining({ role: 'button', name: 'Save profile', match: 'role' }));
      expect(await logOf(id)).toBe('');
    } finally {
      await svc.api.delete(`/v1/sessions/${id}`);
    }
  });

  it('waits longer only when the request asks (timeoutMs): a late button is found then, missed fast otherwise', async () => {
    const fast = await open('misses.html?late=2500');
    try {
      const started = Date.now();
      const res = await svc.api.action(fast, { action: 'click', description: 'Download statement' });
      expect(res.status).toBe(409);
      expect(res.body.error.details.waitBudgetMs).toBe(1000);
      expect(Date.now() - started).toBeLessThan(3500); // well under the 5 s a wait without the budget takes
    } finally {
      await svc.api.delete(`/v1/sessions/${fast}`);
    }
    const patient = await open('misses.html?late=1800');
    try {
      const res = await svc.api.action(patient, { action: 'click', description: 'Download statement', timeoutMs: 6000 });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.target.name).toBe('Download statement');
      expect(await logOf(patient)).toBe('statement;');
    } finally {
      await svc.api.delete(`/v1/sessions/${patient}`);
    }
  });
});

describe('plans: a step whose target is not there', () => {
  it('fails within the 1 s budget with the same diagnostics; its duration is the real time it took', async () => {
    const r = await plan('misses.html', ['Click the Invoice archive button']);
    const bad = r.steps.find((s) => s.status === 'failed')!;
    expect(bad.error?.code).toBe('target_not_found');
    const d = bad.error?.details as any;
    expect(d.waitBudgetMs).toBe(1000);
    expect(d.waitedMs).toBeLessThan(3000); // the budget plus at most one pass (above)
    // The duration includes the look-up's wait, and ends when the step failed.
    expect(bad.durationMs).toBeGreaterThanOrEqual(d.waitedMs);
    expect(bad.durationMs).toBeLessThan(4000);
    expect(names(d)).toContain('Invoice archive for 2023');
    expect(r.log).toBe('');
  });

  it('"... when it appears" waits for a late target, and the wait is in the step duration', async () => {
    const r = await plan('misses.html?late=1800', ['Click Download statement when it appears']);
    expect(r.steps.filter((s) => s.status === 'failed'), JSON.stringify(r.steps, null, 1)).toEqual([]);
    expect(r.log).toBe('statement;');
    const step = r.steps.find((s) => s.action === 'click')!;
    // The button came ~1.8 s after the page loaded: the step waited for it, and says so.
    expect(step.durationMs).toBeGreaterThan(1000);
    // Without the wording, the same late button is an honest miss within the budget.
    const miss = await plan('misses.html?late=2500', ['Click Download statement']);
    const bad = miss.steps.find((s) => s.status === 'failed')!;
    expect(bad.error?.code).toBe('target_not_found');
    expect((bad.error?.details as any).waitBudgetMs).toBe(1000);
    expect(bad.durationMs).toBeLessThan(2500);
    expect(miss.log).toBe('');
  });
});

// An ambiguous phrase is refused with candidates, each with the exact words that pick it;
// those words, fed back as they are, resolve to that candidate (REST and plans alike).
describe('ambiguity: every suggested wording picks its own candidate', () => {
  const cases = [
    { action: 'fill', description: 'Email', value: 'a@x.io', expected: ['billing a@x.io', 'shipping a@x.io'] }, // a label rung
    { action: 'click', description: 'the Edit button', expected: ['edit home', 'edit work'] }, // cards named by headings
    { action: 'click', description: 'Remove', expected: ['remove Pen', 'remove Ink', 'remove Paper'] }, // table rows
  ];

  it('REST: the refusal lists a wording per candidate, and each wording resolves to it', async () => {
    for (const c of cases) {
      const id = await open('ambiguous.html');
      try {
        const res = await svc.api.action(id, { action: c.action, description: c.description, ...(c.value ? { value: c.value } : {}) });
        expect(res.status, c.description).toBe(409);
        expect(res.body.error.code).toBe('ambiguous_target');
        const cands = res.body.error.details.candidates as { ref: string; wording?: string }[];
        expect(cands.map((x) => x.wording).every(Boolean), JSON.stringify(cands)).toBe(true);
        expect(cands).toHaveLength(c.expected.length);
        for (const cand of cands) {
          const again = await svc.api.action(id, { action: c.action, description: cand.wording, ...(c.value ? { value: c.value } : {}) });
          expect(again.status, `${cand.wording}: ${JSON.stringify(again.body)}`).toBe(200);
        }
        expect(await logOf(id)).toBe(c.expected.map((e) => `${e};`).join(''));
      } finally {
        await svc.api.delete(`/v1/sessions/${id}`);
      }
    }
  });

  it('plans: the failed step lists the wordings, and a plan made of them does each one', async () => {
    const verb = (c: (typeof cases)[number], target: string) => (c.action === 'fill' ? `Type ${c.value} into ${target}` : `Click ${target}`);
    for (const c of cases) {
      const r = await plan('ambiguous.html', [verb(c, c.description)]);
      const bad = r.steps.find((s) => s.status === 'failed')!;
      expect(bad.error?.code, c.description).toBe('ambiguous_target');
      const wordings = (bad.error?.details?.candidates as { wording?: string }[]).map((x) => x.wording!);
      expect(wordings.every(Boolean), JSON.stringify(wordings)).toBe(true);
      expect(r.log).toBe('');
      const again = await plan('ambiguous.html', wordings.map((w) => verb(c, w)));
      expect(again.steps.filter((s) => s.status === 'failed'), JSON.stringify(again.steps.filter((s) => s.status === 'failed'), null, 1)).toEqual([]);
      expect(again.log).toBe(c.expected.map((e) => `${e};`).join(''));
    }
  });
});
