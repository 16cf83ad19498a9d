import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createAriadneMcp, type HttpBackend } from '@ariadne/mcp';
import { REQUIRED_TOOLS } from './helpers/mcp.js';

// "A prompt or agent written for Playwright MCP works unchanged": the tools both have take
// every argument Playwright MCP's do (compared with the @playwright/mcp release in
// devDependencies, listed over stdio: listing starts no browser), and ours require
// nothing theirs do not. The few arguments that cannot apply to a remote service are named.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Arguments of Playwright MCP that Ariadne's tools do not take, and why. */
const NOT_APPLICABLE: Record<string, string> = {
  filename: 'writes a file on the MCP server\'s disk; Ariadne answers in the result',
  all: 'console: Ariadne keeps the messages of the tab, bounded, newest last',
  boxes: 'snapshot: element boxes come from playwright_element_position / playwright_inspect_dom',
  scale: 'screenshot: CSS pixels, always',
};

type Schema = { properties?: Record<string, unknown>; required?: string[] };

async function toolsOf(client: Client) {
  return new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema as Schema]));
}

describe('Playwright MCP compatibility', () => {
  it('accepts the arguments of every tool it shares with Playwright MCP', async () => {
    const pw = new Client({ name: 'compat', version: '1' });
    await pw.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(ROOT, 'node_modules/@playwright/mcp/cli.js'), '--headless', '--executable-path', '/usr/bin/chromium'], stderr: 'ignore' }));
    const none: HttpBackend = { request: async () => ({ status: 500, contentType: '', body: Buffer.alloc(0) }) };
    const ours = createAriadneMcp(none);
    const [a, b] = InMemoryTransport.createLinkedPair();
    await ours.server.connect(a);
    const client = new Client({ name: 'compat', version: '1' });
    await client.connect(b);
    try {
      const theirs = await toolsOf(pw);
      const mine = await toolsOf(client);
      const shared = REQUIRED_TOOLS.filter((n) => n.startsWith('browser_'));
      expect(shared).toHaveLength(18);
      const problems: string[] = [];
      for (const name of shared) {
        const t = theirs.get(name);
        expect(t, `Playwright MCP no longer has ${name}`).toBeDefined();
        const m = mine.get(name)!;
        for (const arg of Object.keys(t!.properties ?? {})) {
          if (!(arg in (m.properties ?? {})) && !(arg in NOT_APPLICABLE)) problems.push(`${name}: no argument ${arg}`);
        }
        for (const req of m.required ?? []) {
          if (!(t!.required ?? []).includes(req)) problems.push(`${name}: requires ${req}, Playwright MCP does not`);
        }
      }
      expect(problems).toEqual([]);
    } finally {
      await client.close();
      await ours.close();
      await pw.close();
    }
  }, 60_000);
});
