import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { connectHttpMcp, type HttpMcpClient } from './helpers/mcp.js';
import { loadConfig } from '../apps/server/src/config.js';

// MCP parity with Playwright MCP for acting (issue 24 items 3, 4, 5, 7): `target` takes a
// ref or a selector, answers say the effect in words and diffs carry text,
// browser_navigate answers with the snapshot, browser_evaluate runs a function (and an
// operator can turn it off).

let svc: TestService;
let fx: FixtureServer;
let c: HttpMcpClient;

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
  c = await connectHttpMcp(svc.url);
}, 60_000);
afterAll(async () => {
  await c?.close();
  await svc?.stop();
  await fx?.close();
});

describe('MCP acting', () => {
  it('browser_navigate answers with the page snapshot, bounded like browser_snapshot', async () => {
    const r = await c.call('browser_navigate', { url: `${fx.url}/effects/choices.html` });
    expect(r.isError).toBe(false);
    // Before: only "navigate ok" and the URL; the refs needed another call.
    expect(r.text).toMatch(/checkbox "Newsletter"[^\n]*\[(?:ref=)?e\d+\]/);
    expect(r.text).toMatch(/Effect: navigated/);
    const small = await c.call('browser_navigate', { url: `${fx.url}/effects/choices.html`, maxTokens: 60 });
    expect(small.text).toMatch(/truncated/);
  });

  it('target takes a selector longer than a ref; ambiguity lists candidates with refs; effects and diffs read as words', async () => {
    await c.call('browser_navigate', { url: `${fx.url}/effects/choices.html` });
    const many = await c.call('browser_click', { target: 'css=div.card > button.go' });
    expect(many.isError).toBe(true);
    expect(many.text).toMatch(/ambiguous_target/);
    expect(many.text, many.text).toMatch(/"ref":"(?:f\d+)?e\d+"/);

    // A selector well past the old 64-character limit.
    const sel = 'css=div.card:has(span.title:text-is("Beta")) >> css=button.go >> visible=true';
    expect(sel.length).toBeGreaterThan(64);
    const one = await c.call('browser_click', { target: sel });
    expect(one.isError, one.text).toBe(false);
    expect(one.text).toMatch(/click ok \(selector → (?:f\d+)?e\d+; page\.locator/);
    expect(one.text).toMatch(/Effect: \d+ DOM change/);
    // The diff shows the paragraph's new text in words, not JSON.
    expect(one.text).toMatch(/~ paragraph \[(?:f\d+)?e\d+\]: text "none" → "Beta"/);
    expect(one.text).not.toMatch(/content=|\{"role"/);

    // A heading has no handler: once focus has left the button, clicking it changes nothing.
    await c.call('browser_click', { target: 'css=h1' });
    const inert = await c.call('browser_click', { target: 'css=h1' });
    expect(inert.text).toMatch(/Effect: none — the page did not react/);
  });

  it('browser_type with submit proves the submit, or says no_effect', async () => {
    await c.call('browser_navigate', { url: `${fx.url}/effects/todo-controlled.html` });
    const ok = await c.call('browser_type', { target: '#new', text: 'Buy milk', submit: true });
    expect(ok.isError, ok.text).toBe(false);
    expect(ok.text).toMatch(/\+ listitem: "Buy milk"|\+ listitem "Buy milk"/);
    const inert = await c.call('browser_type', { target: '#search', text: 'lamp', submit: true });
    expect(inert.isError).toBe(true);
    expect(inert.text).toMatch(/Error no_effect/);
  });

  it('a click that never reached its element is an error naming what took it', async () => {
    await c.call('browser_navigate', { url: `${fx.url}/effects/shift.html` });
    await c.call('browser_type', { target: '#email', text: 'bob' });
    const r = await c.call('browser_click', { target: 'role=button[name="Send"]' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/Error click_intercepted/);
    expect(r.text).toMatch(/form#f/);
  });

  it('browser_evaluate runs a function on the page or on a target, with a bounded, safe result', async () => {
    await c.call('browser_navigate', { url: `${fx.url}/effects/choices.html` });
    const title = await c.call('browser_evaluate', { function: '() => document.title' });
    expect(title.isError, title.text).toBe(false);
    expect(title.text).toContain('"Choices"');
    const onEl = await c.call('browser_evaluate', { function: '(el) => el.options.length', target: '#size' });
    expect(onEl.text).toMatch(/Result \(number\):\n3/);
    const cyclic = await c.call('browser_evaluate', { function: '() => { const a = { n: document.body }; a.self = a; return a; }' });
    expect(cyclic.isError).toBe(false);
    expect(cyclic.text).toContain('[circular]');
    expect(cyclic.text).toContain('<body>');
    const huge = await c.call('browser_evaluate', { function: "async () => 'x'.repeat(100000)" });
    expect(huge.text).toMatch(/cut: 100002 chars in all/);
    expect(huge.text.length).toBeLessThan(25_000);
    const bad = await c.call('browser_evaluate', { function: 'this is not code' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/invalid_request/);
    const thrown = await c.call('browser_evaluate', { function: '() => { throw new Error("boom") }' });
    expect(thrown.isError).toBe(true);
    expect(thrown.text).toContain('boom');
    expect(thrown.text).not.toMatch(/jsHandle\.|_wrapApiCall/);
  });
});

describe('ALLOW_EVALUATE=0', () => {
  it('is read from the environment, and the service then refuses evaluate with 403 evaluate_disabled', async () => {
    expect(loadConfig({ ALLOW_EVALUATE: '0' }).security.allowEvaluate).toBe(false);
    expect(loadConfig({}).security.allowEvaluate).toBe(true);
    // The running service with the setting off (the route reads it per call): no second service to start.
    const security = svc.service.config.security;
    security.allowEvaluate = false;
    try {
      const r = await c.call('browser_evaluate', { function: '() => 1' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/Error evaluate_disabled \(HTTP 403\)/);
    } finally {
      security.allowEvaluate = true;
    }
    expect((await c.call('browser_evaluate', { function: '() => 1' })).isError).toBe(false);
  });
});
