// The UI's names for what the API answers and takes, each one a part of the contract's types
// (./openapi.gen.ts, made from openapi/openapi.yaml by `npm run generate:api`). No shape is
// written here: an answer is named by the path, method and status that give it, so a field
// the UI reads that the document does not describe fails the type-check.
import type { components, paths } from './openapi.gen.ts';

type Schemas = components['schemas'];

/**
 * What an answer or body the document does not have is taken for. Not `never`, on which any
 * field could be read: reading a field of this fails the type-check.
 */
interface NotInContract {
  'no such JSON body in openapi/openapi.yaml': true;
}

/** The JSON body that `method path` answers with `status`. */
type Answer<P extends keyof paths, M extends keyof paths[P], S extends number> = paths[P][M] extends {
  responses: infer R;
}
  ? S extends keyof R
    ? R[S] extends { content: { 'application/json': infer B } }
      ? B
      : NotInContract
    : NotInContract
  : NotInContract;

/** The JSON body that `method path` takes. */
type RequestBody<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : NotInContract;

// ---------------------------------------------------------------- the fleet and its clusters
export type FleetView = Answer<'/api/v2/gitops/fleet', 'get', 200>;
export type FleetCluster = FleetView['clusters'][number];
export type FleetState = FleetCluster['state'];
/** A cluster's three answers, by the last part of their path. */
export type Endpoint = keyof FleetCluster['endpoints'];
export type FleetEndpointPoll = FleetCluster['endpoints'][Endpoint];
export type ClusterListing = Answer<'/api/v2/gitops/clusters', 'get', 200>;
export type ClusterSummary = ClusterListing['inputs'][number];

const STATE_SET = { up_to_date: true, behind: true, never_seen: true } satisfies Record<FleetState, true>;
/** Every state, in the order the views show them (a state the contract adds fails the type-check here). */
export const FLEET_STATES = Object.keys(STATE_SET) as FleetState[];
const ENDPOINT_SET = {
  'platform-components': true,
  namespaces: true,
  rolebindings: true,
} satisfies Record<Endpoint, true>;
/** Every endpoint of a cluster, in the order the views show them. */
export const ENDPOINTS = Object.keys(ENDPOINT_SET) as Endpoint[];

// ---------------------------------------------------------------- rollouts (progress)
/** Every rollout with its state and clusters by state (GET /api/v2/gitops/rollouts). */
export type RolloutList = Answer<'/api/v2/gitops/rollouts', 'get', 200>;
export type RolloutSummary = RolloutList['rollouts'][number];
/** One rollout, step by step and cluster by cluster (GET /api/v2/gitops/rollouts/{id}). */
export type RolloutDetail = Answer<'/api/v2/gitops/rollouts/{id}', 'get', 200>;
export type RolloutStep = RolloutDetail['steps'][number];
export type RolloutStepCluster = RolloutStep['clusters'][number];
export type RolloutState = RolloutSummary['state'];
export type RolloutClusterState = RolloutStepCluster['state'];
export type RolloutClusterCounts = RolloutSummary['clusters'];

const ROLLOUT_STATE_SET = {
  running: true,
  waiting: true,
  ready: true,
  halted: true,
  paused: true,
  complete: true,
} satisfies Record<RolloutState, true>;
/** Every state of a rollout, in the order the views show them. */
export const ROLLOUT_STATES = Object.keys(ROLLOUT_STATE_SET) as RolloutState[];
const ROLLOUT_CLUSTER_STATE_SET = {
  pending: true,
  released: true,
  fetched: true,
  succeeded: true,
  failed: true,
  offline: true,
  pinned: true,
} satisfies Record<RolloutClusterState, true>;
/** Every state of a cluster in a rollout, in the order the views show them. */
export const ROLLOUT_CLUSTER_STATES = Object.keys(ROLLOUT_CLUSTER_STATE_SET) as RolloutClusterState[];

// ---------------------------------------------------------------- records (REST, crud mode)
export interface RecordsByCollection {
  clusters: Answer<'/clusters/{id}', 'get', 200>;
  platform_components: Answer<'/platform_components/{id}', 'get', 200>;
  namespaces: Answer<'/namespaces/{id}', 'get', 200>;
  rolebindings: Answer<'/rolebindings/{id}', 'get', 200>;
  rollouts: Answer<'/rollouts/{id}', 'get', 200>;
}
export type Collection = keyof RecordsByCollection;
export type ClusterRecord = RecordsByCollection['clusters'];
export type ComponentRef = ClusterRecord['platform_components'][number];
export type PlatformComponentRecord = RecordsByCollection['platform_components'];
export type NamespaceRecord = RecordsByCollection['namespaces'];
export type RoleBindingRecord = RecordsByCollection['rolebindings'];
export type Subject = RoleBindingRecord['subjects'][number];
/** A rollout record as stored (every field present), which the actions on a rollout write. */
export type RolloutRecord = RecordsByCollection['rollouts'];
export type RolloutWaveRecord = RolloutRecord['waves'][number];

// ---------------------------------------------------------------- the service and the caller
/** /ready: a revision is served (200), or none is (503: not loaded yet, shutting down). */
export type ReadyBody = Answer<'/ready', 'get', 200> | Answer<'/ready', 'get', 503>;
export type LoadProblem = Schemas['LoadProblem'];
/** Who the caller is (GET /api/v2/gitops/whoami). */
export type Whoami = Answer<'/api/v2/gitops/whoami', 'get', 200>;
/** What the page is told of the service before it asks the API anything (/ui/config.json). */
export type UiSettings = Answer<'/ui/config.json', 'get', 200>;
export type OidcSettings = NonNullable<UiSettings['oidc']>;
export type ErrorBody = Schemas['Error'];
/** An error answer's details: which write of a change set (`index`), where, and what. */
export type ErrorDetail = NonNullable<ErrorBody['details']>[number];

// ---------------------------------------------------------------- change sets and revisions
/** The body of POST /api/v2/gitops/changes and of its preview. */
export type ChangeRequest = RequestBody<'/api/v2/gitops/changes', 'post'>;
export type ChangeWrite = ChangeRequest['writes'][number];
export type Committed = Answer<'/api/v2/gitops/changes', 'post', 201>;
/** What a change set would do (the report `gitops-config diff --format json` prints too). */
export type Preview = Answer<'/api/v2/gitops/changes/preview', 'post', 200>;
export type Problem = Preview['problems'][number];
/** The shrink guard's verdict; null when nothing was judged. */
export type GuardVerdict = NonNullable<Preview['guard']>;
export type ClusterChange = Preview['clusters'][number];
export type EndpointChange = ClusterChange['endpoints'][number];
export type FieldChange = EndpointChange['changed'][number]['fields'][number];
/** A rollout the change set creates, edits or deletes, with the clusters of each of its steps. */
export type RolloutPlanChange = Preview['rollouts'][number];
/** The revisions the service judged, newest first. */
export type RevisionHistory = Answer<'/api/v2/gitops/revisions', 'get', 200>;
export type RevisionEntry = RevisionHistory['revisions'][number];
/** A problem as a preview reports it (`at` a place's parts) or a revision does (`at` formatted). */
export type ProblemReport = Problem | LoadProblem;
