// A rollout's state and a cluster's state in a rollout, each as a word and a colour (never
// colour alone): green where things went as planned, amber where they wait, red where they
// went wrong, grey where nothing happened yet.
import type { RolloutClusterState, RolloutState } from '../../api/types.ts';

type Tone = 'ok' | 'busy' | 'wait' | 'bad' | 'idle';

const ROLLOUT: Record<RolloutState, { label: string; tone: Tone }> = {
  running: { label: 'Running', tone: 'busy' },
  waiting: { label: 'Waiting', tone: 'wait' },
  ready: { label: 'Ready', tone: 'busy' },
  halted: { label: 'Halted', tone: 'bad' },
  paused: { label: 'Paused', tone: 'wait' },
  complete: { label: 'Complete', tone: 'ok' },
};

const CLUSTER: Record<RolloutClusterState, { label: string; tone: Tone }> = {
  pending: { label: 'Pending', tone: 'idle' },
  released: { label: 'Released', tone: 'busy' },
  fetched: { label: 'Fetched', tone: 'ok' },
  succeeded: { label: 'Succeeded', tone: 'ok' },
  failed: { label: 'Failed', tone: 'bad' },
  offline: { label: 'Offline', tone: 'bad' },
  pinned: { label: 'Pinned', tone: 'idle' },
};

export const ROLLOUT_STATE_LABELS = Object.fromEntries(
  Object.entries(ROLLOUT).map(([state, { label }]) => [state, label]),
) as Record<RolloutState, string>;

export const CLUSTER_STATE_LABELS = Object.fromEntries(
  Object.entries(CLUSTER).map(([state, { label }]) => [state, label]),
) as Record<RolloutClusterState, string>;

export function RolloutStatePill({ state }: { state: RolloutState }) {
  const { label, tone } = ROLLOUT[state];
  return <span class={`pill pill-tone-${tone}`}>{label}</span>;
}

export function ClusterStatePill({ state }: { state: RolloutClusterState }) {
  const { label, tone } = CLUSTER[state];
  return <span class={`pill pill-tone-${tone}`}>{label}</span>;
}
