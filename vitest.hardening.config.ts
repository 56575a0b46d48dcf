import { defineConfig } from 'vitest/config';

/**
 * The hardening suite: attacks thrown at the real app, each reporting what it tried and what got
 * through. Bounded inside `npm test`; `npm run test:hardening` runs it in full (HARDENING_SCALE=full).
 */
export default defineConfig({
  test: {
    include: ['test/hardening/**/*.test.ts'],
    globalSetup: ['test/helpers/global-setup.ts', 'test/hardening/global-setup.ts'],
    setupFiles: ['test/helpers/setup-file.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
