import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    alias: {
      // `server-only` throws outside React Server Components; tests and scripts run lib code in plain Node.
      'server-only': fileURLToPath(new URL('./node_modules/server-only/empty.js', import.meta.url)),
      '@': fileURLToPath(new URL('./', import.meta.url)),
    },
  },
  test: {
    // Tests that time work run on their own (TIMING_TESTS=1, one file at a time), after the others: beside
    // other files' work on a small machine, what they measure would be the neighbours.
    include:
      process.env.TIMING_TESTS === '1'
        ? ['tests/timing/**/*.test.ts']
        : ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    setupFiles: ['tests/setup/quiet-logs.ts'],
    // Many files wait on loopback I/O (a sandbox, a Redis): two workers even on two cores, where Vitest's
    // default (cores - 1) runs one file at a time and leaves a core idle (36 s against 20 s here).
    maxWorkers: process.env.TIMING_TESTS === '1' ? 1 : Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
