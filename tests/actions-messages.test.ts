import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toAppError, withoutPlaywrightNames } from '@ariadne/page';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { startTestService, type TestService } from './helpers/service.js';

// User-facing messages never show Playwright's internal names (issue 24 item 8): the
// API call a message came from (`locator.fill:`, `page._wrapApiCall:` from calls the
// service makes quietly, `elementHandle.…:`) is removed at the single error-translation
// point (packages/page/src/errors.ts), whatever the caller (REST, MCP, flow reports).

const INTERNAL = /_wrapApiCall|\blocator\.\w+:|elementHandle\.|\bpage\.\w+:|\bframe\.\w+:/;

describe('withoutPlaywrightNames', () => {
  it('strips nested API prefixes and the Error tag, and keeps what went wrong', () => {
    // Messages as playwright-core 1.65 words them.
    const cases: [string, string][] = [
      ['page._wrapApiCall: No element matches selector "#x"', 'No element matches selector "#x"'],
      ['page._wrapApiCall: locator.click: Timeout 5000ms exceeded.', 'Timeout 5000ms exceeded.'],
      ['locator.fill: Error: Element is not an <input>, <textarea> or [contenteditable] element', 'Element is not an <input>, <textarea> or [contenteditable] element'],
      ['elementHandle.setInputFiles: Error: Non-multiple file input can only accept single file', 'Non-multiple file input can only accept single file'],
      ['frame.evaluate: Execution context was destroyed', 'Execution context was destroyed'],
      ['Call log:\n  - locator.click: waiting for locator("#a")', 'Call log:\n  - waiting for locator("#a")'],
    ];
    for (const [raw, clean] of cases) expect(withoutPlaywrightNames(raw)).toBe(clean);
    // Text that merely mentions a dotted name is left alone.
    expect(withoutPlaywrightNames('Clicked page.html: done')).toBe('Clicked page.html: done');
  });

  it('a timeout says why from the call log (covered, hidden), not only that time ran out', () => {
    const covered = toAppError(new Error('locator.hover: Timeout 10000ms exceeded.\nCall log:\n  - waiting for locator(\'#m\')\n  - attempting hover action\n    - <div class="cdk-overlay-backdrop"></div> intercepts pointer events\n  - retrying hover action'));
    expect(covered.code).toBe('timeout');
    expect(covered.message).toBe('Timeout 10000ms exceeded: <div class="cdk-overlay-backdrop"></div> intercepts pointer events.');
    const plain = toAppError(new Error('locator.click: Timeout 500ms exceeded.\nCall log:\n  - waiting for locator(\'#x\')'));
    expect(plain.message).toBe('Timeout 500ms exceeded.');
  });

  it('toAppError applies it to the message and the log', () => {
    const e = toAppError(new Error('page._wrapApiCall: locator.fill: Error: Element is not an <input>\nCall log:\n  - locator.fill: waiting for locator("#b")'));
    expect(e.code).toBe('action_failed');
    expect(e.message).toBe('Element is not an <input>');
    expect(JSON.stringify(e.details)).not.toMatch(INTERNAL);
  });
});

describe('over HTTP', () => {
  let svc: TestService;
  let fx: FixtureServer;
  beforeAll(async () => {
    [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  });
  afterAll(async () => {
    await svc?.stop();
    await fx?.close();
  });

  it('a failed fill and a failed upload answer without Playwright names', async () => {
    const id = await svc.api.createSession();
    expect((await svc.api.action(id, { action: 'navigate', url: `${fx.url}/effects/choices.html` })).status).toBe(200);
    const fill = await svc.api.action(id, { action: 'fill', selector: 'css=h1', value: 'x', timeoutMs: 1000 });
    expect(fill.status).toBeGreaterThanOrEqual(400);
    // Before: "locator.fill: Error: Element is not an <input> ..."
    expect(fill.body.error.message).not.toMatch(INTERNAL);
    expect(fill.body.error.message).toMatch(/not an <input>/);
    const up = await svc.api.action(id, { action: 'upload', selector: '#size', files: [{ name: 'a.txt', contentBase64: 'YQ==' }], timeoutMs: 1000 });
    expect(up.status).toBeGreaterThanOrEqual(400);
    expect(JSON.stringify(up.body.error)).not.toMatch(INTERNAL);
    await svc.api.delete(`/v1/sessions/${id}`);
  });
});
