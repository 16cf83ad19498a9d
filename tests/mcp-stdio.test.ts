import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startTestService, type TestService, Api } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { callTool, REQUIRED_TOOLS, until } from './helpers/mcp.js';

// `ariadne mcp --server URL --token KEY` (the package bin) as a child process, driven by
// the SDK's Client over stdio: one Ariadne session per client, deleted when it goes.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BIN = path.join(ROOT, 'bin/ariadne.mjs');
const KEY = 'mcp-stdio-key-0123456789abcdef';
let svc: TestService;
let fx: FixtureServer;
let api: Api;
let dir: string;

beforeAll(async () => {
  fx = await startFixtureServer();
  svc = await startTestService({ API_KEYS: `${KEY}:acme` });
  api = svc.api.withToken(KEY);
  dir = mkdtempSync(path.join(tmpdir(), 'ariadne-mcp-stdio-'));
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function connect(args: string[]) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', ...args], stderr: 'pipe', env: { PATH: process.env.PATH ?? '' } });
  const client = new Client({ name: 'ariadne-stdio-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, call: (n: string, a: Record<string, unknown> = {}) => callTool(client, n, a) };
}

const sessions = async () => (await api.get('/v1/sessions')).body.sessions as { id: string; metadata?: Record<string, string> }[];

describe('the ariadne command', () => {
  const run = (args: string[]) => new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '' } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });

  it('is the package bin and dispatches run and mcp', async () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.bin).toEqual({ ariadne: 'bin/ariadne.mjs' });
    let r = await run(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/run <plan\.md>/);
    r = await run(['run', '--help']);
    expect(r.out).toMatch(/Usage: ariadne run <plan\.md> --url/);
    r = await run(['mcp', '--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Usage: ariadne mcp/);
    r = await run(['mcp', '--bogus']);
    expect(r.code).toBe(2);
  });
});

describe('ariadne mcp (stdio)', () => {
  it('serves the tools over a remote Ariadne, one session per client, deleted when the client goes', async () => {
    const a = await connect(['--server', svc.url, '--token', KEY]);
    const b = await connect(['--server', svc.url, '--token', KEY]);
    try {
      const names = (await a.client.listTools()).tools.map((t) => t.name);
      for (const n of REQUIRED_TOOLS) expect(names).toContain(n);
      expect(await sessions()).toHaveLength(0);

      let r = await a.call('browser_navigate', { url: `${fx.url}/controls.html` });
      expect(r.isError, r.text).toBe(false);
      r = await b.call('browser_navigate', { url: `${fx.url}/products.html` });
      expect(r.isError, r.text).toBe(false);
      const list = await sessions();
      expect(list).toHaveLength(2);
      expect(list.every((s) => s.metadata?.transport === 'stdio')).toBe(true);

      // Upload from a path on the machine running the stdio server.
      const file = path.join(dir, 'notes.txt');
      writeFileSync(file, 'from disk');
      r = await a.call('browser_file_upload', { element: 'Avatar', paths: [file] });
      expect(r.isError, r.text).toBe(false);
      expect(r.text).toMatch(/notes\.txt: from disk/);
      r = await a.call('browser_file_upload', { element: 'Avatar', paths: [path.join(dir, 'missing.txt')] });
      expect(r.isError).toBe(true);

      r = await b.call('browser_snapshot', { maxTokens: 400 });
      expect(r.text).toMatch(/Pixel 9/);
      expect(r.text).toMatch(/truncated/);
      expect(r.text).not.toMatch(/Avatar/);
      r = await b.call('browser_click', { target: 'e999' });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Error ref_not_found/);

      await a.client.close();
      await until(async () => (await sessions()).length === 1, 10_000, 'the first client\'s session deleted');
    } finally {
      await a.client.close().catch(() => undefined);
      await b.client.close();
    }
    await until(async () => (await sessions()).length === 0, 10_000, 'no session left');
  }, 60_000);

  it('answers with a tool error when the key is wrong or the server is unreachable', async () => {
    const bad = await connect(['--server', svc.url, '--token', 'wrong-key-0123456789']);
    try {
      const r = await bad.call('browser_navigate', { url: `${fx.url}/products.html` });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^Error unauthorized \(HTTP 401\)/);
    } finally {
      await bad.client.close();
    }
    const gone = await connect(['--server', 'http://127.0.0.1:9', '--token', KEY]);
    try {
      const r = await gone.call('browser_snapshot', {});
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/network_error/);
      expect(r.text).toMatch(/Hint: Check --server/);
    } finally {
      await gone.client.close();
    }
  }, 30_000);
});
