import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

// Node's module compile cache for the test workers and the Node processes the tests start. The
// service and the bin enable it themselves (src/main.ts); the tests also run the tool from
// src/tools/cli.ts, and the workers load node_modules with Node's own loader. Type-stripped and
// compiled modules are kept on disk, so a start does about half the CPU work of a cold one (the
// tool's `validate` of the example: 1.1 s of CPU against 0.55 s; three files that start the
// tool and the service often, 29-30 s against 32-37 s). Node ignores entries that do not match.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'gitops-config-api-compile-cache');

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
    // Three workers on two cores. With two, a full run left the cores idle for 13 % of its time
    // (89 of 670 core-seconds: tests awaiting timers, flushes to disk, other processes), which a
    // third worker fills: 291 s against 323-335 s for the whole suite, with the same 550-570 s
    // of CPU (`npx vitest run`, one after the other on a machine otherwise idle). The slowest
    // test took 21 s of its 30 s limit. An earlier trial of three, while other test runs shared
    // the machine (a load of 20), failed 12 of the e2e tier's 36 tests on their limits; a run of
    // the suite is meant to have the machine to itself. Files start longest first: the projects in
    // the order of their names (e2e, integration, unit), in each the files that failed last, then
    // by their time in the last run (Vitest's cache; by size on a fresh clone).
    maxWorkers: 3,
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
