import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Runs exported specs with Playwright Test itself (@playwright/test on the Debian
// Chromium), from a temp folder inside the repo so the spec resolves @playwright/test.

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PLAYWRIGHT = path.join(ROOT, 'node_modules/.bin/playwright');

export interface SpecRunner {
  dir: string;
  run(file: string, env?: Record<string, string>): Promise<{ code: number | null; output: string }>;
  remove(): void;
}

export function specRunner(): SpecRunner {
  const dir = mkdtempSync(path.join(ROOT, 'tests/.spec-run-'));
  writeFileSync(path.join(dir, 'playwright.config.ts'), [
    "import { defineConfig } from '@playwright/test';",
    'export default defineConfig({',
    "  testDir: '.',",
    '  workers: 1,',
    '  retries: 0,',
    "  reporter: 'line',",
    '  timeout: 60_000,',
    `  outputDir: ${JSON.stringify(path.join(dir, 'results'))},`,
    '  use: {',
    "    browserName: 'chromium',",
    `    launchOptions: { executablePath: ${JSON.stringify(process.env.CHROMIUM_PATH || '/usr/bin/chromium')}, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] },`,
    '  },',
    '});',
  ].join('\n'));
  return {
    dir,
    run: (file, env = {}) =>
      new Promise((resolve) => {
        const child = spawn(PLAYWRIGHT, ['test', file, '--config', path.join(dir, 'playwright.config.ts')], {
          cwd: dir,
          env: { ...process.env, ...env, PLAYWRIGHT_BROWSERS_PATH: '0', CI: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (d) => (output += d));
        child.stderr.on('data', (d) => (output += d));
        const timer = setTimeout(() => child.kill('SIGKILL'), 80_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, output });
        });
      }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}
