import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { transform } from 'esbuild';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startTestService, type TestService } from './helpers/service.js';
import { ROOT, docFiles, examplesOf, unmetExpectations, type Example } from './helpers/doc-examples.js';

// Every example of the README and docs/ runs here, as written, against one real service and
// the demo pages of scripts/demo-site.mjs, so the docs cannot drift from the code. The
// conventions (placeholders, `→` lines, markers) are in docs/development.md, "Documentation".

/** Blocks that cannot run here (a real model, Docker, GitHub...): few, each saying why. */
const MAX_NOT_RUN = 8;

const examples: Example[] = docFiles().flatMap((f) => examplesOf(f).examples);
const BIN = path.join(ROOT, 'bin/ariadne.mjs');

let svc: TestService;
let demo: ChildProcess;
let demoUrl: string;
let work: string;

/** The placeholders of the docs, pointed at this test's service and demo pages. */
function localize(text: string): string {
  return text
    .replaceAll('http://127.0.0.1:3000', svc.url)
    .replaceAll('https://ariadne.example.com', svc.url)
    .replaceAll('http://127.0.0.1:8080', demoUrl)
    .replaceAll('npx ariadne ', `node ${BIN} `);
}

const expectations = (body: string, comment: string) =>
  [...body.matchAll(new RegExp(`^\\s*${comment} → (.*)$`, 'gm'))].map((m) => m[1].trim());

function run(cmd: string, args: string[], opts: { cwd: string; env?: Record<string, string> }): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ARIADNE_SERVER: '', ARIADNE_TOKEN: '', ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 50_000);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, out, err }); });
  });
}

function dirFor(ex: Example): string {
  const dir = path.join(work, `${ex.file.replace(/\W/g, '_')}-${ex.line}`);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Runs a program and checks its exit code and its `→` lines. */
async function runAndCheck(ex: Example, cmd: string, args: string[], cwd: string, comment: string, env?: Record<string, string>) {
  const { code, out, err } = await run(cmd, args, { cwd, env });
  const where = `${ex.file}:${ex.line}`;
  expect(code, `${where} exited ${code}\n--- stdout\n${out}\n--- stderr\n${err}`).toBe(0);
  expect(unmetExpectations(expectations(localize(ex.body), comment), out), `${where}: expected lines not printed\n--- stdout\n${out}\n--- stderr\n${err}`).toEqual([]);
}

const runners: Record<Example['lang'], ((ex: Example) => Promise<void>) | undefined> = {
  async sh(ex) {
    const dir = dirFor(ex);
    writeFileSync(path.join(dir, 'example.sh'), localize(ex.body));
    await runAndCheck(ex, 'bash', ['-e', '-o', 'pipefail', 'example.sh'], dir, '#');
  },

  async ts(ex) {
    // Compiled next to the repository's node_modules so that its imports resolve.
    const { code } = await transform(localize(ex.body), { loader: 'ts', format: 'esm', target: 'node20' });
    const dir = path.join(ROOT, 'node_modules/.cache/docs-examples');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${ex.file.replace(/\W/g, '_')}-${ex.line}.mjs`);
    writeFileSync(file, code);
    await runAndCheck(ex, process.execPath, [file], dirFor(ex), '//');
  },

  async python(ex) {
    const dir = dirFor(ex);
    writeFileSync(path.join(dir, 'example.py'), localize(ex.body));
    await runAndCheck(ex, 'python3', ['example.py'], dir, '#', { PYTHONPATH: path.join(ROOT, 'clients/python') });
  },

  // A plan: run by the rules planner on the demo pages, it must pass.
  async markdown(ex) {
    const variables = ex.variables ?? {};
    const started = await svc.api.post('/v1/runs', { url: `${demoUrl}/`, plan: ex.body, variables });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    let run: any;
    for (const end = Date.now() + 100_000; Date.now() < end;) {
      run = (await svc.api.get(`/v1/runs/${started.body.id}`)).body;
      if (['passed', 'failed', 'error', 'cancelled'].includes(run.status)) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const failures = (run.report?.cases ?? []).filter((c: any) => c.status !== 'passed').map((c: any) => `${c.name}: ${c.error?.message ?? c.summary ?? c.status}`);
    expect(run.status, `${ex.file}:${ex.line}: ${failures.join('; ')}`).toBe('passed');
  },

  // An MCP client configuration: every server in it must connect and list tools.
  async json(ex) {
    const doc = JSON.parse(ex.body);
    expect(doc.mcpServers, `${ex.file}:${ex.line}: no runner for this JSON (give it one, or mark it not run)`).toBeTruthy();
    for (const [name, cfg] of Object.entries<any>(JSON.parse(localize(ex.body)).mcpServers)) {
      const client = new Client({ name: 'docs-examples', version: '1.0.0' });
      const transport = cfg.type === 'http'
        ? new StreamableHTTPClientTransport(new URL(cfg.url), { requestInit: { headers: cfg.headers ?? {} } })
        : new StdioClientTransport(cfg.command === 'npx' && cfg.args[0] === 'ariadne'
          ? { command: process.execPath, args: [BIN, ...cfg.args.slice(1)], stderr: 'ignore' }
          : { command: cfg.command, args: cfg.args, stderr: 'ignore' });
      await client.connect(transport);
      try {
        const tools = (await client.listTools()).tools.map((t) => t.name);
        expect(tools, `${ex.file}:${ex.line} ${name}`).toContain('browser_snapshot');
      } finally {
        if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => undefined);
        await client.close();
      }
    }
  },

  yaml: undefined,
};

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'ariadne-docs-'));
  demo = spawn(process.execPath, [path.join(ROOT, 'scripts/demo-site.mjs')], { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const demoReady = new Promise<string>((resolve, reject) => {
    let text = '';
    demo.stderr!.on('data', (d) => {
      text += d;
      const m = /demo page on (http:\/\/127\.0\.0\.1:\d+)\//.exec(text);
      if (m) resolve(m[1]);
    });
    demo.on('exit', (code) => reject(new Error(`demo-site exited ${code}: ${text}`)));
  });
  // SECRETS_KEY: the suite example stores secrets and a signed trigger.
  [svc, demoUrl] = await Promise.all([startTestService({ SECRETS_KEY: 'ab'.repeat(32), RUN_CONCURRENCY: '3' }), demoReady]);
}, 60_000);

afterAll(async () => {
  demo?.kill();
  await svc?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

describe('examples of the README and docs/', () => {
  it('are many, and the few that cannot run here say why', () => {
    expect(examples.length).toBeGreaterThan(15);
    const notRun = examples.filter((e) => e.notRun);
    expect(notRun.length, notRun.map((e) => `${e.file}:${e.line} ${e.notRun}`).join('\n')).toBeLessThanOrEqual(MAX_NOT_RUN);
    const noRunner = examples.filter((e) => !e.notRun && !runners[e.lang]).map((e) => `${e.file}:${e.line} (${e.lang})`);
    expect(noRunner, 'no runner for these blocks: mark them `<!-- example: not run: why -->` or give them one').toEqual([]);
  });

  // Independent of each other (a session, a run or a suite each), so they run side by side.
  for (const ex of examples.filter((e) => !e.notRun && runners[e.lang])) {
    it.concurrent(`${ex.file}:${ex.line} (${ex.lang}) runs as written`, async () => {
      await runners[ex.lang]!(ex);
    }, 120_000); // the examples run side by side: a loaded machine needs the room
  }
});
