import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores on CI; the e2e tests spawn servers of their own.
    maxWorkers: 2,
  },
});
