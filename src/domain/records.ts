// The record kinds, in their canonical (normalized) form: every optional field is filled with
// its default, so code downstream never has to ask "is it there?". The first four are those of
// the read contract (docs/decisions/0016-read-contract-and-consumer.md); a rollout changes how
// a catalog entry reaches the clusters (docs/decisions/0037-rollouts-are-records.md). Schema
// versions: cluster v2, the others v1.

export const COLLECTIONS = ['clusters', 'platform_components', 'namespaces', 'rolebindings', 'rollouts'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export function isCollection(name: string): name is Collection {
  return (COLLECTIONS as readonly string[]).includes(name);
}

/**
 * The environments a cluster can be in (the cluster schema's enum): a short fixed list, so metrics may be labelled by
 * it.
 */
export const ENVIRONMENTS = ['dev', 'qa', 'uat', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

/** One entry of a cluster's `platform_components`: a catalog id plus per-cluster overrides. */
export interface ComponentRef {
  id: string;
  enabled: boolean;
  /** Non-null wins over the catalog's oci_tag (a hotfix). */
  oci_tag?: string | null;
  /** Non-null wins over the catalog's component_path. */
  component_path?: string | null;
}

export interface IdRef {
  id: string;
}

/** Values handed to the consumer as Helm values: component id -> (dotted key -> string). */
export type Patches = Record<string, Record<string, string>>;

export interface Cluster {
  id: string;
  cluster_name: string;
  cluster_dns: string;
  environment: Environment;
  /**
   * What the cluster's token is signed over, with its id: raising it revokes the token issued
   * before (domain/cluster-token.ts). Never part of what the cluster is served.
   */
  credential_generation: number;
  /**
   * The cluster's Flux Receiver, told after each revision that changes its answers (null: none).
   * Never part of what the cluster is served.
   */
  receiver_url: string | null;
  platform_components: ComponentRef[];
  namespaces: IdRef[];
  rolebindings: IdRef[];
  patches: Patches;
}

/** A catalog entry. */
export interface PlatformComponent {
  id: string;
  component_path: string;
  component_version: string;
  oci_url: string;
  oci_tag: string;
  cluster_env_enabled: boolean;
  depends_on: string[];
}

export interface NamespaceDef {
  id: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface Subject {
  kind: string;
  name: string;
  apiGroup: string;
}

export interface RoleBindingDef {
  id: string;
  role: string;
  subjects: Subject[];
}

/** The catalog fields a rollout may set, in their canonical order. */
export const SET_FIELDS = ['component_version', 'oci_tag', 'oci_url', 'component_path'] as const;
export type SetField = (typeof SET_FIELDS)[number];

/** What the clusters of released steps get instead of the catalog's values; a field left out keeps the catalog's. */
export type RolloutSet = { readonly [F in SetField]?: string };

/** Clusters per step: a number (1 or more), a percentage of the wave ("10%"), or null for the whole wave. */
export type Batch = number | `${number}%` | null;

export interface Wave {
  name: string;
  clusters: string[];
  environments: Environment[];
  batch: Batch;
  /** A Go duration ("30m"): the wait after each step of the wave is done. */
  soak: string;
  approval: boolean;
}

/** A rollout (rollouts/rollout-record.ts says more): the catalog entry it changes, how, and in which waves. */
export interface Rollout {
  id: string;
  /** The catalog entry it changes. */
  component: string;
  set: RolloutSet;
  waves: Wave[];
  failure_budget: number;
  /** A Go duration: a released step not done within it halts the rollout. */
  progress_deadline: string;
  require_reports: boolean;
  /** Steps 1..released are released. */
  released: number;
  paused: boolean;
  approved: string[];
}

export interface RecordOf {
  clusters: Cluster;
  platform_components: PlatformComponent;
  namespaces: NamespaceDef;
  rolebindings: RoleBindingDef;
  rollouts: Rollout;
}

export type AnyRecord = RecordOf[Collection];

/** The collections a cluster references by id, whose records are what its answers are made of. */
export type DefinitionCollection = 'platform_components' | 'namespaces' | 'rolebindings';

/** The record sets, each as an array in any order. */
export interface RecordSets {
  clusters: Cluster[];
  platform_components: PlatformComponent[];
  namespaces: NamespaceDef[];
  rolebindings: RoleBindingDef[];
  rollouts: Rollout[];
}
