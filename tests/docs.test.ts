import { describe, expect, it } from 'vitest';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ERROR_STATUS } from '@ariadne/schema';
import { ENV_VARS } from '../apps/server/src/config.js';
// @ts-expect-error plain .mjs script without types
import { envTable, spliceEnvTable } from '../scripts/env-table.mjs';
import { ROOT, anchorsOf, docFiles, readDoc } from './helpers/doc-examples.js';

// The documentation's shape, and the reference tables that must say what the code does:
// the README stays short, every page says what it is for and links its neighbours, no
// relative link is broken, the route table is openapi.yaml's, the error table is
// errors.ts's, the configuration table is ENV_VARS'. (Its examples run in docs-examples.)

const PAGES = [
  'api.md', 'snapshots-and-actions.md', 'exploration-and-locators.md', 'flows-and-planners.md',
  'suites-and-webhooks.md', 'mcp-and-clients.md', 'security.md', 'configuration.md',
  'cluster-and-operations.md', 'docker.md', 'development.md',
];

describe('the README', () => {
  const readme = readDoc('README.md');

  it('is at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('shows one picture that exists, and links the docs index', () => {
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    expect(images.length).toBeGreaterThanOrEqual(1);
    for (const img of images) expect(statSync(path.join(ROOT, img)).size, img).toBeGreaterThan(5_000);
    expect(readme).toContain('(docs/README.md)');
  });
});

describe('docs/', () => {
  it('has one page per subject, each listed in the index', () => {
    const index = readDoc('docs/README.md');
    for (const page of PAGES) {
      expect(existsSync(path.join(ROOT, 'docs', page)), page).toBe(true);
      expect(index, `docs/README.md links ${page}`).toContain(`(${page})`);
    }
  });

  it('starts every page with a title and what it is for, and links the index and a neighbour', () => {
    for (const page of PAGES) {
      const text = readDoc(`docs/${page}`);
      const [title, blank, purpose] = text.split('\n');
      expect(title, page).toMatch(/^# \S/);
      expect(blank, page).toBe('');
      expect(purpose?.length, `${page}: a sentence on what the page is for`).toBeGreaterThan(40);
      const top = text.split(/^## /m)[0];
      expect(top, `${page}: "Neighbours:" line`).toMatch(/Neighbours: /);
      expect(top, `${page} links the index`).toContain('(README.md)');
      expect(PAGES.filter((p) => p !== page && top.includes(`(${p}`)).length, `${page} links a neighbour page`).toBeGreaterThan(0);
    }
  });

  it('has no broken relative link or anchor', () => {
    const broken: string[] = [];
    for (const file of docFiles()) {
      const text = readDoc(file).replace(/^```[\s\S]*?^```$/gm, '');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = m[1];
        if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
        const [rel, anchor] = target.split('#');
        const resolved = rel ? path.join(path.dirname(path.join(ROOT, file)), rel) : path.join(ROOT, file);
        if (!existsSync(resolved)) {
          broken.push(`${file}: ${target} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchorsOf(path.relative(ROOT, resolved)).has(anchor)) {
          broken.push(`${file}: ${target} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('docs/api.md lists the routes of the code', () => {
  const committed = readDoc('openapi.yaml');
  const api = readDoc('docs/api.md');
  const PAGE_OPS = '/v1/sessions/:id/roles/:role';
  const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
  const fromCode = new Set<string>();
  for (const [p, ops] of Object.entries((parse(committed) as { paths: Record<string, Record<string, unknown>> }).paths)) {
    for (const m of Object.keys(ops)) if (METHODS.includes(m)) fromCode.add(`${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`);
  }
  // Table rows start with `METHOD /path`; page operations are written `METHOD …/op`.
  const listed = new Set([...api.matchAll(/^\| `(GET|POST|PUT|PATCH|DELETE) ([^`]+)`/gm)].map((m) => `${m[1]} ${m[2].replace(/^…/, PAGE_OPS)}`));

  it('every route of openapi.yaml is in a table', () => {
    expect([...fromCode].filter((r) => !listed.has(r)), 'add these routes to docs/api.md').toEqual([]);
  });

  it('every route in its tables exists', () => {
    expect([...listed].filter((r) => !fromCode.has(r)), 'docs/api.md lists routes openapi.yaml does not have').toEqual([]);
  });

  it('has every error code with its HTTP status', () => {
    const rows = new Map([...api.matchAll(/^\| `([a-z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])]));
    expect(Object.fromEntries(rows), 'docs/api.md "Errors" table out of date (packages/schema/src/errors.ts)').toEqual({ ...ERROR_STATUS });
  });
});

describe('docs/configuration.md', () => {
  const text = readDoc('docs/configuration.md');

  it('lists exactly the variables of ENV_VARS', () => {
    const listed = [...text.matchAll(/^\| `([A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(ENV_VARS.map((v) => v.name));
  });

  it('holds the table scripts/env-table.mjs generates (defaults and descriptions too)', () => {
    expect(spliceEnvTable(text, envTable(ENV_VARS)), 'docs/configuration.md is out of date: run `npm run env-table`').toBe(text);
  });
});
