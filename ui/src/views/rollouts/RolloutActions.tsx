// The actions on a rollout, for a person who may write in crud mode only: those that fit the
// rollout as it stands (no Resume unless it is paused, no Complete before every step is
// released, Approve for the wave that waits for it), each opening its dialog
// (./RolloutActionDialog.tsx). The record is read from REST with its ETag, again every few
// seconds and after every commit, so that each action is based on the version the person saw.
import { useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import { fetchRecord } from '../../api/endpoints.ts';
import type { RolloutDetail, RolloutRecord } from '../../api/types.ts';
import { useEditing } from '../../edits/editing.ts';
import { offeredActions, type Read, type RolloutAction } from '../../edits/rollout-actions.ts';
import type { CommitOutcome } from '../../edits/use-commit.ts';
import { usePolled } from '../../hooks/use-polled.ts';
import { REFRESH_MS } from './rollout-facts.tsx';
import { RolloutActionDialog } from './RolloutActionDialog.tsx';

export interface RolloutActionsProps {
  client: ApiClient;
  detail: RolloutDetail;
  /** A commit was made: the page says so and takes the focus there. */
  onCommitted: (outcome: CommitOutcome) => void;
}

export function RolloutActions(props: RolloutActionsProps) {
  const { canEdit } = useEditing();
  return canEdit ? <Actions {...props} /> : null;
}

function Actions({ client, detail, onCommitted }: RolloutActionsProps) {
  const { dataVersion } = useEditing();
  const id = detail.id;
  // Read again at once after a commit, and whenever the status shows the rollout moved (the service released a step).
  const moved = `${dataVersion} ${detail.released} ${detail.state}`;
  const answer = usePolled(() => fetchRecord(client, 'rollouts', id, true), [client, id], REFRESH_MS, moved);
  const [open, setOpen] = useState<{ action: RolloutAction; rollout: Read<RolloutRecord> } | undefined>(undefined);
  const group = useRef<HTMLDivElement>(null);
  if (answer.state !== 'done' || answer.value.kind !== 'record') return null;
  const rollout = { record: answer.value.record, etag: answer.value.etag };
  const offered = offeredActions(rollout.record, detail);

  const button = (action: RolloutAction, label: string, tone?: 'danger') => (
    <button
      type="button"
      class={tone}
      data-action={action.kind}
      onClick={() => setOpen({ action, rollout: { record: rollout.record, etag: rollout.etag } })}
    >
      {label}
    </button>
  );
  const closed = (committed?: CommitOutcome) => {
    const kind = open?.action.kind;
    setOpen(undefined);
    if (committed) onCommitted(committed);
    // Back to the button that opened it, or the first one left once the rollout moved.
    else
      requestAnimationFrame(() =>
        (
          group.current?.querySelector<HTMLElement>(`[data-action="${kind}"]`) ?? group.current?.querySelector('button')
        )?.focus(),
      );
  };

  return (
    <section aria-labelledby="rollout-actions">
      <h2 id="rollout-actions">Actions</h2>
      <div class="buttons" role="group" aria-label="Actions on the rollout" ref={group}>
        {offered.approve &&
          button({ kind: 'approve', wave: offered.approve.wave }, `Approve wave ${offered.approve.wave}`)}
        {offered.pause && button({ kind: 'pause' }, 'Pause')}
        {offered.resume && button({ kind: 'resume' }, 'Resume')}
        {offered.advance &&
          button(
            { kind: 'advance', forced: false },
            offered.advance.gatesPassed ? 'Advance' : 'Advance (gates not passed)',
          )}
        {offered.rollback && button({ kind: 'rollback', step: 0 }, 'Roll back', 'danger')}
        {offered.complete && button({ kind: 'complete' }, 'Complete')}
      </div>
      {open && (
        <RolloutActionDialog
          client={client}
          action={open.action}
          rollout={open.rollout}
          detail={detail}
          onClose={closed}
        />
      )}
    </section>
  );
}
