import { mkdtempSync, rmSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { loadConfig, startService } from '@ariadne/server';
import { descendantsOf, redisProcessesIn } from './helpers/process.js';

// Chromium launches while the app is built (runtime.ts): a launch that fails must still end
// the start with the documented error, and leave no embedded Redis or child process behind.
const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-startfail-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a Chromium that cannot launch ends the start with a clear error and leaves nothing running', async () => {
  const fake = path.join(dir, 'not-chromium');
  writeFileSync(fake, '#!/bin/sh\necho "this is not a browser" >&2\nexit 3\n');
  chmodSync(fake, 0o755);
  const stateDir = path.join(dir, 'state');
  const before = new Set(descendantsOf(process.pid));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', STATE_DIR: stateDir, LOG_LEVEL: 'silent', CHROMIUM_PATH: fake, POOL_WARM_CONTEXTS: '1' });
  const err = await startService(config).then(() => null, (e: Error) => e);
  expect(err?.message).toMatch(/^Could not launch Chromium \(.*not-chromium\)/);
  expect(redisProcessesIn(stateDir)).toEqual([]);
  expect(descendantsOf(process.pid).filter((p) => !before.has(p))).toEqual([]);
});
