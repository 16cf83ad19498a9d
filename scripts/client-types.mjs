#!/usr/bin/env node
// Generates packages/client/src/api.ts (the typed client's request and response types)
// from openapi.yaml with openapi-typescript. `--check` exits 1 when the committed file
// differs (tests/client.test.ts runs the same comparison).

import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLIENT_TYPES = path.join(ROOT, 'packages/client/src/api.ts');

export async function generateClientTypes() {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(pathToFileURL(path.join(ROOT, 'openapi.yaml')));
  return `// Generated from openapi.yaml by scripts/client-types.mjs (openapi-typescript). Do not edit.\n\n${astToString(ast)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = await generateClientTypes();
  if (process.argv.includes('--check')) {
    const same = readFileSync(CLIENT_TYPES, 'utf8') === text;
    console.log(same ? 'client types match openapi.yaml' : 'client types drifted: run npm run client:types');
    process.exit(same ? 0 : 1);
  }
  writeFileSync(CLIENT_TYPES, text);
  console.log(`wrote ${path.relative(ROOT, CLIENT_TYPES)}`);
}
