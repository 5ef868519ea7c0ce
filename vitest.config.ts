import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that install the package with npm from the registry (test/tools/install.test.ts) need
 * the network and minutes: `npm run test:install` runs them (vitest.install.config.ts), so
 * that `npm test` needs nothing beyond what `npm ci` fetched.
 */
export const NEEDS_REGISTRY = ['test/tools/install.test.ts'];

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...NEEDS_REGISTRY],
    // The web UI is built first when missing or older than its sources: the service reads it at start.
    globalSetup: ['test/helpers/ui-build.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Integration tests start servers and git processes; two cores is all CI has.
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
});
