import { defineConfig } from 'vitest/config';

// Tests drive a real Chromium and a real Redis: give them time, and run at most two
// files at once on a 2-core machine.
export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'apps/*/test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    fileParallelism: true,
    reporters: ['default'],
  },
});
