#!/usr/bin/env node
// Writes openapi.yaml from the built route schemas (run `npm run openapi` after
// changing a route or a schema; tests/openapi.test.ts checks for drift).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { generateOpenApi } = await import(path.join(ROOT, 'apps/server/dist/openapi.js'));
const out = path.join(ROOT, 'openapi.yaml');
writeFileSync(out, await generateOpenApi());
process.stderr.write(`wrote ${path.relative(process.cwd(), out) || out}\n`);
