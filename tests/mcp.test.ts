import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { startTestService, type TestService, Api } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { connectHttpMcp as connect, REQUIRED_TOOLS, until } from './helpers/mcp.js';

// The MCP server over Streamable HTTP at /mcp, driven by the SDK's own Client: tools
// against fixture pages, errors as tool errors with code/hint/diagnostics, tenants and
// MCP sessions isolated, DNS-rebinding checks, and no Ariadne session left behind.

const KEY_A = 'mcp-test-key-acme-0123456789';
const KEY_B = 'mcp-test-key-globex-0123456789';
let svc: TestService;
let fx: FixtureServer;
let apiA: Api;
let apiB: Api;

beforeAll(async () => {
  fx = await startFixtureServer();
  svc = await startTestService({ API_KEYS: `${KEY_A}:acme,${KEY_B}:globex`, MCP_IDLE_TIMEOUT_SECONDS: '8' });
  apiA = svc.api.withToken(KEY_A);
  apiB = svc.api.withToken(KEY_B);
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

// Every tool this file calls, to check at the end that none was left out.
const called = new Set<string>();
async function connectHttpMcp(...args: Parameters<typeof connect>) {
  const c = await connect(...args);
  const call = c.call;
  c.call = (name, a) => {
    called.add(name);
    return call(name, a);
  };
  return c;
}

const sessionsOf = async (api: Api) => (await api.get('/v1/sessions')).body.total as number;
const refIn = (text: string, line: RegExp) => {
  const l = text.split('\n').find((x) => line.test(x));
  const m = l && /\[(f?\d*e\d+)\]/.exec(l);
  if (!m) throw new Error(`no ${line} in:\n${text.slice(0, 2000)}`);
  return m[1];
};

describe('MCP over Streamable HTTP', () => {
  it('lists the tools, the guide as prompts and resources', async () => {
    const c = await connectHttpMcp(svc.url, KEY_A);
    try {
      const { tools } = await c.client.listTools();
      const names = tools.map((t) => t.name);
      for (const n of REQUIRED_TOOLS) expect(names).toContain(n);
      const click = tools.find((t) => t.name === 'browser_click')!;
      expect(Object.keys((click.inputSchema as any).properties)).toEqual(expect.arrayContaining(['target', 'element', 'doubleClick', 'button', 'modifiers']));
      const prompts = (await c.client.listPrompts()).prompts.map((p) => p.name);
      expect(prompts).toContain('ariadne_guide');
      const p = await c.client.getPrompt({ name: 'ariadne_guide' });
      expect((p.messages[0].content as any).text).toMatch(/resolve_container/);
      const resources = (await c.client.listResources()).resources;
      expect(resources.map((r) => r.uri)).toContain('ariadne://guide/SKILL.md');
      const r = await c.client.readResource({ uri: 'ariadne://guide/SKILL.md' });
      expect((r.contents[0] as any).text).toMatch(/browser_snapshot/);
      // Listing creates no browser session.
      expect(await sessionsOf(apiA)).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('drives pages with every browser, exploration, inspection, locator, DOM and role tool', async () => {
    const c = await connectHttpMcp(svc.url, KEY_A);
    try {
      let r = await c.call('browser_navigate', { url: `${fx.url}/products.html` });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toMatch(/navigate ok/);
      r = await c.call('browser_evaluate', { function: '() => document.querySelectorAll("button").length > 0' });
      expect(r.text).toMatch(/Result \(boolean\):\ntrue/);
      r = await c.call('browser_snapshot', {});
      expect(r.text).toMatch(/button "Add to Cart" \[e\d+\]/);
      const button = refIn(r.text, /button "Add to Cart"/);
      // Bounded: a small budget truncates and says so.
      const small = await c.call('browser_snapshot', { maxTokens: 120 });
      expect(small.text).toMatch(/truncated/);
      expect(small.text.length).toBeLessThan(r.text.length);

      r = await c.call('browser_click', { target: button, element: 'Add to Cart button' });
      expect(r.text).toMatch(/click ok \(ref/);
      expect(r.text).toMatch(/Cart: 1 item/);
      // No ref: the description ladder.
      r = await c.call('browser_click', { element: 'Add to Cart' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Error ambiguous_target \(HTTP 409\)/);
      expect(r.text).toMatch(/Hint: /);
      expect(r.text).toMatch(/Diagnostics: .*candidates/);
      expect((r.raw._meta as any)['ariadne/error'].code).toBe('ambiguous_target');

      r = await c.call('resolve_container', { ref: button });
      expect(r.text).toMatch(/product-card/);
      r = await c.call('inspect_pattern', { ref: button, level: 2 });
      expect(r.text).toMatch(/siblings: 12/);
      r = await c.call('extract_anchors', { ref: button, level: 1 });
      expect(r.text).toMatch(/iPhone 15 Pro/);
      r = await c.call('get_locators', { ref: button });
      expect(r.text).toMatch(/getByTestId\('product-card'\)|filter\(/);
      expect(r.text).toMatch(/matches 1/);
      r = await c.call('dom', { maxTokens: 200 });
      expect(r.text).toMatch(/TRUNCATED/);
      r = await c.call('playwright_inspect_dom', { selector: 'testid:product-grid', maxChildren: 3 });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toMatch(/iPhone 15 Pro/);
      r = await c.call('playwright_get_test_ids', {});
      expect(r.text).toMatch(/product-card/);
      r = await c.call('playwright_query_selector_all', { selector: 'testid:product-card', limit: 2 });
      expect(r.text).toMatch(/12/);
      r = await c.call('playwright_element_visibility', { ref: button });
      expect(r.text).toMatch(/visible/);
      r = await c.call('playwright_element_position', { ref: button });
      expect(r.isError, r.text).toBe(false);
      r = await c.call('playwright_element_interaction_state', { ref: button });
      expect(r.text).toMatch(/enabled/i);
      r = await c.call('playwright_get_element_attributes', { selector: 'testid:product-grid' });
      expect(r.text).toMatch(/product-grid/);
      r = await c.call('playwright_get_element_text', { ref: button });
      expect(r.text).toMatch(/Add to Cart/);
      r = await c.call('playwright_list_iframes', {});
      expect(r.isError, r.text).toBe(false);
      r = await c.call('playwright_get_performance_timing', {});
      expect(r.text).toMatch(/domNodes/);

      // Controls: forms, keys, hover, drag, upload, console, network, storage, tabs.
      r = await c.call('browser_navigate', { url: `${fx.url}/controls.html` });
      const snap = (await c.call('browser_snapshot', {})).text;
      r = await c.call('browser_fill_form', {
        fields: [
          { name: 'Country', type: 'combobox', value: 'Japan', target: refIn(snap, /combobox "Country"/) },
          { name: 'I accept the terms', type: 'checkbox', value: 'true' },
          { name: 'Notes', type: 'textbox', value: 'hello' },
        ],
      });
      expect(r.isError, r.text).toBe(false);
      r = await c.call('playwright_element_interaction_state', { selector: '#terms' });
      expect(r.text).toMatch(/checked/);
      r = await c.call('browser_select_option', { element: 'Toppings', values: ['ham', 'basil'] });
      expect(r.isError, r.text).toBe(false);
      r = await c.call('browser_type', { element: 'Search', text: 'mug', submit: true });
      expect(r.text).toMatch(/submitted: mug/);
      r = await c.call('browser_press_key', { key: 'Escape' });
      expect(r.isError, r.text).toBe(false);
      r = await c.call('browser_hover', { element: 'Hover me' });
      expect(r.text).toMatch(/hover ok/);
      expect(r.text).toMatch(/\+ paragraph/);
      expect((await c.call('browser_snapshot', {})).text).toMatch(/Tooltip shown/);
      r = await c.call('browser_drag', { startElement: 'Draggable item', endElement: 'Drop zone' });
      expect(r.text).toMatch(/dropped: item/);
      r = await c.call('browser_file_upload', { element: 'Avatar', files: [{ name: 'a.txt', contentBase64: Buffer.from('file body').toString('base64') }] });
      expect(r.text).toMatch(/a\.txt: file body/);
      r = await c.call('browser_file_upload', { files: [{ name: 'a.txt', contentBase64: 'eA==' }] });
      expect(r.text).toMatch(/^Error invalid_request[\s\S]*Hint: In browser_snapshot a file input shows as a button/);
      // Paths are refused inside the service: it must never read its own disk for a client.
      r = await c.call('browser_file_upload', { element: 'Avatar', paths: ['/etc/hostname'] });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/invalid_request/);
      r = await c.call('browser_console_messages', { level: 'error' });
      expect(r.text).toMatch(/deliberate error/);
      expect(r.text).not.toMatch(/controls ready/);
      r = await c.call('browser_console_messages', {});
      expect(r.text).toMatch(/controls ready/);
      r = await c.call('browser_network_requests', {});
      expect(r.text).toMatch(/status\?code=404/);
      const reqId = /\[(r\d+)\][^\n]*status\?code=404/.exec(r.text)![1];
      r = await c.call('browser_network_requests', { filter: 'code=40\\d' });
      expect(r.text).toMatch(/Matching "code=40\\\\d": 1\n\[r\d+\] GET \S+status\?code=404/);
      expect(r.text).not.toMatch(/controls\.html/);
      r = await c.call('browser_network_request', { id: reqId });
      expect(r.text).toMatch(/404/);
      r = await c.call('playwright_get_local_storage', {});
      expect(r.text).toMatch(/theme/);
      r = await c.call('playwright_get_session_storage', {});
      expect(r.text).toMatch(/visit/);
      r = await c.call('playwright_get_cookies', {});
      expect(r.text).toMatch(/cookies/);
      r = await c.call('browser_take_screenshot', {});
      expect(r.raw.content[0].type).toBe('image');
      expect(Buffer.from(r.raw.content[0].data, 'base64').subarray(1, 4).toString()).toBe('PNG');
      r = await c.call('browser_wait_for', { text: 'Controls' });
      expect(r.isError, r.text).toBe(false);

      r = await c.call('browser_tabs', { action: 'new', url: `${fx.url}/products.html` });
      expect(r.text).toMatch(/1: \(current\) \[Products\]/);
      r = await c.call('browser_tabs', { action: 'select', index: 0 });
      expect(r.text).toMatch(/0: \(current\) \[Controls\]/);
      r = await c.call('browser_tabs', { action: 'close', index: 1 });
      expect(r.text.split('\n')).toHaveLength(1);
      r = await c.call('browser_tabs', { action: 'list' });
      expect(r.text).toMatch(/Controls/);

      r = await c.call('browser_navigate', { url: `${fx.url}/dialogs.html` });
      r = await c.call('browser_click', { element: 'Show confirm' });
      expect(r.text).toMatch(/Dialog open: confirm "Are you sure\?"/);
      r = await c.call('browser_handle_dialog', { accept: true });
      expect(r.text).toMatch(/confirm: true/);
      r = await c.call('browser_navigate_back', {});
      expect(r.text).toMatch(/Controls/);

      // Roles: one isolated context each, created lazily.
      r = await c.call('list_roles', {});
      expect(r.text).toMatch(/\* default/);
      r = await c.call('select_role', { role: 'admin' });
      expect(r.text).toMatch(/new isolated context/);
      r = await c.call('playwright_get_local_storage', {});
      expect(r.text).not.toMatch(/theme/);
      r = await c.call('list_roles', {});
      expect(r.text).toMatch(/\* admin/);
      expect(r.text).toMatch(/ {2}default/);
      r = await c.call('select_role', { role: 'default' });
      expect(r.text).not.toMatch(/new isolated context/);

      expect(await sessionsOf(apiA)).toBe(1);
      r = await c.call('browser_close', {});
      expect(r.text).toMatch(/closed/);
      expect(await sessionsOf(apiA)).toBe(0);
    } finally {
      await c.close();
    }
  }, 120_000);

  it('runs a plain-English flow and reads it back', async () => {
    const c = await connectHttpMcp(svc.url, KEY_A);
    try {
      const plan = '#Case 1: Log in\n- Type {{USER}} into "Username"\n- Type {{PASSWORD}} into "Password"\n- Click the "Log in" button\n- Verify "Welcome, {{USER}}" is visible';
      let r = await c.call('run_flow', { url: `${fx.url}/app/login.html`, plan, variables: { USER: 'alice', PASSWORD: 'secret' } });
      expect(r.text, r.text).toMatch(/^Run \S+: passed/);
      const id = /^Run (\S+):/.exec(r.text)![1];
      r = await c.call('get_run', { id });
      expect(r.text).toMatch(/passed/);
      r = await c.call('get_run', { id: 'nope' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/run_not_found/);
      // Another tenant does not see it.
      const other = await connectHttpMcp(svc.url, KEY_B);
      try {
        const o = await other.call('get_run', { id });
        expect(o.text).toMatch(/run_not_found/);
      } finally {
        await other.close();
      }
    } finally {
      await c.close();
    }
  }, 90_000);

  it('answers errors as tool errors with the stable code, the hint and diagnostics', async () => {
    const c = await connectHttpMcp(svc.url, KEY_A);
    try {
      await c.call('browser_navigate', { url: `${fx.url}/products.html` });
      let r = await c.call('browser_click', { target: 'e999' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Error ref_not_found \(HTTP 409\)/);
      expect(r.text).toMatch(/Hint: This ref was never issued/);
      r = await c.call('browser_click', {});
      expect(r.text).toMatch(/invalid_request/);
      r = await c.call('browser_navigate', { url: 'file:///etc/passwd' });
      expect(r.text).toMatch(/navigation_blocked/);
      const someRef = refIn((await c.call('browser_snapshot', {})).text, /heading "Products"/);
      r = await c.call('inspect_pattern', { ref: someRef, level: 99 });
      expect(r.text).toMatch(/level_out_of_range/);
      // Arguments that break the schema never reach the service.
      r = await c.call('browser_navigate', { url: 42 });
      expect(r.isError).toBe(true);
      // A session deleted under the client: the error says so, and the next call starts afresh.
      const [sid] = (await apiA.get('/v1/sessions')).body.sessions.map((s: any) => s.id);
      await apiA.delete(`/v1/sessions/${sid}`);
      r = await c.call('browser_snapshot', {});
      expect(r.text).toMatch(/session_(closed|not_found)/);
      r = await c.call('browser_navigate', { url: `${fx.url}/products.html` });
      expect(r.isError, r.text).toBe(false);
    } finally {
      await c.close();
    }
    await until(async () => (await sessionsOf(apiA)) === 0, 5000, 'no session left');
  }, 60_000);

  it('keeps MCP clients and tenants apart', async () => {
    const a1 = await connectHttpMcp(svc.url, KEY_A);
    const a2 = await connectHttpMcp(svc.url, KEY_A);
    const b = await connectHttpMcp(svc.url, KEY_B);
    try {
      await a1.call('browser_navigate', { url: `${fx.url}/controls.html` });
      await a2.call('browser_navigate', { url: `${fx.url}/products.html` });
      await b.call('browser_navigate', { url: `${fx.url}/dialogs.html` });
      expect((await a1.call('browser_snapshot', {})).text).toMatch(/Controls/);
      expect((await a2.call('browser_snapshot', {})).text).toMatch(/Products/);
      expect((await b.call('browser_snapshot', {})).text).toMatch(/Show confirm/);
      // Same tenant, two clients: two sessions. The other tenant sees only its own.
      expect(await sessionsOf(apiA)).toBe(2);
      expect(await sessionsOf(apiB)).toBe(1);
      // localStorage set by a1's page is not in a2's context.
      expect((await a2.call('playwright_get_local_storage', {})).text).not.toMatch(/theme/);

      // B presenting A's MCP session id is answered like an unknown id.
      const sidA = a1.transport.sessionId!;
      const res = await fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY_B}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sidA, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'browser_snapshot', arguments: {} } }),
      });
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('mcp_session_not_found');
      // A key in ?token= is refused on /mcp (query tokens are only for WebSocket upgrades and
      // the live page: a URL ends up in logs and histories).
      const viaQuery = await fetch(`${svc.url}/mcp?token=${KEY_B}`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(viaQuery.status).toBe(401);
      // No key at all.
      const anon = await fetch(`${svc.url}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(anon.status).toBe(401);
    } finally {
      await Promise.all([a1.close(), a2.close(), b.close()]);
    }
    await until(async () => (await sessionsOf(apiA)) + (await sessionsOf(apiB)) === 0, 5000, 'sessions deleted');
  }, 60_000);

  it('caps the MCP sessions one tenant may hold', async () => {
    const init = (n: number) =>
      fetch(`${svc.url}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY_B}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: n, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
      });
    const ids: string[] = [];
    for (let i = 0; i < 32; i++) {
      const res = await init(i);
      expect(res.status).toBe(200);
      ids.push(res.headers.get('mcp-session-id')!);
      await res.body?.cancel();
    }
    const over = await init(99);
    expect(over.status).toBe(429);
    expect((await over.json()).error.code).toBe('rate_limited');
    // Another tenant is not affected; closing one frees a slot.
    const a = await connectHttpMcp(svc.url, KEY_A);
    await a.close();
    const del = await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${KEY_B}`, 'mcp-session-id': ids[0], 'mcp-protocol-version': '2025-06-18' } });
    expect(del.status).toBe(200);
    const again = await init(100);
    expect(again.status).toBe(200);
    ids.push(again.headers.get('mcp-session-id')!);
    await again.body?.cancel();
    for (const id of ids.slice(1)) {
      await fetch(`${svc.url}/mcp`, { method: 'DELETE', headers: { authorization: `Bearer ${KEY_B}`, 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' } });
    }
  });

  it('rejects a foreign Host or Origin (DNS rebinding)', async () => {
    const init = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } });
    const raw = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const u = new URL(`${svc.url}/mcp`);
        const req = httpRequest({ host: u.hostname, port: u.port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${KEY_A}`, ...headers } }, (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end(init);
      });
    let r = await raw({ host: 'attacker.example:80' });
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).error.code).toBe('forbidden_origin');
    r = await raw({ origin: 'http://attacker.example' });
    expect(r.status).toBe(403);
    r = await raw({ origin: 'null' });
    expect(r.status).toBe(403);
    r = await raw({ origin: svc.url });
    expect(r.status).toBe(200);
  });

  it('leaves no session behind when a client disconnects or goes idle', async () => {
    const c = await connectHttpMcp(svc.url, KEY_A);
    await c.call('browser_navigate', { url: `${fx.url}/products.html` });
    expect(await sessionsOf(apiA)).toBe(1);
    await c.close(); // DELETE /mcp
    await until(async () => (await sessionsOf(apiA)) === 0, 5000, 'session deleted on disconnect');

    // A client that vanishes without a DELETE: closed after MCP_IDLE_TIMEOUT_SECONDS (8 s here).
    const gone = await connectHttpMcp(svc.url, KEY_A);
    await gone.call('browser_navigate', { url: `${fx.url}/products.html` });
    const sid = gone.transport.sessionId!;
    await gone.client.close();
    expect(await sessionsOf(apiA)).toBe(1);
    await until(async () => (await sessionsOf(apiA)) === 0, 25_000, 'idle session reaped');
    const res = await fetch(`${svc.url}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY_A}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
  }, 50_000);

  it('has called every tool at least once (this file)', async () => {
    const c = await connect(svc.url, KEY_A);
    try {
      const all = (await c.client.listTools()).tools.map((t) => t.name);
      expect(all.filter((n) => !called.has(n))).toEqual([]);
    } finally {
      await c.close();
    }
  });
});
