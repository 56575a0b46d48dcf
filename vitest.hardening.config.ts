import { defineConfig } from 'vitest/config';

const TIMING = 'test/hardening/timing/**/*.test.ts';

/**
 * The hardening suite: attacks thrown at the real app, each reporting what it tried and what got
 * through. Bounded inside `npm test`; `npm run test:hardening` runs it in full (HARDENING_SCALE=full).
 * Checks that compare response times run last and alone: a busy neighbour on two cores would
 * swamp the few milliseconds they look for.
 */
export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts', 'test/hardening/global-setup.ts'],
    setupFiles: ['test/helpers/setup-file.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'attacks', include: ['test/hardening/**/*.test.ts'], exclude: [TIMING], maxWorkers: 2, sequence: { groupOrder: 0 } },
      },
      { extends: true, test: { name: 'timing', include: [TIMING], maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
