import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/globalSetup.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores here: run test files on two forks so long simulations do not starve each other.
    pool: 'forks',
    maxWorkers: 2,
  },
});
