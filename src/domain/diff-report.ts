// The shape of the report of a change (./revision-diff.ts makes it): per cluster and endpoint,
// the inputs added, removed and changed, the clusters listing, a summary of what agents will do
// (the decommissions, removed clusters, moved URLs, answers too large), and the judge's verdict.
// `gitops-config diff` prints it and the preview of a change set answers with it, so its field
// names are part of what both show.
import type { Problem } from './problem.ts';
import type { InputChange, InputListDiff } from './input-diff.ts';
import type { PerClusterEndpoint } from './projections/index.ts';
import type { ShrinkGuardVerdict } from './shrink-guard.ts';
import type { RolloutPlanChange } from './rollouts/rollout-plan-changes.ts';

export type { FieldChange, InputChange } from './input-diff.ts';
export type { RolloutPlanChange } from './rollouts/rollout-plan-changes.ts';

export interface EndpointDiff {
  endpoint: PerClusterEndpoint;
  /** Number of inputs before and after; null where the cluster does not exist (404). */
  before: number | null;
  after: number | null;
  added: string[];
  removed: string[];
  changed: InputChange[];
  /** The same inputs come in a different order (the consumer re-renders on order changes). */
  reordered: boolean;
  /** A non-empty list becomes empty: the consumer deletes everything it rendered (decommission). */
  emptied: boolean;
  /** The new response is over 900 KiB: the server answers 500 and the consumer keeps its last inputs. */
  oversized: boolean;
}

export interface ClusterDiff {
  id: string;
  status: 'added' | 'removed' | 'changed';
  /** Head values (base values for a removed cluster). */
  environment: string;
  cluster_dns: string;
  /** Set when cluster_dns changes: the old URL starts answering 404. */
  previous_cluster_dns?: string;
  previous_environment?: string;
  /** Only the endpoints whose response changes. */
  endpoints: EndpointDiff[];
}

export type ListingDiff = InputListDiff;

export interface RevisionInfo {
  label: string;
  commit: string | null;
  /** Problems that make the server refuse this revision (empty when it loads). */
  problems: Problem[];
}

export interface DiffReport {
  /** Whether the server, serving the base, would publish the head: the same as verdict.publish. */
  publishable: boolean;
  /** Every problem of the head judged against the base, warnings included. */
  problems: Problem[];
  /** The shrink guard's verdict on the head against the base; null when nothing was judged. */
  guard: ShrinkGuardVerdict | null;
  base: RevisionInfo;
  /** The head's problems are those the judgement against the base finds (domain/judge.ts). */
  head: RevisionInfo;
  /** Whether the server, serving the base, would publish the head; its blocking problems otherwise. */
  verdict: { publish: boolean; problems: Problem[] };
  clusters: ClusterDiff[];
  /** GET /api/v2/gitops/clusters */
  listing: ListingDiff;
  /** The rollouts the change creates, edits or deletes, with the clusters of each of their steps. */
  rollouts: RolloutPlanChange[];
  summary: {
    clusters_before: number;
    clusters_after: number;
    /** Clusters in either revision. */
    clusters_total: number;
    clusters_changed: number;
    by_environment: Record<string, number>;
    inputs_added: number;
    inputs_removed: number;
    inputs_changed: number;
    /** Decommissions: endpoints whose list becomes empty. */
    emptied: { cluster: string; endpoint: PerClusterEndpoint; before: number }[];
    clusters_removed: string[];
    clusters_added: string[];
    dns_changes: { cluster: string; from: string; to: string }[];
    oversized: { cluster: string; endpoint: PerClusterEndpoint }[];
  };
}
