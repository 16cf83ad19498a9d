import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// The documentation as data, for tests/docs.test.ts and tests/docs-examples.test.ts:
// README.md and every docs/*.md, their fenced examples, their relative links.

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** README.md and docs/*.md, as repository-relative paths. */
export function docFiles(): string[] {
  return ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
}

export const readDoc = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** Languages that are examples: every block in one of them runs in tests/docs-examples.test.ts. */
export const EXAMPLE_LANGS = ['sh', 'json', 'ts', 'python', 'markdown', 'yaml'] as const;
export type ExampleLang = (typeof EXAMPLE_LANGS)[number];

export interface Example {
  file: string;
  line: number;
  lang: ExampleLang;
  body: string;
  /** `<!-- example: not run: <why> -->` just above the fence: why it cannot run here. */
  notRun?: string;
  /** `<!-- example: variables {"NAME": "value"} -->` just above a plan: its run's variables. */
  variables?: Record<string, string>;
}

/** Every fenced block of a file; blocks in other languages (layout trees, text) are not examples. */
export function examplesOf(file: string): { examples: Example[]; others: { line: number; lang: string }[] } {
  const text = readDoc(file);
  const examples: Example[] = [];
  const others: { line: number; lang: string }[] = [];
  for (const m of text.matchAll(/^```([a-z]*)\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, m.index).split('\n').length;
    const before = text.slice(0, m.index).trimEnd().split('\n').pop() ?? '';
    const notRun = /^<!-- example: not run: (.+) -->$/.exec(before)?.[1];
    const vars = /^<!-- example: variables (\{.*\}) -->$/.exec(before)?.[1];
    const variables = vars ? (JSON.parse(vars) as Record<string, string>) : undefined;
    if ((EXAMPLE_LANGS as readonly string[]).includes(m[1])) examples.push({ file, line, lang: m[1] as ExampleLang, body: m[2], notRun, variables });
    else others.push({ line, lang: m[1] });
  }
  return { examples, others };
}

/**
 * Checks the `→ expected` lines of an example against what it printed: each must appear,
 * in order; `…` in an expectation stands for any text on that line. Returns the misses.
 */
export function unmetExpectations(expected: string[], output: string): string[] {
  const misses: string[] = [];
  let from = 0;
  for (const want of expected) {
    const re = new RegExp(want.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[^\\n]*?'));
    const m = re.exec(output.slice(from));
    if (!m) misses.push(want);
    else from += m.index + m[0].length;
  }
  return misses;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function slug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

export function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = readDoc(file).replace(/^```[\s\S]*?^```$/gm, '');
  for (const m of text.matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n ? `${base}-${n}` : base);
  }
  return anchors;
}
