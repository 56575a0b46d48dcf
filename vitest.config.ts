import path from 'node:path';
import { defineConfig } from 'vitest/config';

/**
 * Integration tests through the real app. The database is embedded PGlite unless
 * TEST_DATABASE_URL points at PostgreSQL; each test file gets its own copy of a migrated one.
 */
export default defineConfig({
  // The page renderer's source (src/web/ssr) is tested as the server runs it: without a service worker.
  resolve: { alias: { 'virtual:pwa-register/react': path.resolve(import.meta.dirname, 'src/web/ssr/pwa-register-stub.ts') } },
  test: {
    include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
    // The hardening suite runs on its own (vitest.hardening.config.ts), with its summary table.
    exclude: ['test/hardening/**', 'node_modules/**'],
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/setup-file.ts'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
