import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_FLAGS } from '@ariadne/pool';
import { loadGuide } from '@ariadne/mcp';
import { startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';
import { connectHttpMcp } from './helpers/mcp.js';

// The agent guide (skills/ariadne) cannot drift from the API: every `mcp` block runs
// through the MCP server in a fresh session (each `→` line must appear in the answer of
// the call above it), every `js` block's locators must match exactly one element of its
// page in Chromium, and every tool the guide names must exist.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DIR = path.join(ROOT, 'skills/ariadne');
const PLACEHOLDER = 'http://127.0.0.1:8080';

const files = ['SKILL.md', ...readdirSync(path.join(DIR, 'guides')).map((f) => `guides/${f}`)];
interface Block { file: string; line: number; lang: 'mcp' | 'js'; body: string }
const blocks: Block[] = [];
for (const file of files) {
  const text = readFileSync(path.join(DIR, file), 'utf8');
  for (const m of text.matchAll(/^```(mcp|js)\n([\s\S]*?)^```/gm)) {
    blocks.push({ file, line: text.slice(0, m.index).split('\n').length, lang: m[1] as 'mcp' | 'js', body: m[2] });
  }
}

let svc: TestService;
let fx: FixtureServer;
let browser: Browser;

beforeAll(async () => {
  fx = await startFixtureServer();
  svc = await startTestService();
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_FLAGS });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await svc?.stop();
  await fx?.close();
});

describe('skills/ariadne', () => {
  it('has a short always-loaded description and the deeper guides', () => {
    const skill = readFileSync(path.join(DIR, 'SKILL.md'), 'utf8');
    const desc = /^---\nname: ariadne\ndescription: (.+)\n---\n/.exec(skill)?.[1];
    expect(desc).toBeTruthy();
    expect(Math.ceil(desc!.length / 4)).toBeLessThan(130); // ~100 tokens
    expect(files).toEqual(expect.arrayContaining(['guides/locator-patterns.md', 'guides/debugging.md']));
    expect(blocks.filter((b) => b.lang === 'mcp').length).toBeGreaterThanOrEqual(10);
    expect(blocks.filter((b) => b.lang === 'js').length).toBeGreaterThanOrEqual(6);
    // The MCP server serves the same files as prompts/resources.
    expect(loadGuide().map((d) => d.file)).toEqual(files.sort((a, b) => (a === 'SKILL.md' ? -1 : b === 'SKILL.md' ? 1 : a.localeCompare(b))));
  });

  it('names only tools the MCP server has', async () => {
    const c = await connectHttpMcp(svc.url);
    try {
      const tools = new Set((await c.client.listTools()).tools.map((t) => t.name));
      const named = new Set<string>();
      for (const f of files) {
        const text = readFileSync(path.join(DIR, f), 'utf8');
        for (const m of text.matchAll(/\b((?:browser|playwright)_[a-z_]+|resolve_container|inspect_pattern|extract_anchors|select_role|list_roles|get_locators|run_flow|get_run)\b/g)) named.add(m[1]);
      }
      expect(named.size).toBeGreaterThan(20);
      expect([...named].filter((n) => !tools.has(n))).toEqual([]);
    } finally {
      await c.close();
    }
  });

  for (const b of blocks.filter((x) => x.lang === 'js')) {
    it(`${b.file}:${b.line} locators match exactly one element`, async () => {
      const lines = b.body.split('\n').filter((l) => l.trim());
      const url = /^\/\/ page: (\S+)/.exec(lines[0])?.[1];
      expect(url, 'a js block starts with // page: <url>').toBeTruthy();
      const page = await browser.newPage();
      try {
        await page.goto(url!.replace(PLACEHOLDER, fx.url));
        for (const code of lines.slice(1).filter((l) => !l.startsWith('//'))) {
          // eslint-disable-next-line no-new-func
          const loc = new Function('page', `return ${code};`)(page);
          expect(await loc.count(), code).toBe(1);
        }
      } finally {
        await page.close();
      }
    });
  }

  for (const b of blocks.filter((x) => x.lang === 'mcp')) {
    it(`${b.file}:${b.line} runs as written`, async () => {
      const c = await connectHttpMcp(svc.url);
      try {
        let last = '';
        let call = '';
        for (const line of b.body.split('\n').filter((l) => l.trim())) {
          if (line.startsWith('→ ')) {
            expect(last, `${b.file}:${b.line}: after ${call}`).toContain(line.slice(2).trim());
            continue;
          }
          const m = /^([a-z_]+) (\{.*\})$/.exec(line);
          expect(m, `not a tool call: ${line}`).toBeTruthy();
          call = line;
          const args = JSON.parse(m![2].replaceAll(PLACEHOLDER, fx.url));
          last = (await c.call(m![1], args)).text;
        }
      } finally {
        await c.close();
      }
    }, 60_000);
  }
});
