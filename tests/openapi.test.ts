import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { Validator } from '@seriousme/openapi-schema-validator';
import type { FastifyInstance } from 'fastify';
// The server source, not its build: the check must see a route changed a minute ago.
import { buildSpecApp, generateOpenApi } from '../apps/server/src/openapi.js';

// openapi.yaml is generated from the route schemas and committed. These tests keep it
// honest: it is exactly what the code generates, it is valid OpenAPI 3.1, and no route
// the server answers is missing from it.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const committed = readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8');
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/**
 * Every METHOD path the router knows, read from printRoutes({ commonPrefix: false }):
 * one node per line, 4 columns per level, the node's path segment, then its methods.
 */
function routesOf(app: FastifyInstance): string[] {
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([\s│]*)[├└]── (\S+)(?: \(([^)]*)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1].length / 4;
    stack.length = depth;
    stack.push(m[2]);
    const full = stack.join('');
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (method !== '-') out.push(`${method} ${full}`);
    }
  }
  return out;
}

describe('openapi.yaml', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildSpecApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('is exactly what the route schemas generate', async () => {
    const generated = await generateOpenApi();
    // Compare line sets first so a drift names the lines, not 14k lines of diff.
    const want = generated.split('\n');
    const have = committed.split('\n');
    const firstDiff = want.findIndex((l, i) => l !== have[i]);
    expect(
      generated === committed,
      `openapi.yaml is out of date (first difference at line ${firstDiff + 1}: ` +
        `committed ${JSON.stringify(have[firstDiff])}, generated ${JSON.stringify(want[firstDiff])}). ` +
        'Run `npm run openapi` and commit openapi.yaml.',
    ).toBe(true);
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const res = await validator.validate(committed);
    expect(res.errors ?? [], JSON.stringify(res.errors, null, 2)).toEqual([]);
    expect(res.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('rejects a broken document (the validator is really checking)', async () => {
    const doc = parse(committed);
    doc.paths['/healthz'].get.responses = 'none';
    const res = await new Validator().validate(doc);
    expect(res.valid).toBe(false);
  });

  it('documents every route the server answers, with its method', () => {
    const doc = parse(committed) as { paths: Record<string, Record<string, unknown>> };
    // The web console's HTML pages (/, /console/...) are not API: tests/console*.test.ts cover them.
    const routes = routesOf(app).filter((r) => !r.startsWith('HEAD ') && !r.startsWith('OPTIONS ') && !/^\w+ \/(console\b.*)?$/.test(r));
    // Guard against the route listing parsing to nothing (the test could not fail then).
    expect(routes).toContain('GET /healthz');
    expect(routes).toContain('DELETE /v1/sessions/:id/roles/:role/pages/:pageId');
    expect(routes.length).toBeGreaterThanOrEqual(20);

    const missing = routes.filter((r) => {
      const [method, url] = r.split(' ');
      const openapiPath = url.replace(/:(\w+)/g, '{$1}');
      return !doc.paths[openapiPath]?.[method.toLowerCase()];
    });
    expect(missing, 'routes missing from openapi.yaml: run `npm run openapi`').toEqual([]);

    // And nothing documented that the server does not answer.
    const served = new Set(routes);
    const extra = Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).filter((k) => METHODS.includes(k)).map((k) => `${k.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
    ).filter((r) => !served.has(r));
    expect(extra).toEqual([]);
  });

  it('gives every operation a summary and a tag', () => {
    const doc = parse(committed) as { paths: Record<string, Record<string, any>> };
    const problems: string[] = [];
    for (const [p, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (!METHODS.includes(method)) continue;
        if (!op.summary) problems.push(`${method} ${p}: no summary`);
        if (!op.tags?.length) problems.push(`${method} ${p}: no tag`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('defines the error body once, and every $ref points at a defined schema', () => {
    const doc = parse(committed) as { components: { schemas: Record<string, unknown> } };
    const refs = [...committed.matchAll(/\$ref: "?#\/components\/schemas\/([^"\s]+)"?/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(20);
    expect([...new Set(refs)].filter((r) => !(r in doc.components.schemas))).toEqual([]);
    // The code list appears once, not once per error response.
    expect(committed.split('const: session_not_found').length - 1).toBe(1);
  });

  it('documents the WebSocket stream as a 101 upgrade', () => {
    const doc = parse(committed) as { paths: Record<string, Record<string, any>> };
    expect(Object.keys(doc.paths['/v1/sessions/{id}/stream']?.get?.responses ?? {})).toEqual(['101']);
  });
});
