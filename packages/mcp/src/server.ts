import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { HttpBackend } from './backend.js';
import { BrowserState } from './browser-state.js';
import { registerGuide } from './guide.js';
import { registerTools } from './tools.js';

export const MCP_SERVER_NAME = 'ariadne';
export const MCP_SERVER_VERSION = '0.1.0';

export interface AriadneMcpOptions {
  /** browser_file_upload may read `paths` from this machine (stdio: yes; /mcp: no). */
  allowLocalFiles?: boolean;
  snapshotMaxTokens?: number;
  /** Idle timeout asked for the Ariadne session behind this MCP client. */
  sessionIdleTimeoutSeconds?: number;
  metadata?: Record<string, string>;
}

export interface AriadneMcp {
  server: McpServer;
  state: BrowserState;
  tools: string[];
  /** Close the MCP server and delete its Ariadne session. */
  close(): Promise<void>;
}

/** One MCP server for one MCP client: its own Ariadne session, created on first use. */
export function createAriadneMcp(http: HttpBackend, opts: AriadneMcpOptions = {}): AriadneMcp {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    {
      capabilities: { tools: {}, prompts: {}, resources: {} },
      instructions:
        'Ariadne browsers: browser_snapshot gives an accessibility tree with [eN] refs; act by ref (target), or by description (element) when you have none; after a failure, snapshot again. For stable locators: resolve_container → inspect_pattern → extract_anchors → get_locators. Guide: prompt ariadne_guide.',
    },
  );
  const state = new BrowserState(http, { idleTimeoutSeconds: opts.sessionIdleTimeoutSeconds, metadata: opts.metadata });
  const tools = registerTools(server, state, { allowLocalFiles: opts.allowLocalFiles ?? false, snapshotMaxTokens: opts.snapshotMaxTokens ?? 6000 });
  registerGuide(server);
  let closing: Promise<void> | null = null;
  return {
    server,
    state,
    tools,
    close() {
      closing ??= (async () => {
        await state.close();
        await server.close().catch(() => undefined);
      })();
      return closing;
    },
  };
}
