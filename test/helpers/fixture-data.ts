// One data set in both forms the service reads: config repo files and a seed file.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Collection } from '../../src/domain/records.ts';
import { catalog, clusters, namespaces, rolebindings } from '../fixtures/records.ts';
import { type RepoFiles, tempDir } from './temp-files.ts';

export const fixtureData: Record<Collection, { id: string }[]> = {
  clusters,
  platform_components: catalog,
  namespaces,
  rolebindings,
  rollouts: [],
};

export function asRepoFiles(data: Record<Collection, { id: string }[]> = fixtureData): RepoFiles {
  const files: RepoFiles = {};
  for (const [collection, records] of Object.entries(data)) {
    for (const record of records) files[`${collection}/${record.id}.yaml`] = record;
  }
  files['README.md'] = '# fixture config repo\n';
  return files;
}

/** Writes the data as a seed file with `_id` keys, as the reference implementation does. */
export function asSeedFile(data: Record<Collection, { id: string }[]> = fixtureData): string {
  const seed = Object.fromEntries(
    Object.entries(data).map(([collection, records]) => [
      collection,
      records.map(({ id, ...rest }) => ({ _id: id, ...rest })),
    ]),
  );
  const file = join(tempDir('seed-'), 'seed.json');
  writeFileSync(file, JSON.stringify(seed, null, 2));
  return file;
}
