import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Tests that install the package with npm from the registry (test/tools/install.test.ts) need
 * the network and minutes: `npm run test:install` runs them (vitest.install.config.ts), so
 * that `npm test` needs nothing beyond what `npm ci` fetched.
 */
export const NEEDS_REGISTRY = ['test/tools/install.test.ts'];

/**
 * The tiers (docs/development.md, "Tests"). `unit`: files named `*.unit.test.ts`, which start
 * no process and no server (test/helpers/unit-tier-guard.ts refuses it as it happens,
 * test/architecture/test-tiers.unit.test.ts checks it from the imports); `npm run test:unit`.
 * `integration`: every other file, which starts the service, git, openssl or a child process.
 * `e2e`: test/e2e/, the suites of many processes or a browser. `npm test` runs all three.
 */
const UNIT = 'test/**/*.unit.test.ts';
const E2E = 'test/e2e/**/*.test.ts';
// The web UI is built first when missing or older than its sources: the service reads it at start.
const UI_BUILD = 'test/helpers/ui-build.ts';

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two workers on two cores. Three were faster on a cross-section of the integration tier
    // (33 files, every third by time: 429 s against 581 s, for the same 218-230 s of CPU, at a
    // load of 10-14 from other work on the machine), but in a full run at a load of 20 the e2e
    // files, which start first, ran three at once and 12 of their 36 tests failed their limits
    // (none failed in a full run with two workers at a load of 8-10). There was no quiet moment
    // to measure in. Files start longest first: the projects in the order of their names (e2e,
    // integration, unit), in each the files that failed last, then by their time in the last
    // run (Vitest's cache; by size on a fresh clone).
    maxWorkers: 2,
    // expect.poll gives up after 1 s by default: on a loaded machine a page or a service takes
    // longer than that to show what a test waits for, and the test's own limit is the one that counts.
    expect: { poll: { timeout: 10_000 } },
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      {
        extends: true,
        // isolate: false — the files of a worker share one module graph (see integration).
        test: { name: 'unit', include: [UNIT], setupFiles: ['test/helpers/unit-tier-guard.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/**/*.test.ts'],
          // The files of a worker share one module graph: the service's modules are loaded once
          // per worker rather than once per file (about 1.5 s of CPU each: 10 files of the
          // HTTP layer took 31 s of CPU isolated, 16 s not). Each file starts and stops its own
          // services, and nothing of src/ keeps state from one service to the next.
          isolate: false,
          exclude: [...configDefaults.exclude, UNIT, E2E, ...NEEDS_REGISTRY],
          globalSetup: [UI_BUILD],
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: [E2E], globalSetup: [UI_BUILD] },
      },
    ],
  },
});
