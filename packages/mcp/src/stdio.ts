import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fetchBackend } from './backend.js';
import { createAriadneMcp } from './server.js';

// `ariadne mcp --server URL --token KEY`: an MCP server on stdin/stdout over a running
// Ariadne (local or remote). One Ariadne session for this client, created on first use
// and deleted when the client goes (stdin closes, or SIGINT/SIGTERM).

export const MCP_USAGE = `Usage: ariadne mcp [--server URL] [--token KEY] [--snapshot-tokens N]

An MCP server on stdio over a running Ariadne.
  --server URL          the Ariadne service (else ARIADNE_SERVER, else http://127.0.0.1:3000)
  --token KEY           its API key (else ARIADNE_TOKEN)
  --snapshot-tokens N   default budget of browser_snapshot (default 6000)`;

export async function runStdio(argv: string[]): Promise<void> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { server: { type: 'string' }, token: { type: 'string' }, 'snapshot-tokens': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${MCP_USAGE}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(`${MCP_USAGE}\n`);
    return;
  }
  const server = (values.server as string | undefined) ?? process.env.ARIADNE_SERVER ?? 'http://127.0.0.1:3000';
  const token = (values.token as string | undefined) ?? process.env.ARIADNE_TOKEN;
  const budget = values['snapshot-tokens'] ? Number(values['snapshot-tokens']) : undefined;
  const mcp = createAriadneMcp(fetchBackend(server, token), { allowLocalFiles: true, snapshotMaxTokens: budget, metadata: { transport: 'stdio' } });
  const transport = new StdioServerTransport();
  let exiting = false;
  const exit = async (code: number) => {
    if (exiting) return;
    exiting = true;
    await mcp.close().catch(() => undefined);
    process.exit(code);
  };
  process.stdin.on('end', () => void exit(0));
  process.stdin.on('close', () => void exit(0));
  process.on('SIGINT', () => void exit(0));
  process.on('SIGTERM', () => void exit(0));
  mcp.server.server.onclose = () => void exit(0);
  await mcp.server.connect(transport);
}
