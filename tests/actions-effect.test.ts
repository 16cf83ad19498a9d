import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type TestService } from './helpers/service.js';

// Actions say what they did (issue 24 item 4, issue 26 "every action verifies its effect"):
// every answer carries `effect`; a click whose event never reached the element fails with
// click_intercepted; type/fill with submit prove the submit or fail with no_effect; check
// and select read the state back. Real server over HTTP, real Chromium, fixture pages in
// tests/fixtures/effects/.

let svc: TestService;
let fx: FixtureServer;
const opened: string[] = [];

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((id) => svc.api.delete(`/v1/sessions/${id}`)));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

async function open(page: string): Promise<string> {
  const id = await svc.api.createSession();
  opened.push(id);
  const nav = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/effects/${page}` });
  expect(nav.status).toBe(200);
  return id;
}

async function yaml(id: string): Promise<string> {
  const res = await svc.api.snapshot(id, 'maxTokens=100000');
  expect(res.status).toBe(200);
  return res.body.snapshot;
}


describe('effect on every action answer', () => {
  it("says changed with the DOM count when a click's handler ran, and changed: false when nothing reacted", async () => {
    const id = await open('hover-swap.html');
    const snap = await yaml(id);
    const live = await svc.api.action(id, { action: 'click', ref: refOf(snap, 'button', 'Plain') });
    expect(live.status).toBe(200);
    expect(live.body.effect).toMatchObject({ changed: true, navigated: false });
    expect(live.body.effect.dom).toBeGreaterThan(0);

    const inert = await svc.api.action(id, { action: 'click', ref: refOf(snap, 'button', 'Does nothing') });
    expect(inert.status).toBe(200);
    // Focus moves to the clicked button: that is the only thing a click on an inert button does.
    expect(inert.body.effect.dom).toBe(0);
    expect(inert.body.effect.requests).toBe(0);
    expect(inert.body.effect.navigated).toBe(false);

    // Clicking it again: focus is already there, nothing at all reacts.
    const again = await svc.api.action(id, { action: 'click', ref: refOf(snap, 'button', 'Does nothing') });
    expect(again.body.effect).toMatchObject({ changed: false, dom: 0, requests: 0, navigated: false, focus: false, values: false });
  });

  it('reports a navigation with the new URL', async () => {
    const id = await open('shift.html');
    const nav = await svc.api.action(id, { action: 'navigate', url: `${fx.url}/effects/choices.html` });
    expect(nav.body.effect).toMatchObject({ changed: true, navigated: true });
    expect(nav.body.effect.url).toContain('choices.html');
  });
});

describe('click_intercepted', () => {
  it('fails a click whose event went to another element (a blur handler moved the button between press and release)', async () => {
    const id = await open('shift.html');
    const snap = await yaml(id);
    expect((await svc.api.action(id, { action: 'fill', ref: refOf(snap, 'textbox', 'Email'), value: 'bob' })).status).toBe(200);
    const res = await svc.api.action(id, { action: 'click', ref: refOf(snap, 'button', 'Send') });
    // Before: 200 "click ok" while the page's handler never ran.
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('click_intercepted');
    expect(res.body.error.details.receivedBy).toMatch(/^form#f/);
    expect(res.body.error.message).toContain('did not reach');
    // And indeed the page did not send.
    const out = await svc.api.get(`/v1/sessions/${id}/roles/default/inspect/text?selector=${encodeURIComponent('#out')}`);
    expect(JSON.stringify(out.body)).toContain('not sent');
  });

  it('names the overlay that keeps taking a click instead of a bare timeout', async () => {
    const id = await open('hover-swap.html');
    const res = await svc.api.action(id, { action: 'click', selector: '#archive', timeoutMs: 1500 });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('click_intercepted');
    expect(res.body.error.details.receivedBy).toMatch(/veil/);
    expect(res.body.error.message).not.toMatch(/locator\.click|Timeout \d+ms/);
  });
});

describe('type / fill with submit', () => {
  it('fill with submit presses Enter once the component has taken the text, and the todo is added', async () => {
    const id = await open('todo-controlled.html');
    const res = await svc.api.action(id, { action: 'fill', selector: '#new', value: 'Buy milk', submit: true });
    expect(res.status).toBe(200);
    expect(res.body.result).toMatchObject({ submitted: true });
    expect(res.body.effect.changed).toBe(true);
    // Before: submit was ignored by fill; the text stayed in the field and no todo was added.
    const snap = await yaml(id);
    expect(snap).toMatch(/listitem[^\n]*Buy milk/);
    expect(snap).toContain('1 item left');
  });

  it('type with submit adds the todo too (key by key)', async () => {
    const id = await open('todo-controlled.html');
    const res = await svc.api.action(id, { action: 'type', selector: '#new', text: 'Walk the dog', submit: true });
    expect(res.status).toBe(200);
    expect(await yaml(id)).toMatch(/listitem[^\n]*Walk the dog/);
  });

  it('fails with no_effect when Enter did nothing and the field still holds the text', async () => {
    const id = await open('todo-controlled.html');
    const res = await svc.api.action(id, { action: 'type', selector: '#search', text: 'lamp', submit: true });
    // Before: 200 ok.
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('no_effect');
    expect(res.body.error.details.value).toBeDefined();
  });
});

describe('check and select read the state back', () => {
  it('check_failed when the page undoes the click', async () => {
    const id = await open('choices.html');
    const res = await svc.api.action(id, { action: 'check', selector: '#locked' });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('check_failed');
    const okRes = await svc.api.action(id, { action: 'check', selector: '#news' });
    expect(okRes.status).toBe(200);
    expect(okRes.body.result).toMatchObject({ checked: true, changed: true });
  });

  it('select_failed when the page forces the select back', async () => {
    const id = await open('choices.html');
    const res = await svc.api.action(id, { action: 'select', selector: '#plan', value: 'Pro' });
    // Before: 200 with selected ["pro"] while the select showed "Free".
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('select_failed');
    expect(res.body.error.details.observed).toEqual(['Free']);
    const good = await svc.api.action(id, { action: 'select', selector: '#size', value: 'Large' });
    expect(good.status).toBe(200);
    expect(good.body.result.showing).toEqual(['Large']);
  });
});

describe('selector targets', () => {
  it('acts on exactly one match, and the answer carries its ref and a verified locator', async () => {
    const id = await open('choices.html');
    const res = await svc.api.action(id, { action: 'click', selector: '.card:has-text("Beta") >> role=button' });
    expect(res.status).toBe(200);
    expect(res.body.target.resolvedBy).toBe('selector');
    expect(res.body.target.ref).toMatch(/^e\d+$/);
    expect(res.body.target.locator).toBe('page.locator(".card:has-text(\\"Beta\\") >> role=button")');
    expect(res.body.target).toMatchObject({ role: 'button', name: 'Open' });
    // The ref is the one the snapshot shows for that button, and acting on it works.
    const again = await svc.api.action(id, { action: 'click', ref: res.body.target.ref });
    expect(again.status).toBe(200);
    expect(await yaml(id)).toContain('paragraph [ref=');
  });

  it('ambiguous_target lists every candidate with its ref, role and name', async () => {
    const id = await open('choices.html');
    const res = await svc.api.action(id, { action: 'click', selector: 'css=button.go' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('ambiguous_target');
    expect(res.body.error.details.matches).toBe(2);
    const c = res.body.error.details.candidates;
    expect(c).toHaveLength(2);
    for (const x of c) expect(x).toMatchObject({ ref: expect.stringMatching(/^e\d+$/), role: 'button', name: 'Open' });
    expect(c[0].ref).not.toBe(c[1].ref);
    // A candidate's ref acts on that very element.
    const pick = await svc.api.action(id, { action: 'click', ref: c[1].ref });
    expect(pick.status).toBe(200);
    expect(await yaml(id)).toMatch(/paragraph[^\n]*Beta/);
  });

  it('a selector that matches nothing is target_not_found; a malformed one is invalid_selector; xpath and text= work', async () => {
    const id = await open('choices.html');
    const none = await svc.api.action(id, { action: 'click', selector: '#nope' });
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('target_not_found');
    const bad = await svc.api.action(id, { action: 'click', selector: 'div[[' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('invalid_selector');
    expect(bad.body.error.message).not.toMatch(/locator\.|_wrapApiCall|elementHandle\./);
    const x = await svc.api.action(id, { action: 'check', selector: 'xpath=//input[@id="news"]' });
    expect(x.status).toBe(200);
    const t = await svc.api.action(id, { action: 'select', selector: 'internal:label="Size"i', value: 'Medium' });
    expect(t.status).toBe(200);
    const both = await svc.api.action(id, { action: 'click', selector: '#news', ref: 'e1' });
    expect(both.status).toBe(400);
  });
});
