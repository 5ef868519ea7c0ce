// A cluster's credential_generation never goes down
// (docs/decisions/0032-credential-generation-and-oci-url-ratchets.md).
// Raising it revokes the cluster's token of the generation before (./cluster-token.ts); setting
// it back, leaving it out (the default, 0) or deleting and re-creating the cluster with a lower
// one in one change would make that revoked token valid again. So, against the revision served:
//   - credential_generation_lowered (error): a cluster that is there has a lower generation;
//   - credential_generation_reused (warning): a cluster id that an earlier revision deleted
//     comes back at or below the generation it had then, so the tokens it had then are valid
//     again; the warning names that generation.
// The generations of deleted clusters ("retired") are carried from revision to revision by
// whoever publishes them (retiredAfter); they are known as far back as that chain reaches.
import { LayeredMap } from './layered-map.ts';
import { type Problem, problem } from './problem.ts';
import type { Cluster } from './records.ts';
import type { Snapshot } from './snapshot.ts';

/** What the judgement knows of the generations before a candidate. */
export interface GenerationsBefore {
  /** A cluster's generation in the revision served; undefined when it has no such cluster (or that is not known). */
  generationOf: (clusterId: string) => number | undefined;
  /** The revision served's clusters, when it is a snapshot: clusters that are the same objects are passed over. */
  clusters?: ReadonlyMap<string, Cluster>;
  /** Generations of clusters earlier revisions deleted, by id. */
  retired: ReadonlyMap<string, number>;
}

/** The problem of a cluster whose generation went down, or undefined. */
export function generationLowered(
  cluster: Pick<Cluster, 'id' | 'credential_generation'>,
  was: number,
): Problem | undefined {
  const now = cluster.credential_generation ?? 0;
  if (now >= was) return undefined;
  return problem(
    'credential_generation_lowered',
    { record: { collection: 'clusters', id: cluster.id }, field: '/credential_generation' },
    `must not go below ${was}, the generation the served revision has (it is ${now}): the cluster tokens revoked by ` +
      `raising it would be valid again`,
  );
}

/** The warning of a cluster id that comes back at or below the generation it had when it was deleted, or undefined. */
export function generationReused(
  cluster: Pick<Cluster, 'id' | 'credential_generation'>,
  retired: number,
): Problem | undefined {
  const now = cluster.credential_generation ?? 0;
  if (now > retired) return undefined;
  return {
    ...problem(
      'credential_generation_reused',
      { record: { collection: 'clusters', id: cluster.id }, field: '/credential_generation' },
      `cluster "${cluster.id}" was deleted at credential_generation ${retired}; created again at ${now}, the tokens ` +
        `it had then are valid again: set it to ${retired + 1} or more to keep them revoked`,
    ),
    severity: 'warning',
  };
}

/** Every credential_generation problem of `snapshot` against what came before it. */
export function generationProblems(snapshot: Snapshot, before: GenerationsBefore): Problem[] {
  const problems: Problem[] = [];
  const look = (cluster: Cluster) => {
    if (before.clusters?.get(cluster.id) === cluster) return;
    const was = before.generationOf(cluster.id);
    const found =
      was !== undefined
        ? generationLowered(cluster, was)
        : before.retired.has(cluster.id)
          ? generationReused(cluster, before.retired.get(cluster.id)!)
          : undefined;
    if (found) problems.push(found);
  };
  // A revision made by writes from the one served differs from it only in its maps' layers.
  const written = before.clusters && LayeredMap.differingKeys(before.clusters, snapshot.clusters);
  if (written) {
    for (const id of written) {
      const cluster = snapshot.clusters.get(id);
      if (cluster) look(cluster);
    }
  } else {
    for (const cluster of snapshot.clusters.values()) look(cluster);
  }
  return problems;
}

/**
 * The generations of deleted clusters after `after` is published in place of `before`: those
 * of `retired` whose id `after` does not hold again, and those of the clusters `after` deleted
 * (the higher, when an id was deleted twice).
 */
export function retiredAfter(
  retired: ReadonlyMap<string, number>,
  before: Snapshot | undefined,
  after: Snapshot,
): ReadonlyMap<string, number> {
  let next: Map<string, number> | undefined;
  const edit = () => (next ??= new Map(retired));
  for (const id of retired.keys()) if (after.clusters.has(id)) edit().delete(id);
  if (before === undefined || before.clusters === after.clusters) return next ?? retired;
  const written = LayeredMap.differingKeys(before.clusters, after.clusters);
  const gone = written
    ? [...written].filter((id) => before.clusters.has(id) && !after.clusters.has(id))
    : [...before.clusters.keys()].filter((id) => !after.clusters.has(id));
  for (const id of gone) {
    const generation = before.clusters.get(id)!.credential_generation ?? 0;
    if (((next ?? retired).get(id) ?? -1) < generation) edit().set(id, generation);
  }
  return next ?? retired;
}
