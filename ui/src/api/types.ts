// The shapes of the public API's answers the UI reads (openapi/openapi.yaml is the contract).

export type FleetState = 'up_to_date' | 'behind' | 'never_seen';
export const FLEET_STATES: readonly FleetState[] = ['up_to_date', 'behind', 'never_seen'];

export type Endpoint = 'platform-components' | 'namespaces' | 'rolebindings';
export const ENDPOINTS: readonly Endpoint[] = ['platform-components', 'namespaces', 'rolebindings'];

export interface FleetEndpointPoll {
  last_poll: string | null;
  etag_served: string | null;
  etag_current: string | null;
  up_to_date: boolean | null;
}

export interface FleetCluster {
  id: string;
  cluster_dns: string;
  state: FleetState;
  up_to_date: boolean;
  last_seen: string | null;
  endpoints: Record<Endpoint, FleetEndpointPoll>;
}

export interface FleetView {
  revision: string;
  summary: { clusters: number } & Record<FleetState, number>;
  clusters: FleetCluster[];
}

export interface ClusterSummary {
  id: string;
  cluster_name: string;
  cluster_dns: string;
  environment: string;
}

export interface ComponentRef {
  id: string;
  enabled: boolean;
  oci_tag?: string | null;
  component_path?: string | null;
}

export interface ClusterRecord extends ClusterSummary {
  platform_components: ComponentRef[];
  namespaces: { id: string }[];
  rolebindings: { id: string }[];
  patches: Record<string, Record<string, string>>;
}

export interface PlatformComponentRecord {
  id: string;
  component_path: string;
  component_version: string;
  oci_url: string;
  oci_tag: string;
  cluster_env_enabled: boolean;
  depends_on: string[];
}

export interface NamespaceRecord {
  id: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

export interface Subject {
  kind: string;
  name: string;
  apiGroup: string;
}

export interface RoleBindingRecord {
  id: string;
  role: string;
  subjects: Subject[];
}

export interface RecordsByCollection {
  clusters: ClusterRecord;
  platform_components: PlatformComponentRecord;
  namespaces: NamespaceRecord;
  rolebindings: RoleBindingRecord;
}
export type Collection = keyof RecordsByCollection;

export interface LoadProblem {
  code: string;
  severity: 'error' | 'warning';
  at?: string;
  message: string;
}

export interface ReadyBody {
  status: string;
  view?: 'public' | 'full';
  revision?: string;
  stale?: boolean;
  message?: string;
  last_load?: {
    ok: boolean;
    at?: string;
    revision?: string;
    reason?: string;
    error?: string;
    problem_counts?: { error: number; warning: number };
    problems?: LoadProblem[];
  } | null;
}

/** Who the caller is (GET /api/v2/gitops/whoami). */
export interface Whoami {
  kind: 'service' | 'cluster' | 'person';
  name?: string | null;
  email?: string | null;
  roles?: string[];
  clusters?: string[];
}

export interface ErrorBody {
  error: string;
  message: string;
}
