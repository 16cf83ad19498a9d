import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';
import { startScriptedModel, type Move } from './helpers/scripted-model.js';

// The model planner's tool set, as a model uses it through POST /v1/runs: every REST
// action (hover, drag, check, select by label, upload, press on the page, scroll, back)
// on refs from its last snapshot, or from the changes an action answered since. After an
// action the model is told what changed (a diff with text), never handed a new full
// snapshot unless the page is a new document; an action that changed nothing says so.

let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService({ RUN_ASSERT_TIMEOUT_MS: '1500' }), startFixtureServer()]);
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function finished(id: string): Promise<any> {
  for (;;) {
    const r = await svc.api.get(`/v1/runs/${id}`);
    if (!['queued', 'running'].includes(r.body.status)) return r.body;
    await new Promise((x) => setTimeout(x, 200));
  }
}

const LAB = [
  '#Case 1: Every tool',
  '- Go to /model/lab.html',
  '- Hover over Invoice 17 and click Remove',
  '- Verify "removed Invoice 17" is visible',
  '- Tick Newsletter',
  '- Verify "newsletter on" is visible',
  '- Choose Large as the size',
  '- Verify "size l" is visible',
  '- Drag Card A to the Done column',
  '- Verify "dropped Card A" is visible',
  '- Attach notes.txt',
  '- Verify "attached notes.txt" is visible',
  '- Press Escape',
  '- Verify "escape pressed" is visible',
  '- Scroll down',
  '- Verify "scrolled down" is visible',
  '- Click Next page, then go back',
  '- Verify the URL contains lab.html',
  '#Case 2: A button that does nothing',
  '- Click "Does nothing"',
  '#Case 3: Icons and kinds',
  '- Click the trash icon of Draft 3',
  '- Verify "draft deleted" is visible',
].join('\n');

const ref = (role: string, name?: string) => ({ $ref: [role, name] });
const LAB_SCRIPT: Record<string, Move[]> = {
  'Every tool': [
    { tool: 'navigate', args: { url: '/model/lab.html', step: 1 } },
    { tool: 'hover', args: { ref: ref('group', 'Invoice 17'), step: 2 } },
    // The Remove button appeared on hover: its ref comes from the hover's changes.
    { tool: 'click', args: { ref: ref('button', 'Remove'), step: 2 } },
    { tool: 'assert', args: { step: 3, type: 'text_visible', text: 'removed Invoice 17' } },
    { tool: 'check', args: { ref: ref('checkbox', 'Newsletter'), step: 4 } },
    { tool: 'assert', args: { step: 5, type: 'text_visible', text: 'newsletter on' } },
    { tool: 'select', args: { ref: ref('combobox', 'Size'), value: 'Large', step: 6 } },
    { tool: 'assert', args: { step: 7, type: 'text_visible', text: 'size l' } },
    { tool: 'drag', args: { ref: ref('group', 'Card A'), targetRef: ref('region', 'Done column'), step: 8 } },
    { tool: 'assert', args: { step: 9, type: 'text_visible', text: 'dropped Card A' } },
    { tool: 'upload', args: { ref: ref('button', 'Attachment'), files: [{ name: 'notes.txt', content: 'hello' }], step: 10 } },
    { tool: 'assert', args: { step: 11, type: 'text_visible', text: 'attached notes.txt' } },
    { tool: 'press', args: { key: 'Escape', step: 12 } },
    { tool: 'assert', args: { step: 13, type: 'text_visible', text: 'escape pressed' } },
    { tool: 'scroll', args: { direction: 'down', amount: 1500, step: 14 } },
    { tool: 'assert', args: { step: 15, type: 'text_visible', text: 'scrolled down' } },
    { tool: 'click', args: { ref: ref('link', 'Next page'), step: 16 } },
    { tool: 'back', args: { step: 16 } },
    { tool: 'assert', args: { step: 17, type: 'url_contains', value: 'lab.html' } },
    { tool: 'complete_case', args: { passed: true, summary: 'every tool worked' } },
  ],
  'does nothing': [
    { tool: 'snapshot', args: {} },
    { tool: 'click', args: { ref: ref('button', 'Does nothing'), step: 1 } },
    { tool: 'complete_case', args: { passed: true, summary: 'clicked' } },
  ],
  // An icon with no accessible name: the snapshot shows the name a person would read.
  'Icons and kinds': [
    { tool: 'snapshot', args: {} },
    { tool: 'click', args: { ref: ref('generic', 'trash'), step: 1 } },
    { tool: 'assert', args: { step: 2, type: 'text_visible', text: 'draft deleted' } },
    { tool: 'complete_case', args: { passed: true, summary: 'deleted' } },
  ],
};

describe('the model planner\'s tools', () => {
  it('acts with every REST action on refs, is told each action\'s changes instead of a new snapshot, and hears when nothing changed', async () => {
    const model = await startScriptedModel({ apiKey: 'k', script: LAB_SCRIPT });
    try {
      const res = await svc.api.post('/v1/runs', { url: `${fx.url}/model/lab.html`, plan: LAB, planner: 'openai', model: 'scripted', apiKey: 'k', baseUrl: `${model.url}/v1`, options: { trace: false, screenshots: false } });
      expect(res.status, JSON.stringify(res.body)).toBe(202);
      const run = await finished(res.body.id);
      expect(model.stats.invalid).toEqual([]);
      const [c1, c2, c3] = run.report.cases;
      expect(c1.status, JSON.stringify(c1.steps.map((s: any) => [s.action, s.ref, s.status, s.error?.message]))).toBe('passed');
      expect(c1.steps.filter((s: any) => s.action !== 'assert').map((s: any) => s.action)).toEqual(['navigate', 'hover', 'click', 'check', 'select', 'drag', 'upload', 'press', 'scroll', 'click', 'back']);

      const turns = model.stats.turns.filter((t) => t.case === 'Every tool');
      const resultOf = (i: number) => turns[i + 1].results.at(-1)!;
      // The hover answered what appeared, with the new button's ref and name.
      expect(resultOf(1)).toMatch(/^ok: hover \w+ done; the page changed/);
      expect(resultOf(1)).toMatch(/\+ button "Remove" \(ref \w+\)/);
      // Actions on the same document answer a diff, never a whole snapshot ...
      for (const i of [1, 2, 4, 6, 8, 10, 12, 14]) expect(resultOf(i), `move ${i}`).not.toContain('[ref=');
      expect(resultOf(2)).toMatch(/\+ paragraph.*removed Invoice 17|text ".*" → ".*removed Invoice 17/);
      // ... a new document (navigate, a link, back) answers its whole snapshot,
      expect(resultOf(16)).toContain('A new page: its snapshot follows');
      expect(resultOf(17)).toContain('heading "Model lab"');
      // and only the latest whole snapshot travels with each request.
      expect(Math.max(...model.stats.turns.map((t) => t.snapshots))).toBe(1);
      expect(turns.at(-1)!.results.filter((r) => r.startsWith('(older snapshot')).length).toBeGreaterThanOrEqual(2);

      // The button with no effect: the model is told, and the report says it too.
      expect(c2.status).toBe('passed');
      const noop = model.stats.turns.filter((t) => t.case === 'does nothing')[2].results.at(-1)!;
      expect(noop).toMatch(/^ok: click \w+ done; no change seen: the page's snapshot is the same after the click( \(only the focus moved\))?, no navigation, no request/);
      expect(c2.steps[0].effect).toMatch(/^no change seen/);
      // The model's snapshot is the page layer's full render: inferred names and field kinds included.
      const shown = model.stats.turns.filter((t) => t.case === 'Icons and kinds')[1].results.at(-1)!;
      expect(shown).toMatch(/generic "trash" \[inferred=class\] \[ref=\w+\]/);
      expect(shown).toMatch(/textbox "Due" \[type=date\]/);
      expect(c3.status, JSON.stringify(c3.steps.map((s: any) => [s.action, s.ref, s.status, s.error?.message]))).toBe('passed');
      // Tokens: per case, and summed in the run's totals from the provider's usage fields.
      const sum = (k: 'inputTokens' | 'outputTokens') => model.stats.turns.reduce((n, t) => n + t[k], 0);
      expect(run.report.totals.inputTokens).toBe(sum('inputTokens'));
      expect(run.report.totals.outputTokens).toBe(sum('outputTokens'));
      expect(run.report.totals.turns).toBe(model.stats.turns.length);
      expect(c1.usage.inputTokens + c2.usage.inputTokens + c3.usage.inputTokens).toBe(sum('inputTokens'));
    } finally {
      await model.close();
    }
  });
});
