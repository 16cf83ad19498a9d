import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// What `ariadne eval` runs: eval cases, each a plan with the outcome it should have.
//
// A folder of plans: every `*.md` file in it (sorted by name) is one eval case. A plan may
// start with a front-matter block saying where it starts and what it should end as:
//
//   ---
//   url: http://127.0.0.1:8080/        (or a path, joined to --url)
//   expect: pass                       (pass: every case passes; fail: the plan must fail,
//                                       e.g. it asks for something the page does not have)
//   var.PASSWORD: hunter2              (plan variables, one per line)
//   ---
//   # Case 1: ...
//
// The project's own corpus (tests/corpus): its pages' plan episodes, judged like the
// corpus bench does: by the page's own record of what was done to it, not by the report.

export interface EvalCase {
  /** A stable name: the file name, or the corpus episode id. */
  id: string;
  /** The plan's Markdown (front matter removed). */
  plan: string;
  /** Where the run starts (absolute). */
  url: string;
  expect: 'pass' | 'fail';
  variables?: Record<string, string>;
  /**
   * A judge of the page's own record (corpus episodes): after a passing run, does the page
   * show the expected outcome? A passing run whose page disagrees is a silent wrong.
   */
  judge?: () => Promise<{ ok: boolean; why: string }>;
}

export class EvalInputError extends Error {}

/** Front matter (`---` lines) of a plan file: its key/value lines and the plan after it. */
export function splitFrontMatter(text: string): { meta: Record<string, string>; body: string } {
  const m = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!m) return { meta: {}, body: text };
  const meta: Record<string, string> = {};
  for (const line of m[1].split(/\r?\n/)) {
    const t = line.replace(/\s+#.*$/, '').trim();
    if (!t) continue;
    const i = t.indexOf(':');
    if (i <= 0) throw new EvalInputError(`front matter line "${line.trim()}": write key: value`);
    meta[t.slice(0, i).trim()] = t.slice(i + 1).trim();
  }
  return { meta, body: text.slice(m[0].length) };
}

/** The eval cases of a folder of plans (see the format above). */
export function loadPlanFolder(dir: string, baseUrl?: string): EvalCase[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.md') && statSync(path.join(dir, f)).isFile()).sort();
  } catch (err) {
    throw new EvalInputError(`cannot read the folder ${dir}: ${(err as Error).message}`);
  }
  if (!files.length) throw new EvalInputError(`${dir} holds no .md plan`);
  return files.map((f) => {
    const { meta, body } = splitFrontMatter(readFileSync(path.join(dir, f), 'utf8'));
    const expect = (meta.expect ?? 'pass').toLowerCase();
    if (expect !== 'pass' && expect !== 'fail') throw new EvalInputError(`${f}: expect is "pass" or "fail", not "${meta.expect}"`);
    const raw = meta.url ?? '';
    let url: string;
    try {
      url = new URL(raw, baseUrl ? baseUrl.replace(/\/?$/, '/') : undefined).toString();
    } catch {
      throw new EvalInputError(`${f}: no start URL (front matter "url:", or --url for a relative one)`);
    }
    const variables = Object.fromEntries(Object.entries(meta).filter(([k]) => k.startsWith('var.')).map(([k, v]) => [k.slice(4), v]));
    return { id: f.replace(/\.md$/, ''), plan: body, url, expect, ...(Object.keys(variables).length ? { variables } : {}) };
  });
}

interface CorpusModules {
  loadCorpus(): { name: string; path: string }[];
  episodesOf(corpus: unknown, o: { kinds: string[] }): { id: string; page: { name: string; path: string }; expect: 'pass' | 'fail'; steps: string[]; outcome?: unknown }[];
  checkOutcome(record: unknown, outcome: unknown): { ok: boolean; why: string };
  readRecord(corpusUrl: string, key: string, o: { until?: (r: unknown) => boolean; quietMs?: number; capMs?: number }): Promise<unknown>;
}

/** Is this folder the project's corpus (runner.mjs and pages/)? */
export function isCorpusDir(dir: string): boolean {
  try {
    return statSync(path.join(dir, 'runner.mjs')).isFile() && statSync(path.join(dir, 'pages')).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The plan episodes of the project's corpus as eval cases. The corpus's own runner module
 * loads the pages and judges the page records; its pages are served at corpusUrl (the
 * corpus server keeps the records they post).
 */
export async function loadCorpusCases(dir: string, corpusUrl: string, o: { pages?: string[]; limit?: number } = {}): Promise<EvalCase[]> {
  const runner = (await import(pathToFileURL(path.resolve(dir, 'runner.mjs')).href)) as CorpusModules;
  let episodes = runner.episodesOf(runner.loadCorpus(), { kinds: ['plan'] });
  if (o.pages?.length) episodes = episodes.filter((e) => o.pages!.some((p) => e.page.name === p || e.id.startsWith(`${p}/`) || e.id === p));
  if (o.limit !== undefined) episodes = episodes.slice(0, o.limit);
  let seq = 0;
  return episodes.map((ep) => {
    const key = `eval-${ep.id.replace(/[^\w-]+/g, '_')}-${Date.now().toString(36)}-${(seq++).toString(36)}`;
    const pageUrl = `${corpusUrl}${ep.page.path}?k=${key}`;
    const plan = [`# Case 1: ${ep.id}`, `- Go to ${pageUrl}`, ...ep.steps.map((s) => `- ${s}`)].join('\n');
    const outcome = ep.outcome;
    return {
      id: ep.id,
      plan,
      url: `${corpusUrl}/corpus/pages/blank.html`,
      expect: ep.expect,
      ...(outcome
        ? {
            judge: async () => {
              const record = await runner.readRecord(corpusUrl, key, { until: (r) => runner.checkOutcome(r, outcome).ok, quietMs: 400 });
              return runner.checkOutcome(record, outcome);
            },
          }
        : {}),
    };
  });
}

/** The corpus's own server (serves its pages, keeps their records), from its server.mjs. */
export async function startCorpus(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = (await import(pathToFileURL(path.resolve(dir, 'server.mjs')).href)) as { startCorpusServer(): Promise<{ url: string; close(): Promise<void> }> };
  return server.startCorpusServer();
}
