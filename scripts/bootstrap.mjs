#!/usr/bin/env node
// First step of `npm start` and `npm test`: install whatever is missing, then build.
// Plain Node with no dependencies, because it runs before `npm install` has, and
// no syntax newer than Node 12 so that an old Node gets the version message below.
// One line per step on stderr (stdout stays free for the command that follows);
// any failure exits non-zero with a message that says what to do.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeSupport } from './node-support.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(ROOT);

const say = (msg) => process.stderr.write(`[bootstrap] ${msg}\n`);
function fail(msg) {
  process.stderr.write(`[bootstrap] FAILED: ${msg}\n`);
  process.exit(1);
}

/** Runs a command with its output on the terminal; returns null on success, else why not. */
function tryRun(cmd, args) {
  const res = spawnSync(cmd, args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
  if (res.error) return `could not run ${cmd}: ${res.error.message}`;
  if (res.status !== 0) return `\`${[cmd, ...args].join(' ')}\` exited with ${res.status !== null ? res.status : res.signal}`;
  return null;
}

function run(cmd, args, what) {
  const started = Date.now();
  const problem = tryRun(cmd, args);
  if (problem) fail(`${what}: ${problem}`);
  return Date.now() - started;
}

function onPath(bin) {
  return spawnSync('sh', ['-c', `command -v ${bin}`], { encoding: 'utf8' }).stdout.trim() || null;
}

// 1. Node version: one the dependencies accept (package.json "engines"), and a warning,
// once, when its line is past its end of life. `--check-node` stops after this step.
const support = nodeSupport(process.versions.node, new Date());
if (support.refuse) fail(support.refuse);
if (support.warning) say(`WARNING: ${support.warning}`);
say(`node ${process.version}: ok`);
if (process.argv.includes('--check-node')) process.exit(0);

// 2. npm packages: install when missing, or when the lockfile changed since the last install.
const lock = path.join(ROOT, 'package-lock.json');
const installed = path.join(ROOT, 'node_modules', '.package-lock.json');
let reason = null;
if (!existsSync(installed)) reason = 'node_modules missing';
else if (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs) reason = 'package-lock.json changed';
if (reason) {
  say(`npm install (${reason}) ...`);
  const ms = run('npm', ['install', '--no-audit', '--no-fund'], 'npm install');
  // npm leaves .package-lock.json alone when nothing changed: touch it, or every run
  // after a `git checkout` of the lockfile would reinstall.
  if (existsSync(installed)) {
    const now = new Date();
    utimesSync(installed, now, now);
  }
  say(`npm install: done in ${(ms / 1000).toFixed(1)}s`);
} else {
  say('npm packages: up to date');
}

// 3. System packages: Chromium (the browsers) and redis-server (embedded Redis, tests).
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
const missing = [];
const env = (name) => (process.env[name] || '').trim();
const chromium = env('CHROMIUM_PATH') || '/usr/bin/chromium';
if (existsSync(chromium)) say(`chromium: ${chromium}`);
else if (env('CHROMIUM_PATH')) fail(`CHROMIUM_PATH=${chromium} does not exist. Fix the path, or unset it to use Debian's /usr/bin/chromium.`);
else missing.push('chromium');

const redisServer = onPath('redis-server');
if (redisServer) say(`redis-server: ${redisServer}`);
else if (env('REDIS_URL') && process.env.npm_lifecycle_event === 'start') {
  // The service itself only needs the binary for the embedded Redis; tests always do.
  say('redis-server: not installed (fine: REDIS_URL is set)');
} else missing.push('redis-server');

if (missing.length) {
  const install = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (!hasApt) fail(`missing ${missing.join(' and ')}; this is not a Debian/Ubuntu system, install them with your package manager (or set CHROMIUM_PATH / REDIS_URL).`);
  if (!isRoot) fail(`missing ${missing.join(' and ')}. Run:\n    sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive ${install}\nthen run this command again.`);
  // Update the package lists only when apt does not know a package yet (fresh images
  // ship without lists); otherwise the install works from the lists already there.
  const unknown = missing.filter((p) => {
    const policy = spawnSync('apt-cache', ['policy', p], { encoding: 'utf8' }).stdout || '';
    return !/Candidate: (?!\(none\))/.test(policy);
  });
  const lists = '/var/lib/apt/lists';
  const noLists = !existsSync(lists) || readdirSync(lists).filter((f) => f.endsWith('Packages') || f.includes('Packages.')).length === 0;
  let updated = false;
  if (unknown.length || noLists) {
    say('apt-get update ...');
    run('apt-get', ['update', '-q'], 'apt-get update');
    updated = true;
  }
  say(`${install} ...`);
  const started = Date.now();
  const args = install.split(' ').slice(1);
  if (tryRun('apt-get', args)) {
    // Old package lists can name versions the mirror no longer has: refresh once.
    if (updated) fail(`apt-get install failed: run \`${install}\` by hand to see why.`);
    say('apt-get install failed with the current package lists: apt-get update, then retry ...');
    run('apt-get', ['update', '-q'], 'apt-get update');
    run('apt-get', args, 'apt-get install');
  }
  say(`installed ${missing.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)}s`);
  if (missing.includes('chromium') && !existsSync(chromium)) fail(`chromium was installed but ${chromium} is still missing.`);
  if (missing.includes('redis-server') && !onPath('redis-server')) fail('redis-server was installed but is not on PATH.');
}

// 4. Build: tsc -b is incremental, so this is quick when nothing changed.
const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
if (!existsSync(tsc)) fail('typescript is not installed: delete node_modules and run again.');
const ms = run(process.execPath, [tsc, '-b'], 'build (tsc -b)');
say(`build (tsc -b): ok in ${(ms / 1000).toFixed(1)}s`);
