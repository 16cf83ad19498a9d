import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

// MCP clients for tests: the SDK's own Client over Streamable HTTP (the /mcp route).

export interface HttpMcpClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  /** Call a tool; returns its text (and the raw result). */
  call(name: string, args?: Record<string, unknown>): Promise<{ text: string; isError: boolean; raw: any }>;
  close(): Promise<void>;
}

export async function connectHttpMcp(baseUrl: string, token?: string, query = ''): Promise<HttpMcpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp${query}`), {
    requestInit: { headers: token ? { authorization: `Bearer ${token}` } : {} },
  });
  const client = new Client({ name: 'ariadne-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    call: (name, args = {}) => callTool(client, name, args),
    async close() {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
    },
  };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const raw: any = await client.callTool({ name, arguments: args });
  const text = (raw.content ?? []).filter((c: any) => c.type === 'text').map((c: any) => c.text).join('\n');
  return { text, isError: Boolean(raw.isError), raw };
}

/** Polls until check() is true (or throws after timeoutMs). */
export async function until(check: () => Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export const REQUIRED_TOOLS = [
  'browser_navigate', 'browser_snapshot', 'browser_click', 'browser_type', 'browser_fill_form', 'browser_select_option',
  'browser_press_key', 'browser_hover', 'browser_drag', 'browser_file_upload', 'browser_handle_dialog', 'browser_tabs',
  'browser_navigate_back', 'browser_wait_for', 'browser_take_screenshot', 'browser_console_messages',
  'browser_network_requests', 'browser_close',
  'resolve_container', 'inspect_pattern', 'extract_anchors', 'select_role', 'list_roles',
  'playwright_inspect_dom', 'playwright_get_test_ids', 'playwright_query_selector_all', 'playwright_element_visibility',
  'playwright_element_position', 'playwright_element_interaction_state', 'playwright_get_element_attributes',
  'playwright_get_element_text', 'playwright_list_iframes', 'playwright_get_cookies', 'playwright_get_local_storage',
  'playwright_get_session_storage', 'playwright_get_performance_timing',
  'get_locators', 'dom', 'run_flow', 'get_run',
];
