// The tiers of the tests (docs/development.md, "Tests"): a unit test, `<name>.unit.test.ts`,
// starts no process and no server, so `npm run test:unit` runs them all in seconds; every
// other test file starts one (or it would be a unit test), and the slow end-to-end suites
// (many processes, a browser) sit in test/e2e/. Checked here from what each file imports, as
// far as imports show it: a file starts something when what it loads reaches the service's
// entry points (src/server.ts, src/main.ts), a browser (playwright-core), Node's child
// processes, or test code using Node's network modules (a server of its own, or a client of
// one). What imports cannot show, the unit tier's setup file refuses as it happens
// (test/helpers/unit-tier-guard.ts).
import { readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valueImports } from '../helpers/module-graph.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY_POINTS = ['src/server.ts', 'src/main.ts'];
const STARTING_PACKAGES = ['node:child_process', 'playwright-core'];
const NETWORK_MODULES = ['node:http', 'node:https', 'node:net', 'node:tls', 'node:http2', 'node:dgram', 'node:cluster'];
/** Imports node:child_process and node:http only to show that the unit tier refuses them. */
const GUARD_TEST = 'test/architecture/unit-tier-guard.unit.test.ts';

function testFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [relative(ROOT, path)] : [];
  });
}

const imports = new Map<string, ReturnType<typeof valueImports>>();
/** One file's imports, each file read once for all the test files. */
function importsOf(file: string): ReturnType<typeof valueImports> {
  let known = imports.get(file);
  if (!known) {
    known = /\.[cm]?[jt]sx?$/.test(file) ? valueImports(file) : { files: [], packages: [] };
    imports.set(file, known);
  }
  return known;
}

/** What the file loads, followed file by file, that starts a process or a server: empty when nothing does. */
function starters(file: string): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const visit = (path: string): void => {
    if (seen.has(path)) return;
    seen.add(path);
    const relativePath = relative(ROOT, path);
    if (ENTRY_POINTS.includes(relativePath)) found.add(relativePath);
    const { files, packages } = importsOf(path);
    for (const name of packages) if (STARTING_PACKAGES.includes(name)) found.add(name);
    const network = packages.filter((name) => NETWORK_MODULES.includes(name));
    if (relativePath.startsWith('test/') && network.length > 0) found.add(`${relativePath} (${network.join(', ')})`);
    for (const target of files) visit(target);
  };
  visit(join(ROOT, file));
  return [...found];
}

const files = testFiles(join(ROOT, 'test'));
const unit = files.filter((file) => file.endsWith('.unit.test.ts'));
const others = files.filter((file) => !file.endsWith('.unit.test.ts'));

describe('the tiers of the tests', () => {
  it('has tests in each tier', () => {
    expect(unit.length).toBeGreaterThan(30);
    expect(others.length).toBeGreaterThan(30);
    expect(files.filter((file) => file.startsWith('test/e2e/')).length).toBeGreaterThan(3);
  });

  it('keeps end-to-end suites out of the unit tier', () => {
    expect(unit.filter((file) => file.startsWith('test/e2e/'))).toEqual([]);
  });

  it('has unit tests that reach nothing that starts a process or a server', () => {
    const starting = unit.filter((file) => file !== GUARD_TEST).map((file) => [file, starters(file)] as const);
    expect(Object.fromEntries(starting.filter(([, found]) => found.length > 0))).toEqual({});
  });

  it('has no test outside the unit tier that starts nothing (it would be a unit test)', () => {
    expect(others.filter((file) => starters(file).length === 0)).toEqual([]);
  });
});
