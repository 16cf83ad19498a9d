#!/usr/bin/env node
// The one `ariadne` command: `ariadne mcp ...` starts the MCP server on stdio
// (packages/mcp), every other command goes to the flows CLI (`ariadne run plan.md`, ...).

import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const [command, ...rest] = process.argv.slice(2);

if (command === 'mcp') {
  const { runStdio } = await import(path.join(ROOT, 'packages/mcp/dist/index.js'));
  await runStdio(rest);
} else if (!command || command === '-h' || command === '--help' || command === 'help') {
  console.log(`Usage: ariadne <command> [options]

Commands:
  run <plan.md> --url URL   run a plain-English flow plan (ariadne run --help)
  eval <folder> [--planner openai --base-url URL --model NAME]
                            run a corpus of plans with a planner and model: solved / honest
                            failure / silent wrong, turns, tokens, time (ariadne eval --help)
  suite run <name|id> [--base-url URL --sha SHA --environment ENV --wait]
  suite push <suite.yaml>   create or update a saved suite from a file in your repo
  suite list                the suites of your API key (ariadne suite --help)
  mcp [--server URL] [--token KEY]
                            an MCP server on stdio over a running Ariadne (ariadne mcp --help)`);
} else {
  // The flows CLI runs itself when it is the executed script: present it as such.
  const cli = path.join(ROOT, 'packages/flows/dist/cli.js');
  process.argv[1] = cli;
  await import(cli);
}
