import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { refOf, startTestService, type TestService } from './helpers/service.js';
import { expectAbout, pngSize } from './helpers/images.js';

// Every action type through HTTP against real Chromium, each checked by what it did to
// the page (read back from a fresh snapshot or the page's own report). The read-only
// endpoints (screenshot, console, network, ...) are in observe.test.ts.

let svc: TestService;
let fx: FixtureServer;
const opened: string[] = [];

beforeAll(async () => {
  [svc, fx] = await Promise.all([startTestService(), startFixtureServer()]);
});
afterEach(async () => {
  // The pool is small: give every context back after each test.
  await Promise.all(opened.splice(0).map((id) => svc.api.delete(`/v1/sessions/${id}`)));
});
afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

type Node = { role: string; name?: string; ref?: string; text?: string; children?: (Node | string)[]; [k: string]: unknown };

async function open(page: string): Promise<string> {
  const id = await svc.api.createSession();
  opened.push(id);
  await ok(id, { action: 'navigate', url: `${fx.url}/${page}` });
  return id;
}

// The last YAML snapshot of each session: refs stay the same while an element keeps
// its role and name, so ref look-ups reuse it until the page navigates.
const lastYaml = new Map<string, string>();

function act(id: string, body: Record<string, unknown>) {
  if (['navigate', 'back', 'forward', 'reload'].includes(String(body.action))) lastYaml.delete(id);
  return svc.api.action(id, body);
}

async function ok(id: string, body: Record<string, unknown>): Promise<any> {
  const res = await act(id, body);
  if (res.status !== 200) throw new Error(`${String(body.action)} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

async function yaml(id: string): Promise<string> {
  const res = await svc.api.snapshot(id, 'maxTokens=100000');
  expect(res.status).toBe(200);
  lastYaml.set(id, res.body.snapshot);
  return res.body.snapshot;
}

async function tree(id: string): Promise<Node[]> {
  const res = await svc.api.snapshot(id, 'format=json&maxTokens=100000');
  expect(res.status).toBe(200);
  return res.body.snapshot;
}

function walk(nodes: (Node | string)[], fn: (n: Node | string) => void): void {
  for (const n of nodes) {
    fn(n);
    if (typeof n === 'object' && n.children) walk(n.children, fn);
  }
}

/** Every piece of visible text in the snapshot: text children and text props. */
async function texts(id: string): Promise<string[]> {
  const out: string[] = [];
  walk(await tree(id), (n) => {
    if (typeof n === 'string') out.push(n);
    else if (typeof n.text === 'string') out.push(n.text);
  });
  return out;
}

async function node(id: string, role: string, name: string): Promise<Node> {
  let hit: Node | undefined;
  walk(await tree(id), (n) => {
    if (!hit && typeof n === 'object' && n.role === role && n.name === name) hit = n;
  });
  if (!hit) throw new Error(`no ${role} "${name}"`);
  return hit;
}

async function valueOf(id: string, role: string, name: string): Promise<string> {
  const n = await node(id, role, name);
  return n.text ?? (n.children ?? []).filter((c) => typeof c === 'string').join('');
}

async function refFor(id: string, role: string, name: string): Promise<string> {
  const cached = lastYaml.get(id);
  if (cached) {
    try {
      return refOf(cached, role, name);
    } catch {
      /* not in the last snapshot: take a fresh one */
    }
  }
  return refOf(await yaml(id), role, name);
}

describe('navigation', () => {
  it('navigates, goes back and forward, and reloads', async () => {
    const id = await open('action-lab.html');
    expect(await texts(id)).toContain('loads: 1');

    const nav = await ok(id, { action: 'navigate', url: `${fx.url}/login.html` });
    expect(nav.navigated).toBe(true);
    expect(nav.title).toBe('Sign in');
    expect(nav.result).toEqual({ status: 200 });

    const back = await ok(id, { action: 'back' });
    expect(back.url).toBe(`${fx.url}/action-lab.html`);
    expect(back.title).toBe('Action lab');
    expect(back.navigated).toBe(true);

    const fwd = await ok(id, { action: 'forward' });
    expect(fwd.url).toBe(`${fx.url}/login.html`);
    expect(await refFor(id, 'button', 'Sign in')).toBeTruthy();

    await ok(id, { action: 'back' });
    // The page counts its loads in sessionStorage: a reload runs it again.
    const before = (await texts(id)).find((t) => t.startsWith('loads:'));
    await ok(id, { action: 'reload' });
    const after = (await texts(id)).find((t) => t.startsWith('loads:'));
    expect(Number(after!.split(': ')[1])).toBe(Number(before!.split(': ')[1]) + 1);

    // A relative URL resolves against the current page, like a link.
    const rel = await ok(id, { action: 'navigate', url: 'products.html' });
    expect(rel.url).toBe(`${fx.url}/products.html`);
  });

  it('blocks file:, chrome:, javascript: and data: URLs with 403 navigation_blocked', async () => {
    const id = await open('login.html');
    for (const url of ['file:///etc/passwd', 'chrome://version', 'javascript:alert(1)', 'data:text/html,<h1>hi</h1>', 'FILE:///etc/hosts']) {
      const res = await act(id, { action: 'navigate', url });
      expect(res.status, url).toBe(403);
      expect(res.body.error.code).toBe('navigation_blocked');
    }
    // The page stayed where it was.
    const snap = await svc.api.snapshot(id);
    expect(snap.body.url).toBe(`${fx.url}/login.html`);
  });

  it('answers 400 invalid_request naming the field for bad action bodies', async () => {
    const id = await open('action-lab.html');
    const unknown = await act(id, { action: 'frobnicate' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('invalid_request');
    expect(unknown.body.error.details.field).toBe('action');

    const chord = await refFor(id, 'textbox', 'Chord input');
    const noValue = await act(id, { action: 'fill', ref: chord });
    expect(noValue.status).toBe(400);
    expect(noValue.body.error.code).toBe('invalid_request');
    expect(noValue.body.error.details.field).toBe('value');

    // A missing field is named even before the target is looked up.
    const noValueNoRef = await act(id, { action: 'fill', ref: 'e99999' });
    expect(noValueNoRef.status).toBe(400);
    expect(noValueNoRef.body.error.details.field).toBe('value');

    const noTarget = await act(id, { action: 'click' });
    expect(noTarget.status).toBe(400);
    expect(noTarget.body.error.details.field).toBe('ref');

    const noUrl = await act(id, { action: 'navigate' });
    expect(noUrl.status).toBe(400);
    expect(noUrl.body.error.details.field).toBe('url');

    const noKey = await act(id, { action: 'press' });
    expect(noKey.status).toBe(400);
    expect(noKey.body.error.details.field).toBe('key');
    for (const key of ['Foo', 'Control+', 'Bogus+x']) {
      const badKey = await act(id, { action: 'press', key, ...(key === 'Bogus+x' ? { ref: chord } : {}) });
      expect(badKey.status, key).toBe(400);
      expect(badKey.body.error).toMatchObject({ code: 'invalid_request', details: { field: 'key' } });
      expect(badKey.body.error.message).toMatch(/^Unknown key: /);
    }

    const extra = await act(id, { action: 'click', ref: chord, bogus: 1 });
    expect(extra.status).toBe(400);
    expect(extra.body.error.details.field).toBe('bogus');
  });
});

describe('pointer actions', () => {
  it('clicks with right, middle, Shift and double', async () => {
    const id = await open('controls.html');
    await ok(id, { action: 'click', ref: await refFor(id, 'button', 'Double click me'), double: true });
    await ok(id, { action: 'click', ref: await refFor(id, 'button', 'Right click me'), button: 'right' });
    await ok(id, { action: 'click', ref: await refFor(id, 'button', 'Modifier click'), modifiers: ['Shift'] });
    const y = await yaml(id);
    expect(y).toContain('button "Double clicked"');
    expect(y).toContain('button "Right clicked"');
    expect(y).toContain('button "Shift clicked"');

    const lab = await open('action-lab.html');
    const mouse = await refFor(lab, 'button', 'Mouse target');
    await ok(lab, { action: 'click', ref: mouse, button: 'middle' });
    expect(await texts(lab)).toContain('mouse: button=1');
    await ok(lab, { action: 'click', ref: mouse, button: 'right', modifiers: ['Shift', 'Alt'] });
    expect(await texts(lab)).toContain('mouse: button=2 +shift +alt');
    await ok(lab, { action: 'click', ref: mouse });
    expect(await texts(lab)).toContain('mouse: button=0');
  });

  it('hovers and the tooltip appears', async () => {
    const id = await open('controls.html');
    expect(await texts(id)).not.toContain('Tooltip shown');
    await ok(id, { action: 'hover', ref: await refFor(id, 'button', 'Hover me') });
    expect(await texts(id)).toContain('Tooltip shown');
  });

  it('drags a ref onto targetRef', async () => {
    const id = await open('controls.html');
    const res = await ok(id, {
      action: 'drag',
      ref: await refFor(id, 'button', 'Draggable item'),
      targetRef: await refFor(id, 'region', 'Drop zone'),
    });
    expect(res.result.targetRef).toMatch(/^[a-z0-9]+$/);
    expect(await texts(id)).toContain('dropped: item');

    const missing = await act(id, { action: 'drag', ref: await refFor(id, 'button', 'Draggable item') });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.field).toBe('targetRef');
  });

  it('scrolls the page and an element: directions, top/bottom, into view', async () => {
    const id = await open('action-lab.html');
    const down = await ok(id, { action: 'scroll', direction: 'down', amount: 500 });
    expect(down.result.scrollY).toBe(500);
    await ok(id, { action: 'wait_for', text: 'scroll: y=500', timeoutMs: 2000 });
    const up = await ok(id, { action: 'scroll', direction: 'up', amount: 200 });
    expect(up.result.scrollY).toBe(300);
    await ok(id, { action: 'wait_for', text: 'scroll: y=300', timeoutMs: 2000 });
    const bottom = await ok(id, { action: 'scroll', direction: 'bottom' });
    expect(bottom.result.scrollY).toBe(bottom.result.scrollHeight - bottom.result.clientHeight);
    await ok(id, { action: 'wait_for', text: `scroll: y=${bottom.result.scrollY}`, timeoutMs: 2000 });
    await ok(id, { action: 'scroll', direction: 'top' });
    await ok(id, { action: 'wait_for', text: 'scroll: y=0', timeoutMs: 2000 });

    // Into view: the far button scrolls the page down to it.
    await ok(id, { action: 'scroll', ref: await refFor(id, 'button', 'Far button') });
    const into = await ok(id, { action: 'scroll', direction: 'down', amount: 1 });
    expect(into.result.scrollY).toBeGreaterThan(2000);

    // An element scrolls on its own: right and down inside the box, the page stays.
    const box = await refFor(id, 'region', 'Wide box');
    const right = await ok(id, { action: 'scroll', ref: box, direction: 'right', amount: 150 });
    expect(right.result).toMatchObject({ scrollX: 150, scrollY: 0 });
    await ok(id, { action: 'scroll', ref: box, direction: 'down', amount: 70 });
    await ok(id, { action: 'wait_for', text: 'box: left=150 top=70', timeoutMs: 2000 });
    const boxBottom = await ok(id, { action: 'scroll', ref: box, direction: 'bottom' });
    expect(boxBottom.result.scrollY).toBe(boxBottom.result.scrollHeight - boxBottom.result.clientHeight);
    await ok(id, { action: 'scroll', ref: box, direction: 'left', amount: 150 });
    // Scroll events arrive a frame later: wait for the page's own report.
    await ok(id, { action: 'wait_for', text: 'box: left=0 top=', timeoutMs: 2000 });
    const t = (await texts(id)).find((s) => s.startsWith('box:'));
    expect(t).toMatch(/^box: left=0 top=(\d+)$/);
    expect(Number(/top=(\d+)/.exec(t!)![1])).toBeGreaterThan(800);
  });
});

describe('keyboard and form actions', () => {
  it('types replacing, appending, and submitting with Enter', async () => {
    const id = await open('controls.html');
    const notes = await refFor(id, 'textbox', 'Notes');
    await ok(id, { action: 'fill', ref: notes, value: 'first' });
    expect(await valueOf(id, 'textbox', 'Notes')).toBe('first');
    await ok(id, { action: 'type', ref: notes, text: 'second' });
    expect(await valueOf(id, 'textbox', 'Notes')).toBe('second');
    await ok(id, { action: 'type', ref: notes, text: ' third', append: true });
    expect(await valueOf(id, 'textbox', 'Notes')).toBe('second third');
    // The field names agents mix up: type takes "value", fill takes "text"; neither is still a 400.
    await ok(id, { action: 'type', ref: notes, value: 'by value' });
    expect(await valueOf(id, 'textbox', 'Notes')).toBe('by value');
    await ok(id, { action: 'fill', ref: notes, text: 'by text' });
    expect(await valueOf(id, 'textbox', 'Notes')).toBe('by text');
    const neither = await svc.api.action(id, { action: 'type', ref: notes });
    expect(neither.status).toBe(400);
    expect(neither.body.error.code).toBe('invalid_request');
    await ok(id, { action: 'fill', ref: notes, value: 'second third' });

    const search = await refFor(id, 'searchbox', 'Search');
    expect(await texts(id)).toContain('not submitted');
    await ok(id, { action: 'type', ref: search, text: 'phones', submit: true });
    expect(await texts(id)).toContain('submitted: phones');

    // Appending goes after text the page put there, too (not at the caret's start).
    const lab = await open('action-lab.html');
    await ok(lab, { action: 'type', ref: await refFor(lab, 'textbox', 'Prefilled'), text: ' and more', append: true });
    expect(await valueOf(lab, 'textbox', 'Prefilled')).toBe('already here and more');
    await ok(lab, { action: 'type', ref: await refFor(lab, 'textbox', 'Prefilled notes'), text: ', line two', append: true });
    expect(await valueOf(lab, 'textbox', 'Prefilled notes')).toBe('line one, line two');

    // Without a ref, typing goes to the focused element.
    await ok(id, { action: 'click', ref: notes });
    await ok(id, { action: 'type', text: '!', append: true });
    expect(await valueOf(id, 'textbox', 'Notes')).toBe('second third!');
  });

  it('fills and clears', async () => {
    const id = await open('login.html');
    const user = await refFor(id, 'textbox', 'Username');
    await ok(id, { action: 'fill', ref: user, value: 'ann@example.com' });
    expect(await valueOf(id, 'textbox', 'Username')).toBe('ann@example.com');
    await ok(id, { action: 'clear', ref: user });
    expect(await valueOf(id, 'textbox', 'Username')).toBe('');
    // An empty value is a value: fill "" empties the field.
    await ok(id, { action: 'fill', ref: user, value: 'bob' });
    await ok(id, { action: 'fill', ref: user, value: '' });
    expect(await valueOf(id, 'textbox', 'Username')).toBe('');
    // fill on something that cannot be filled is a 422 action_failed, not a hang.
    const started = Date.now();
    const bad = await act(id, { action: 'fill', ref: await refFor(id, 'heading', 'Welcome back'), value: 'x' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe('action_failed');
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('presses single keys and chords', async () => {
    const id = await open('action-lab.html');
    const chord = await refFor(id, 'textbox', 'Chord input');
    await ok(id, { action: 'type', ref: chord, text: 'hello' });
    await ok(id, { action: 'press', ref: chord, key: 'Shift+ArrowLeft' });
    await ok(id, { action: 'press', ref: chord, key: 'Shift+ArrowLeft' });
    expect(await texts(id)).toContain('chord: value=hello sel=3-5');
    await ok(id, { action: 'press', ref: chord, key: 'Control+a' });
    expect(await texts(id)).toContain('chord: value=hello sel=0-5');
    await ok(id, { action: 'press', ref: chord, key: 'Backspace' });
    expect(await texts(id)).toContain('chord: value= sel=0-0');

    // Without a ref the key goes to the page.
    await ok(id, { action: 'click', ref: await refFor(id, 'heading', 'Action lab') });
    await ok(id, { action: 'press', key: 'Escape' });
    expect(await texts(id)).toContain('key: Escape');
    await ok(id, { action: 'press', key: 'Shift+KeyQ' });
    expect(await texts(id)).toContain('key: Q +shift');
  });

  it('selects by value, by label, several values, with the by option', async () => {
    const id = await open('action-lab.html');
    const color = await refFor(id, 'combobox', 'Color');
    // value "red" is the option labelled "Blue" (they cross on purpose).
    const byValue = await ok(id, { action: 'select', ref: color, value: 'red', by: 'value' });
    expect(byValue.result.selected).toEqual(['red']);
    expect(await texts(id)).toContain('color: value=red');
    await ok(id, { action: 'select', ref: color, value: 'Red', by: 'label' });
    expect(await texts(id)).toContain('color: value=blue');
    // Without "by" either matches.
    await ok(id, { action: 'select', ref: color, value: 'green' });
    expect(await texts(id)).toContain('color: value=green');
    await ok(id, { action: 'select', ref: color, value: 'Blue' });
    expect(await texts(id)).toContain('color: value=red');
    // The option whose value is "" is selectable too.
    await ok(id, { action: 'select', ref: color, value: '', by: 'value' });
    expect(await texts(id)).toContain('color: value=');

    const sizes = await refFor(id, 'listbox', 'Sizes');
    const multi = await ok(id, { action: 'select', ref: sizes, value: ['Small', 'Large'], by: 'label' });
    expect(multi.result.selected).toEqual(['s', 'l']);
    expect(await texts(id)).toContain('sizes: s,l');
    await ok(id, { action: 'select', ref: sizes, value: ['m'], by: 'value' });
    expect(await texts(id)).toContain('sizes: m');

    // An option that does not exist fails clearly and quickly.
    const started = Date.now();
    const missing = await act(id, { action: 'select', ref: color, value: 'purple', by: 'value', timeoutMs: 1500 });
    expect([422, 504]).toContain(missing.status);
    expect(Date.now() - started).toBeLessThan(4000);
  });

  it('checks and unchecks', async () => {
    const id = await open('controls.html');
    const terms = await refFor(id, 'checkbox', 'I accept the terms');
    expect((await node(id, 'checkbox', 'I accept the terms')).checked).toBeFalsy();
    await ok(id, { action: 'check', ref: terms });
    expect((await node(id, 'checkbox', 'I accept the terms')).checked).toBe(true);
    await ok(id, { action: 'uncheck', ref: terms });
    expect((await node(id, 'checkbox', 'I accept the terms')).checked).toBeFalsy();
  });

  it('uploads a file from the request and the page reads it back', async () => {
    const id = await open('controls.html');
    const res = await ok(id, {
      action: 'upload',
      ref: await refFor(id, 'button', 'Avatar'),
      files: [{ name: 'notes.txt', mimeType: 'text/plain', contentBase64: Buffer.from('hello from the test').toString('base64') }],
    });
    expect(res.result).toEqual({ files: ['notes.txt'] });
    await ok(id, { action: 'wait_for', text: 'notes.txt: hello from the test', timeoutMs: 2000 });
  });
});

describe('waiting', () => {
  it('waits for text to appear and to go, and for time', async () => {
    const id = await open('slow-list.html?ms=700');
    const appear = await ok(id, { action: 'wait_for', text: 'Gamma', timeoutMs: 4000 });
    expect(appear.result.waitedMs).toBeGreaterThan(0);
    expect(await refFor(id, 'button', 'Open Gamma')).toBeTruthy();

    const id2 = await open('slow-list.html?ms=600');
    await ok(id2, { action: 'wait_for', textGone: 'Loading items...', timeoutMs: 4000 });
    expect(await texts(id2)).not.toContain('Loading items...');
    expect(await refFor(id2, 'button', 'Open Alpha')).toBeTruthy();

    const t = await ok(id2, { action: 'wait_for', time: 300 });
    expect(t.result.waitedMs).toBeGreaterThanOrEqual(290);

    const none = await act(id2, { action: 'wait_for' });
    expect(none.status).toBe(400);
    expect(none.body.error.code).toBe('invalid_request');
  });

  it('a wait that cannot succeed fails with a timeout code within timeoutMs', async () => {
    const id = await open('slow-list.html?ms=100');
    for (const body of [{ text: 'Never shows up' }, { textGone: 'Slow list' }]) {
      const started = Date.now();
      const res = await act(id, { action: 'wait_for', ...body, timeoutMs: 800 });
      const took = Date.now() - started;
      expect(res.status).toBe(504);
      expect(res.body.error.code).toBe('timeout');
      expect(took).toBeGreaterThanOrEqual(700);
      expect(took).toBeLessThan(3000);
    }
  });
});

describe('dialogs', () => {
  it('reports an alert opened by a click at once; other ops answer 409 dialog_pending until handled', async () => {
    const id = await open('dialogs.html');
    const started = Date.now();
    const click = await ok(id, { action: 'click', ref: await refFor(id, 'button', 'Show alert') });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(click.dialog).toEqual({ type: 'alert', message: 'Hello from alert' });

    const snap = await svc.api.snapshot(id);
    expect(snap.status).toBe(409);
    expect(snap.body.error.code).toBe('dialog_pending');
    expect(snap.body.error.details.dialog.message).toBe('Hello from alert');
    const other = await act(id, { action: 'press', key: 'Tab' });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('dialog_pending');
    const shot = await svc.api.get(`/v1/sessions/${id}/roles/default/screenshot`);
    expect(shot.status).toBe(409);
    expect((await svc.api.get(`/v1/sessions/${id}/roles/default/storage`)).status).toBe(409);

    const handled = await ok(id, { action: 'handle_dialog' });
    expect(handled.result).toMatchObject({ accepted: true, handled: { type: 'alert' } });
    expect((await svc.api.snapshot(id)).status).toBe(200);

    const none = await act(id, { action: 'handle_dialog' });
    expect(none.status).toBe(409);
    expect(none.body.error.code).toBe('no_dialog');
  });

  it('accepts and dismisses a confirm, answers a prompt', async () => {
    const id = await open('dialogs.html');
    const confirm = await refFor(id, 'button', 'Show confirm');
    expect((await ok(id, { action: 'click', ref: confirm })).dialog).toEqual({ type: 'confirm', message: 'Are you sure?' });
    await ok(id, { action: 'handle_dialog', accept: true });
    expect(await texts(id)).toContain('confirm: true');

    await ok(id, { action: 'click', ref: confirm });
    await ok(id, { action: 'handle_dialog', accept: false });
    expect(await texts(id)).toContain('confirm: false');

    const prompt = await ok(id, { action: 'click', ref: await refFor(id, 'button', 'Show prompt') });
    expect(prompt.dialog).toEqual({ type: 'prompt', message: 'Your name?', defaultValue: 'Ann' });
    await ok(id, { action: 'handle_dialog', accept: true, promptText: 'Zoe' });
    expect(await texts(id)).toContain('prompt: Zoe');

    await ok(id, { action: 'click', ref: await refFor(id, 'button', 'Show prompt') });
    await ok(id, { action: 'handle_dialog', accept: false });
    expect(await texts(id)).toContain('prompt: null');
  });
});

describe('screenshot action', () => {
  it('screenshot action of an element returns valid PNG bytes of its size', async () => {
    const id = await open('controls.html');
    const res = await ok(id, { action: 'screenshot', ref: await refFor(id, 'region', 'Drop zone') });
    expect(res.result.mimeType).toBe('image/png');
    const buf = Buffer.from(res.result.base64, 'base64');
    expect(buf.length).toBe(res.result.bytes);
    // #drop is 200x80 plus a 2px border each side (±1px: it sits at a fractional y).
    expectAbout(pngSize(buf), { width: 204, height: 84 });
  });
});
