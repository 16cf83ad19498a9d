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
    // Two worker processes run every file in turn instead of a fresh process per file:
    // loading the service's modules (playwright-core, fastify, bullmq) per file was about a
    // fifth of the suite's time. Files share no state: each starts its own service, Redis
    // prefix and fixture server, and closes them.
    isolate: false,
    fileParallelism: true,
    reporters: ['default'],
  },
});
