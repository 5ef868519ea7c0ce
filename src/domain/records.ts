// The four record kinds of the read contract (docs/decisions/0016-read-contract-and-consumer.md), in their canonical (normalized) form:
// every optional field is filled with its default, so code downstream never has to
// ask "is it there?". Schema versions: cluster v2, the others v1.

export const COLLECTIONS = ['clusters', 'platform_components', 'namespaces', 'rolebindings'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export function isCollection(name: string): name is Collection {
  return (COLLECTIONS as readonly string[]).includes(name);
}

/** The environments a cluster can be in (the cluster schema's enum): a short fixed list, so metrics may be labelled by it. */
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

export interface RecordOf {
  clusters: Cluster;
  platform_components: PlatformComponent;
  namespaces: NamespaceDef;
  rolebindings: RoleBindingDef;
}

export type AnyRecord = RecordOf[Collection];

/** The four record sets, each as an array in any order. */
export interface RecordSets {
  clusters: Cluster[];
  platform_components: PlatformComponent[];
  namespaces: NamespaceDef[];
  rolebindings: RoleBindingDef[];
}
