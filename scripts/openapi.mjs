#!/usr/bin/env node
// Writes openapi.yaml from the built route schemas (run `npm run openapi` after
// changing a route or a schema; tests/openapi.test.ts checks for drift), then the typed
// client's types from it (tests/client.test.ts checks those).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { generateOpenApi } = await import(path.join(ROOT, 'apps/server/dist/openapi.js'));
const out = path.join(ROOT, 'openapi.yaml');
writeFileSync(out, await generateOpenApi());
process.stderr.write(`wrote ${path.relative(process.cwd(), out) || out}\n`);

// The typed client's types come from the spec: keep them in step.
const { generateClientTypes, CLIENT_TYPES } = await import('./client-types.mjs');
writeFileSync(CLIENT_TYPES, await generateClientTypes());
process.stderr.write(`wrote ${path.relative(process.cwd(), CLIENT_TYPES)}\n`);
