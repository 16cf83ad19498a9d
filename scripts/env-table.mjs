#!/usr/bin/env node
// Prints the README configuration table from ENV_VARS in apps/server/src/config.ts
// (via its build), so the table and the code list the same variables.
// `npm run env-table`, then paste the output under "## Configuration" in README.md;
// tests/config.test.ts fails when they differ.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const cell = (s) => String(s).replace(/\|/g, '\\|');

/** Markdown table of the given ENV_VARS entries. */
export function envTable(vars) {
  const rows = vars.map((v) => {
    // "(embedded)" and the like describe a behaviour, not a literal value.
    const def = /^\(.*\)$/.test(v.default) ? `_${v.default.slice(1, -1)}_` : `\`${cell(v.default)}\``;
    return `| \`${v.name}\` | ${def} | ${cell(v.description)} |`;
  });
  return ['| Variable | Default | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const { ENV_VARS } = await import(pathToFileURL(path.join(ROOT, 'apps/server/dist/config.js')).href);
  process.stdout.write(`${envTable(ENV_VARS)}\n`);
}
