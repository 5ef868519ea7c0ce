// The fleet's filter by rollout: which rollout, then which state in it (pending, released,
// fetched, succeeded, failed, offline, pinned), each with how many of the rollout's clusters
// are in it. Choosing a rollout keeps the clusters it holds.
import { ROLLOUT_CLUSTER_STATES, type RolloutSummary } from '../../api/types.ts';
import { CLUSTER_STATE_LABELS } from '../../components/common/RolloutPill.tsx';
import type { RolloutStates } from '../../data/fleet-rollout.ts';

interface RolloutFilterProps {
  rollouts: readonly RolloutSummary[];
  rollout: string;
  state: string;
  /** The chosen rollout's clusters by state, once its answer is here. */
  states: RolloutStates | undefined;
  onRollout: (id: string) => void;
  onState: (state: string) => void;
}

export function RolloutFilter({ rollouts, rollout, state, states, onRollout, onState }: RolloutFilterProps) {
  if (rollouts.length === 0 && !rollout) return null;
  return (
    <>
      <div class="field">
        <label for="fleet-rollout">Rollout</label>
        <select
          id="fleet-rollout"
          value={rollout}
          onChange={(event) => onRollout((event.target as HTMLSelectElement).value)}
        >
          <option value="">Any or none</option>
          {rollout && !rollouts.some((r) => r.id === rollout) && <option value={rollout}>{rollout}</option>}
          {rollouts.map((r) => (
            <option value={r.id}>
              {r.id} ({r.component})
            </option>
          ))}
        </select>
      </div>
      {rollout && (
        <div class="field">
          <label for="fleet-rollout-state">State in the rollout</label>
          <select
            id="fleet-rollout-state"
            value={state}
            onChange={(event) => onState((event.target as HTMLSelectElement).value)}
          >
            <option value="">All</option>
            {ROLLOUT_CLUSTER_STATES.map((name) => (
              <option value={name}>
                {CLUSTER_STATE_LABELS[name]}
                {states ? ` (${states.counts[name].toLocaleString()})` : ''}
              </option>
            ))}
          </select>
        </div>
      )}
    </>
  );
}
