// What each action on a rollout does, in words, before its preview shows it cluster by
// cluster; and the clusters that hold a halted rollout back (named, not linked: the table of
// clusters below links each).
import type { RolloutDetail, RolloutRecord } from '../../api/types.ts';
import { count, type RolloutAction } from '../../edits/rollout-actions.ts';

/** The dialog's title, and the name of the button that opens it is its first words. */
export function actionTitle(action: RolloutAction, id: string): string {
  switch (action.kind) {
    case 'approve':
      return `Approve wave ${action.wave} of ${id}`;
    case 'pause':
      return `Pause ${id}`;
    case 'resume':
      return `Resume ${id}`;
    case 'advance':
      return `Advance ${id}`;
    case 'rollback':
      return `Roll back ${id}`;
    case 'complete':
      return `Complete ${id}`;
  }
}

export function ActionWords({
  action,
  rollout,
  detail,
}: {
  action: RolloutAction;
  rollout: RolloutRecord;
  detail: RolloutDetail;
}) {
  const { steps } = detail;
  const next = steps[rollout.released];
  switch (action.kind) {
    case 'approve': {
      const first = steps.find((s) => s.wave === action.wave);
      return (
        <p>
          Wave {action.wave} waits for a person's approval before its first step (step {first?.step}). Approving it lets
          the service release that step once its gates pass. No cluster's answer changes now.
        </p>
      );
    }
    case 'pause':
      return (
        <p>
          No further step is released while the rollout is paused; every cluster keeps its answer. Step{' '}
          {rollout.released} of {steps.length} is released.
        </p>
      );
    case 'resume':
      return (
        <p>
          The service releases the next step once its gates pass
          {next ? ` (step ${next.step}, wave ${next.wave})` : ''}. No cluster's answer changes now.
        </p>
      );
    case 'advance':
      return (
        <p>
          Releases step {next.step} of {steps.length} (wave {next.wave}, {count(next.clusters.length, 'cluster')}) now:
          their answers get the rollout's set.
        </p>
      );
    case 'rollback':
      return (
        <p>
          Lowers the steps released from {rollout.released} to the one chosen, and pauses the rollout, so that the
          service does not release them again by itself. The clusters of the steps after it get the catalog entry{' '}
          {rollout.component} as it is again.
        </p>
      );
    case 'complete':
      return (
        <>
          <p>
            Folds the rollout's set into the catalog entry {rollout.component} and removes the rollout, in one commit.
            Every cluster released keeps its answer.
          </p>
          {detail.state !== 'complete' && (
            <p>
              <strong>Not every step is done and soaked:</strong> {detail.reason}.
            </p>
          )}
        </>
      );
  }
}

/** The clusters of the released steps that are failed, offline or have not fetched their step, each with why. */
export function HeldBackBy({ clusters }: { clusters: { id: string; state: string; message?: string }[] }) {
  if (clusters.length === 0) return null;
  const shown = clusters.slice(0, 10);
  return (
    <>
      <p>Held back by {count(clusters.length, 'cluster')}:</p>
      <ul class="held-back" aria-label="Clusters holding the rollout back">
        {shown.map((c) => (
          <li key={c.id}>
            <code>{c.id}</code> {c.state === 'released' ? 'has not fetched its step' : c.state}
            {c.message ? `: ${c.message}` : ''}
          </li>
        ))}
        {clusters.length > shown.length && (
          <li>and {clusters.length - shown.length} more (the table of the rollout's clusters lists each)</li>
        )}
      </ul>
    </>
  );
}
