// `npm run test:install`: the tests that install the package with npm from the registry, as a
// config repo installs it (from a tarball, from a Git URL, through npx). They need the network
// and take minutes, so `npm test` leaves them out (vitest.config.ts); CI runs both.
import { defineConfig } from 'vitest/config';
import { NEEDS_REGISTRY } from './vitest.config.ts';

export default defineConfig({
  test: {
    include: NEEDS_REGISTRY,
    // Each install has its own time limit (15 minutes); the set-up clones and builds.
    testTimeout: 15 * 60_000,
    hookTimeout: 5 * 60_000,
    maxWorkers: 1,
    reporters: ['default', ['json', { outputFile: 'test-results/vitest-install.json' }]],
  },
});
