// A rollout: a change of one catalog entry that reaches the clusters using it in waves, one
// step at a time (docs/decisions/0037-rollouts-are-records.md). A record of its own kind,
// rollouts/<id>.yaml, so every answer stays a pure function of one revision; progress is the
// number `released`, moved by commits. Its canonical form has every default filled, keys in
// one fixed order, like the other kinds (rules/record-schema.ts).
import { type PlatformComponent, type Rollout, type RolloutSet, SET_FIELDS, type SetField } from '../records.ts';

/** The folder of rollout records in the config repo, and their collection's name. */
export const ROLLOUTS = 'rollouts';

export { SET_FIELDS } from '../records.ts';
export type { Batch, Rollout, RolloutSet, SetField, Wave } from '../records.ts';

/** The file a rollout lives in, in the config repo layout. */
export function rolloutFilePath(id: string): string {
  return `${ROLLOUTS}/${id}.yaml`;
}

/** The set with its fields in canonical order. */
export function canonicalSet(set: RolloutSet): RolloutSet {
  const out: { [F in SetField]?: string } = {};
  for (const field of SET_FIELDS) if (set[field] !== undefined) out[field] = set[field];
  return out;
}

/** The same text for equal sets, whatever the order of their keys. */
export function setKey(set: RolloutSet): string {
  return JSON.stringify(canonicalSet(set));
}

/** The fields of `set` whose value differs from the catalog entry's: what the rollout changes. */
export function changedFields(set: RolloutSet, entry: PlatformComponent): SetField[] {
  return SET_FIELDS.filter((field) => set[field] !== undefined && set[field] !== entry[field]);
}

/** The catalog entry with `set` applied, keys in the catalog's canonical order. */
export function applySet(entry: PlatformComponent, set: RolloutSet): PlatformComponent {
  return {
    id: entry.id,
    component_path: set.component_path ?? entry.component_path,
    component_version: set.component_version ?? entry.component_version,
    oci_url: set.oci_url ?? entry.oci_url,
    oci_tag: set.oci_tag ?? entry.oci_tag,
    cluster_env_enabled: entry.cluster_env_enabled,
    depends_on: [...entry.depends_on],
  };
}

/** A schema-valid rollout rebuilt with its keys in the one fixed order used everywhere. */
export function canonicalRollout(r: Rollout): Rollout {
  return {
    id: r.id,
    component: r.component,
    set: canonicalSet(r.set),
    waves: r.waves.map((w) => ({
      name: w.name,
      clusters: [...w.clusters],
      environments: [...w.environments],
      batch: w.batch,
      soak: w.soak,
      approval: w.approval,
    })),
    failure_budget: r.failure_budget,
    progress_deadline: r.progress_deadline,
    require_reports: r.require_reports,
    released: r.released,
    paused: r.paused,
    approved: [...r.approved],
  };
}
