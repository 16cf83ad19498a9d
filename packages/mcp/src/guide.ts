import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';

// The agent guide (skills/ariadne/) served as MCP resources and prompts, so clients
// without skill support get the same text: SKILL.md as the core prompt, each file of
// guides/ as a resource and a prompt of its own, loaded only when asked for.

export const GUIDE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../skills/ariadne');

export interface GuideDoc {
  name: string;
  file: string;
  uri: string;
  description: string;
  text: string;
}

/** The guide's documents: SKILL.md first, then guides/*.md. */
export function loadGuide(dir = GUIDE_DIR): GuideDoc[] {
  if (!existsSync(path.join(dir, 'SKILL.md'))) return [];
  const files = ['SKILL.md', ...(existsSync(path.join(dir, 'guides')) ? readdirSync(path.join(dir, 'guides')).filter((f) => f.endsWith('.md')).sort().map((f) => `guides/${f}`) : [])];
  return files.map((file) => {
    const text = readFileSync(path.join(dir, file), 'utf8');
    const fm = /^---\n([\s\S]*?)\n---\n/.exec(text);
    const desc = fm ? /description:\s*(.+)/.exec(fm[1])?.[1] : undefined;
    const title = /^#\s+(.+)$/m.exec(text)?.[1];
    const base = file === 'SKILL.md' ? 'ariadne_guide' : `ariadne_${path.basename(file, '.md').replace(/[^a-z0-9]+/gi, '_')}`;
    return { name: base, file, uri: `ariadne://guide/${file}`, description: (desc ?? title ?? file).trim(), text };
  });
}

export function registerGuide(server: McpServer, docs = loadGuide()): string[] {
  for (const d of docs) {
    server.registerResource(d.name, d.uri, { title: d.file, description: d.description, mimeType: 'text/markdown' }, async (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/markdown', text: d.text }],
    }));
    server.registerPrompt(d.name, { description: d.description }, () => ({
      messages: [{ role: 'user', content: { type: 'text', text: d.text } }],
    }));
  }
  return docs.map((d) => d.name);
}
