import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '@ariadne/server';

// The server's V8 flags (apps/server/src/node-flags.ts) only act on the command line, so
// each way the server is started must carry them, and this Node must accept them.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('the server starts with its V8 flags', () => {
  it('npm start, the Dockerfile and the concurrency bench pass every flag before the entry point', () => {
    expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
    const start: string = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts.start;
    const startArgs = /exec node (.*) apps\/server\/dist\/main\.js/.exec(start)?.[1].split(' ') ?? [];
    const cmd = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').split('\n').filter((l) => l.startsWith('CMD [')).pop()!;
    const dockerArgs: string[] = JSON.parse(cmd.slice(4));
    for (const flag of SERVER_NODE_FLAGS) {
      expect(startArgs, 'package.json "start"').toContain(flag);
      expect(dockerArgs.indexOf(flag), `Dockerfile ${cmd}`).toBeGreaterThan(0);
      expect(dockerArgs.indexOf(flag)).toBeLessThan(dockerArgs.indexOf('apps/server/dist/main.js'));
    }
    expect(readFileSync(path.join(ROOT, 'bench/concurrency.mjs'), 'utf8')).toMatch(/\.\.\.SERVER_NODE_FLAGS/);
  });

  it('this Node accepts them, and they let the young generation grow further under allocation', () => {
    // The largest the young generation gets while short-lived objects pour in (retained in
    // batches, as requests in flight are).
    const probe = "const v8=require('v8');let max=0,keep=[];for(let i=0;i<3e6;i++){keep.push({a:i,b:[i]});if(keep.length>200000)keep=[];if(i%1000===0)max=Math.max(max,v8.getHeapSpaceStatistics().find((s)=>s.space_name==='new_space').space_size)}console.log(max)";
    const base = spawnSync(process.execPath, ['-e', probe], { encoding: 'utf8' });
    const flagged = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', probe], { encoding: 'utf8' });
    expect(base.status, base.stderr).toBe(0);
    // An unknown flag: Node prints "bad option" and exits 9.
    expect(flagged.status, flagged.stderr).toBe(0);
    expect(Number(flagged.stdout)).toBeGreaterThan(Number(base.stdout));
  });
});
