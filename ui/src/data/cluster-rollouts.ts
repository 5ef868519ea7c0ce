// The rollouts a cluster is in, and its state in each: for a cluster's page. The list says
// which rollouts there are; each one's own answer says which step holds the cluster.
// Rollouts are few, so each is asked for side by side; one that went meanwhile is left out.
import type { ApiClient } from '../api/client.ts';
import { fetchRollout } from '../api/rollouts.ts';
import type { RolloutDetail, RolloutState, RolloutStepCluster } from '../api/types.ts';
import { loadRollouts } from './rollouts.ts';

export interface ClusterInRollout {
  rollout: { id: string; component: string; state: RolloutState; reason: string };
  step: number;
  wave: string;
  member: RolloutStepCluster;
}

export type ClusterRolloutsAnswer = { kind: 'list'; entries: ClusterInRollout[] } | { kind: 'off'; message: string };

export async function loadClusterRollouts(client: ApiClient, id: string): Promise<ClusterRolloutsAnswer> {
  const list = await loadRollouts(client);
  if (list.kind === 'off') return list;
  const details = await Promise.all(list.list.rollouts.map((rollout) => fetchRollout(client, rollout.id)));
  const entries: ClusterInRollout[] = [];
  for (const answer of details) {
    if (answer.kind !== 'rollout') continue;
    const found = clusterInRollout(answer.rollout, id);
    if (found) entries.push(found);
  }
  return { kind: 'list', entries };
}

/** Where the cluster `id` is in the rollout, or undefined when no wave of it selects the cluster. */
export function clusterInRollout(detail: RolloutDetail, id: string): ClusterInRollout | undefined {
  for (const step of detail.steps) {
    const member = step.clusters.find((cluster) => cluster.id === id);
    if (!member) continue;
    const { component, state, reason } = detail;
    return { rollout: { id: detail.id, component, state, reason }, step: step.step, wave: step.wave, member };
  }
  return undefined;
}
