import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestService, type TestService } from './helpers/service.js';
import { startFixtureServer, type FixtureServer } from './helpers/fixture-server.js';

// The Python client (clients/python/ariadne.py, standard library only): its unittest
// suite runs against this real service, so `npm test` covers it.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const KEY = 'python-client-key-0123456789abcdef';
let svc: TestService;
let fx: FixtureServer;

beforeAll(async () => {
  fx = await startFixtureServer();
  svc = await startTestService({ API_KEYS: `${KEY}:acme` });
}, 60_000);

afterAll(async () => {
  await svc?.stop();
  await fx?.close();
});

it('passes its unittest suite against the running service', async () => {
  const out = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('python3', ['-m', 'unittest', '-v', 'test_ariadne'], {
      cwd: path.join(ROOT, 'clients/python'),
      env: { PATH: process.env.PATH ?? '', ARIADNE_URL: svc.url, ARIADNE_TOKEN: KEY, FIXTURES_URL: fx.url, PYTHONDONTWRITEBYTECODE: '1' },
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
  expect(out.code, out.output).toBe(0);
  expect(out.output).toMatch(/Ran 3 tests/);
  expect(out.output).toMatch(/\nOK/);
}, 120_000);
