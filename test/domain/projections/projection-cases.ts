// The projections' cases (./cases/<case>/): `records.yaml`, the four collections as a person
// writes them (defaults filled by the record schemas), and `expected/`, what each projection
// gives for them, as indented JSON: `expected/<cluster id>/<endpoint>.json` for the three
// per-cluster endpoints, `expected/clusters[.<filter>].json` for the listing (a filter is
// `environment-<env>` or `shard-<i>-of-<n>`). The files are compared byte for byte, so the
// order of every key counts too: the consumer's templates get the same bytes for the same data.
// `npm run golden:update` rewrites the expected files from what the projections give now.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { clusterSummaryInputs, type FleetListFilter } from '../../../src/domain/projections/clusters-list.ts';
import { PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from '../../../src/domain/projections/index.ts';
import type { Cluster, Environment } from '../../../src/domain/records.ts';
import { createSnapshot, type Snapshot } from '../../../src/domain/snapshot.ts';
import { canonicalSets } from '../../fixtures/records.ts';

export const CASES_ROOT = join(import.meta.dirname, 'cases');

export interface ProjectionCase {
  name: string;
  snapshot: Snapshot;
  expected: string;
}

export function projectionCases(): ProjectionCase[] {
  return readdirSync(CASES_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map(({ name }) => {
      const dir = join(CASES_ROOT, name);
      const raw = load(readFileSync(join(dir, 'records.yaml'), 'utf8')) as Parameters<typeof canonicalSets>[0];
      const built = createSnapshot(canonicalSets(raw), `case-${name}`);
      if (!built.ok) throw new Error(`case ${name}: ${JSON.stringify(built.problems)}`);
      return { name, snapshot: built.snapshot, expected: join(dir, 'expected') };
    });
}

/** A projection's answer as the expected files hold it. */
export const asText = (inputs: unknown): string => `${JSON.stringify(inputs, null, 2)}\n`;

/** One row per case and cluster: the projection's input and the expected file's text (undefined: there is none). */
export function perClusterRows(
  endpoint: PerClusterEndpoint,
): { name: string; snapshot: Snapshot; cluster: Cluster; expected: string | undefined }[] {
  return projectionCases().flatMap((c) =>
    [...c.snapshot.clusters.values()].map((cluster) => {
      const file = join(c.expected, cluster.id, `${endpoint}.json`);
      return {
        name: `${c.name}: ${cluster.id}`,
        snapshot: c.snapshot,
        cluster,
        expected: existsSync(file) ? readFileSync(file, 'utf8') : undefined,
      };
    }),
  );
}

/** Folders of expected/ that name no cluster of their case (a cluster renamed or removed in records.yaml). */
export function strayExpectedFolders(): string[] {
  return projectionCases().flatMap((c) =>
    readdirSync(c.expected, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !c.snapshot.clusters.has(entry.name))
      .map((entry) => `${c.name}/expected/${entry.name}`),
  );
}

/** The listing's filter named by an expected file (`clusters.json`, `clusters.shard-1-of-3.json`, …). */
function listingFilter(file: string): FleetListFilter {
  const filter = /^clusters(?:\.(.+))?\.json$/.exec(file)?.[1];
  if (filter === undefined) return {};
  const environment = /^environment-(\w+)$/.exec(filter);
  if (environment) return { environment: environment[1] as Environment };
  const shard = /^shard-(\d+)-of-(\d+)$/.exec(filter);
  if (shard) return { shard: { index: Number(shard[1]), count: Number(shard[2]) } };
  throw new Error(`${file}: not a filter of the listing`);
}

/** One row per listing file of each case: its filter and the expected text. */
export function listingRows(): { name: string; snapshot: Snapshot; filter: FleetListFilter; expected: string }[] {
  return projectionCases().flatMap((c) =>
    listingFiles(c).map((file) => ({
      name: `${c.name}: ${file}`,
      snapshot: c.snapshot,
      filter: listingFilter(file),
      expected: readFileSync(join(c.expected, file), 'utf8'),
    })),
  );
}

function listingFiles(c: ProjectionCase): string[] {
  return readdirSync(c.expected).filter((name) => name.startsWith('clusters') && name.endsWith('.json'));
}

/** Writes every expected file of every case from what the projections give now (the listing's filters kept). */
export function updateProjectionCases(): number {
  let written = 0;
  const write = (path: string, text: string): void => {
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
    written++;
  };
  for (const c of projectionCases()) {
    mkdirSync(c.expected, { recursive: true });
    for (const cluster of c.snapshot.clusters.values()) {
      mkdirSync(join(c.expected, cluster.id), { recursive: true });
      for (const [endpoint, project] of Object.entries(PER_CLUSTER_ENDPOINTS)) {
        write(join(c.expected, cluster.id, `${endpoint}.json`), asText(project(c.snapshot, cluster)));
      }
    }
    const files = listingFiles(c);
    for (const file of files.length > 0 ? files : ['clusters.json']) {
      write(join(c.expected, file), asText(clusterSummaryInputs(c.snapshot, listingFilter(file))));
    }
  }
  return written;
}
