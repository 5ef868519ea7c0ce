// A cluster's convergence state as a word and a colour (never colour alone).
import type { FleetState } from '../../api/types.ts';

export const STATE_LABELS: Record<FleetState, string> = {
  up_to_date: 'Up to date',
  behind: 'Behind',
  never_seen: 'Never seen',
};

export function StatusPill({ state }: { state: FleetState | undefined }) {
  if (state === undefined) return <span class="pill pill-unknown">Unknown</span>;
  return <span class={`pill pill-${state}`}>{STATE_LABELS[state]}</span>;
}
