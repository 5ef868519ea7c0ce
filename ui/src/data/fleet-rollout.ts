// The fleet filtered by where each cluster stands in one rollout. The fleet view knows nothing of
// rollouts; the rollout's own answer (GET /api/v2/gitops/rollouts/{id}) names every cluster it
// holds with its state, so the fleet page asks for that one answer when a rollout is chosen and
// lays the states out by row, next to the fleet's other columns. Pure: no DOM, no requests.
import { ROLLOUT_CLUSTER_STATES, type RolloutClusterState, type RolloutDetail } from '../api/types.ts';
import type { FleetRows } from './fleet-rows.ts';

export interface RolloutStates {
  rollout: string;
  /** By row of the fleet: the cluster's state in the rollout; undefined for a cluster it does not hold. */
  state: (RolloutClusterState | undefined)[];
  counts: Record<RolloutClusterState, number>;
}

export function rolloutStatesOf(rows: FleetRows, detail: RolloutDetail): RolloutStates {
  const state = new Array<RolloutClusterState | undefined>(rows.count);
  const counts = Object.fromEntries(ROLLOUT_CLUSTER_STATES.map((s) => [s, 0])) as Record<RolloutClusterState, number>;
  for (const step of detail.steps) {
    for (const cluster of step.clusters) {
      const row = rows.byId.get(cluster.id);
      // A cluster the fleet does not list (gone meanwhile) has no row to show it on.
      if (row === undefined) continue;
      state[row] = cluster.state;
      counts[cluster.state]++;
    }
  }
  return { rollout: detail.id, state, counts };
}
