import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';
import { startScriptedModel, type Move } from './helpers/scripted-model.js';

// `ariadne eval` as an operator runs it (the real command, in a child process, against
// a running Ariadne): a sample of the project's corpus with a scripted OpenAI-compatible
// model that solves one episode, goes silently wrong on two (claims a pass on a plan that
// must fail; ticks the wrong box and says it passed — only the page's record shows it)
// and refuses one; and a folder of plans with expected outcomes, with the rules planner
// and with the anthropic planner.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/ariadne.mjs');

let svc: TestService;
let fx: FixtureServer;
let tmp: string;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ RUN_ASSERT_TIMEOUT_MS: '700' }), startFixtureServer()]);
  tmp = mkdtempSync(path.join(tmpdir(), 'ariadne-eval-test-'));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function ariadne(args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: ROOT, timeout: 240_000, env: { ...process.env, ARIADNE_SERVER: '', NO_COLOR: '1' } }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 99) : 0, out: stdout, err: stderr });
    });
  });
}

const ref = (role: string, name?: string) => ({ $ref: [role, name] });

describe('ariadne eval', () => {
  it('runs a sample of the project corpus with a scripted model and tells solved, honest failure and silent wrong apart', async () => {
    const go: Move = { tool: 'navigate', args: { url: { $url: true }, step: 1 } };
    const script: Record<string, Move[]> = {
      // A malformed call first (arguments that are not JSON): answered with an error, never run.
      'todo-react/add/plan2': [go, { tool: 'type', rawArguments: '{"ref": "e' }, { tool: 'type', args: { ref: ref('textbox', 'What needs to be done?'), text: 'Call mom', submit: true, step: 2 } }, { tool: 'complete_case', args: { passed: true, summary: 'added' } }],
      // A must-fail plan ("Tick Feed the cat": there is none) that the model claims it did.
      'todo-react/absent-item/plan1': [go, { tool: 'complete_case', args: { passed: true, summary: 'ticked it' } }],
      // "Tick Buy milk": the model ticks Pay rent's box instead and says it passed.
      'todo-react/tick/plan3': [go, { tool: 'uncheck', args: { ref: ref('checkbox', 'Pay rent'), step: 2 } }, { tool: 'complete_case', args: { passed: true, summary: 'ticked' } }],
      'todo-react/untick/plan1': [{ refuse: 'I will not do that.' }],
    };
    const model = await startScriptedModel({ apiKey: 'k', script });
    const json = path.join(tmp, 'corpus.json');
    try {
      const r = await ariadne(['eval', 'tests/corpus', ...Object.keys(script).flatMap((id) => ['--page', id]), '--planner', 'openai', '--base-url', `${model.url}/v1`, '--model', 'scripted', '--model-key', 'k', '--server', svc.url, '--json', json]);
      expect(model.stats.invalid).toEqual([]);
      // A silent wrong makes the eval fail.
      expect(r.code, r.err + r.out).toBe(1);
      const report = JSON.parse(readFileSync(json, 'utf8'));
      const byId = Object.fromEntries(report.results.map((x: any) => [x.id, x]));
      expect(byId['todo-react/add/plan2']).toMatchObject({ verdict: 'solved', status: 'passed', turns: 4 });
      expect(model.stats.turns.find((t) => t.case === 'todo-react/add/plan2' && t.turn === 2)!.results.at(-1)).toMatch(/invalid_tool_call.*not valid JSON/);
      expect(byId['todo-react/absent-item/plan1']).toMatchObject({ verdict: 'silent', expect: 'fail', why: 'passed, but this plan must fail' });
      expect(byId['todo-react/tick/plan3'].verdict).toBe('silent');
      expect(byId['todo-react/tick/plan3'].why).toMatch(/^passed, but the page disagrees: missing event .*Buy milk/);
      expect(byId['todo-react/untick/plan1']).toMatchObject({ verdict: 'honest', status: 'failed', turns: 1 });
      expect(byId['todo-react/untick/plan1'].why).toMatch(/The model refused/);
      // Tokens per case are the provider's usage fields, summed over the case's turns.
      for (const id of Object.keys(script)) {
        const turns = model.stats.turns.filter((t) => t.case === id);
        expect(byId[id].inputTokens, id).toBe(turns.reduce((n, t) => n + t.inputTokens, 0));
        expect(byId[id].outputTokens, id).toBe(turns.reduce((n, t) => n + t.outputTokens, 0));
      }
      expect(report.totals).toMatchObject({ cases: 4, solved: 1, honest: 1, silent: 2, turns: model.stats.turns.length });
      // What the operator reads.
      expect(r.out).toMatch(/^solved +todo-react\/add\/plan2 +\[expect pass, passed\] +4 turns, \d+\+\d+ tok, [\d.]+ s$/m);
      expect(r.out).toMatch(/^SILENT WRONG +todo-react\/absent-item\/plan1 +\[expect fail, passed\]/m);
      expect(r.out).toMatch(/^honest failure +todo-react\/untick\/plan1/m);
      expect(r.out).toMatch(/openai scripted at .*: 4 case\(s\)\n {2}solved 1 \(25%\), honest failure 1 \(25%\), silent wrong 2 \(50%\)\n {2}\d+ model turns, \d+ input \+ \d+ output tokens, [\d.]+ s/);
    } finally {
      await model.close();
    }
  });

  it('runs a folder of plans with expected outcomes (rules planner, then anthropic)', async () => {
    const dir = path.join(tmp, 'plans');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a-list.md'), '---\nurl: /model/todos.html\nexpect: pass\n---\n# Case 1: the list\n- Verify "Buy milk" is visible\n');
    writeFileSync(path.join(dir, 'b-absent.md'), '---\nurl: /model/todos.html   # the same page\nexpect: fail\n---\n# Case 1: an absent entry\n- Verify "Wash the car" is visible\n');
    writeFileSync(path.join(dir, 'c-wrong.md'), '---\nurl: /model/todos.html\n---\n# Case 1: a wrong expectation\n- Verify "Sell the house" is visible\n');
    const rules = await ariadne(['eval', dir, '--planner', 'rules', '--url', fx.url, '--server', svc.url]);
    expect(rules.code, rules.err + rules.out).toBe(0);
    expect(rules.out).toMatch(/^solved +a-list +\[expect pass, passed\] +0 turns, 0\+0 tok/m);
    expect(rules.out).toMatch(/^solved +b-absent +\[expect fail, failed\]/m);
    expect(rules.out).toMatch(/^honest failure +c-wrong +\[expect pass, failed\]/m);
    // The failure says why, with the evidence.
    expect(rules.out).toMatch(/assertion_failed: Expected "Sell the house" is visible; closest text on the page:/);
    expect(rules.out).toMatch(/solved 2 \(67%\), honest failure 1 \(33%\), silent wrong 0 \(0%\)/);

    const model = await startScriptedModel({ apiKey: 'k', script: { 'the list': [{ tool: 'assert', args: { step: 1, type: 'text_visible', text: 'Buy milk' }, rateLimit: { times: 1, retryAfter: '0' } }, { tool: 'complete_case', args: { passed: true, summary: 'seen' } }] } });
    try {
      const anth = await ariadne(['eval', dir, '--limit', '1', '--planner', 'anthropic', '--base-url', model.url, '--model', 'scripted', '--model-key', 'k', '--url', fx.url, '--server', svc.url]);
      expect(anth.code, anth.err + anth.out).toBe(0);
      expect(model.stats.rateLimited).toBe(1);
      expect(anth.out).toMatch(/^solved +a-list +\[expect pass, passed\] +2 turns, \d+\+\d+ tok, [\d.]+ s, 1 retries$/m);
    } finally {
      await model.close();
    }

    // A folder the eval cannot read is a usage error, said in one line.
    const bad = await ariadne(['eval', path.join(tmp, 'nothing-here')]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^ariadne eval: cannot read the folder/);
  });
});
