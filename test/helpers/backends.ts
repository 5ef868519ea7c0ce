// One data set, served by each of the three backends: written as YAML files into a Git
// fixture repo (git), as a seed file (memory), and as a seed file loaded into a new SQLite
// database (sqlite). Parity tests start the same suite on each.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseRecordFile } from '../../src/domain/repo-layout/record-file-parse.ts';
import { assembleRecords } from '../../src/domain/repo-layout/record-files.ts';
import type { Collection } from '../../src/domain/records.ts';
import { parseSeed } from '../../src/domain/seed.ts';
import { asRepoFiles, asSeedFile, fixtureData } from './fixture-data.ts';
import { makeConfigRepo } from './git-fixture.ts';
import { startTestService, type TestService } from './service.ts';
import { tempDatabase } from './sqlite.ts';

export const BACKENDS = ['git', 'memory', 'sqlite'] as const;
export type Backend = (typeof BACKENDS)[number];

export type DataSet = Record<Collection, { id: string }[]>;

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/** The environment that makes `backend` serve `data`. */
export function backendEnv(backend: Backend, data: DataSet = fixtureData): Record<string, string> {
  switch (backend) {
    case 'git':
      return { STORE_BACKEND: 'git', CONFIG_REPO: makeConfigRepo(asRepoFiles(data)) };
    case 'memory':
      return { STORE_BACKEND: 'memory', SEED_FILE: asSeedFile(data) };
    case 'sqlite':
      return { STORE_BACKEND: 'sqlite', SEED_FILE: asSeedFile(data), DATABASE_URL: tempDatabase('rwc').url };
  }
}

export function startBackend(backend: Backend, data: DataSet = fixtureData, env: Record<string, string> = {}): Promise<TestService> {
  return startTestService({ ...backendEnv(backend, data), ...env });
}

/** The reference seed file of the repository (data/seed.json), as records. */
export function referenceSeedData(): DataSet {
  const parsed = parseSeed(JSON.parse(readFileSync(join(REPO_ROOT, 'data', 'seed.json'), 'utf8')));
  if (!parsed.ok) throw new Error(`data/seed.json is invalid: ${JSON.stringify(parsed.problems)}`);
  return parsed.records;
}

/** The example config repo of the repository (config-repo-example/), as records. */
export function exampleRepoData(): DataSet {
  const root = join(REPO_ROOT, 'config-repo-example');
  const files: { path: string; text: string }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files.push({ path: relative(root, full).split('\\').join('/'), text: readFileSync(full, 'utf8') });
    }
  };
  walk(root);
  const parsed = assembleRecords(files.flatMap((f) => {
    const result = parseRecordFile(f.path, f.text);
    return result ? [{ path: f.path, parsed: result }] : [];
  }));
  if (parsed.problems.length > 0) throw new Error(`config-repo-example is invalid: ${JSON.stringify(parsed.problems)}`);
  return parsed.records;
}
