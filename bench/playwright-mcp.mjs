// Playwright MCP (@playwright/mcp, the pinned dev dependency) as the benchmarks' second
// baseline: its own server process over stdio, driven with the MCP client SDK, on the same
// Debian Chromium and the same fixture pages. One process is one browser session (as an
// agent would run it); `--isolated` keeps the profile in memory. Its settle wait after an
// action is its default (500 ms) unless `settleMs` says otherwise.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../node_modules/@playwright/mcp/cli.js');

/** Start one Playwright MCP server (stdio) and connect; `call` times a tool call end to end. */
export async function startPlaywrightMcp({ settleMs } = {}) {
  // It writes snapshots and console logs to files: keep them in a temp dir, not the repo.
  const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-bench-pwmcp-'));
  const args = [CLI, '--output-dir', dir, '--headless', '--isolated', '--browser', 'chromium',
    '--executable-path', process.env.CHROMIUM_PATH || '/usr/bin/chromium', '--viewport-size', '1280,720'];
  if (settleMs !== undefined) args.push('--timeout-settle', String(settleMs));
  const transport = new StdioClientTransport({ command: process.execPath, args, cwd: dir, stderr: 'ignore' });
  const client = new Client({ name: 'ariadne-bench', version: '1.0.0' });
  await client.connect(transport);
  const call = async (name, args = {}) => {
    const t0 = performance.now();
    const r = await client.callTool({ name, arguments: args });
    const ms = performance.now() - t0;
    const text = (r.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    if (r.isError) throw new Error(`playwright-mcp ${name}: ${text.slice(0, 300)}`);
    return { ms, text };
  };
  return {
    call,
    pid: transport.pid,
    /** Close the client; the server then closes its browser and exits. */
    close: async () => {
      await client.close().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The ref of the first element with this role and name in a Playwright MCP snapshot. */
export function mcpRef(text, role, name) {
  const re = new RegExp(`${role} "${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^\\n]*\\[ref=([a-z0-9]+)\\]`);
  const m = re.exec(text);
  if (!m) throw new Error(`no ${role} "${name}" in the Playwright MCP snapshot:\n${text.slice(0, 1500)}`);
  return m[1];
}
