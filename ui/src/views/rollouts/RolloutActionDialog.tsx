// One action on a rollout, in a modal dialog: what it does in words; for an advance whose
// gates have not passed, why, and a confirmation before anything else; for a roll back, the
// step to go back to; then its preview (which clusters' answers change, the shrink guard's
// verdict) and the commit with a message. A refusal or a 412 stays in the dialog; a commit
// closes it and the page says what was stored. Escape or Cancel closes it with nothing sent.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import { fetchRecord } from '../../api/endpoints.ts';
import type { RolloutDetail, RolloutRecord } from '../../api/types.ts';
import { Banner } from '../../components/common/Banner.tsx';
import {
  type ActionChange,
  actionChange,
  holdingBack,
  offeredActions,
  type Read,
  type RolloutAction,
  stillOffered,
} from '../../edits/rollout-actions.ts';
import { type CommitOutcome, useCommit } from '../../edits/use-commit.ts';
import { OutcomeView, PreviewResult } from '../changes/Outcome.tsx';
import { actionTitle, ActionWords, HeldBackBy } from './action-words.tsx';

export interface RolloutActionDialogProps {
  client: ApiClient;
  action: RolloutAction;
  rollout: Read<RolloutRecord>;
  detail: RolloutDetail;
  /** Closed: with what the commit stored, or undefined when nothing was sent. */
  onClose: (committed?: CommitOutcome) => void;
}

export function RolloutActionDialog({
  client,
  action: chosen,
  rollout: shown,
  detail,
  onClose,
}: RolloutActionDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const [action, setAction] = useState(chosen);
  // The record as shown when the button was pressed, then as read again: the change is made on the newest version.
  const [rollout, setRollout] = useState(shown);
  // An advance the gates have not passed waits for the person to say so before it is previewed.
  const confirmed = !(action.kind === 'advance' && action.forced === false && detail.state !== 'ready');
  const [change, setChange] = useState<ActionChange | { error: string } | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [messageError, setMessageError] = useState<string | undefined>(undefined);
  const committing = useCommit(client);

  useEffect(() => {
    dialog.current?.showModal();
    heading.current?.focus();
  }, []);

  // The change set, once confirmed, on the record read again (complete also reads the catalog entry it folds `set`
  // into).
  useEffect(() => {
    if (!confirmed) return;
    let current = true;
    void (async () => {
      try {
        const id = shown.record.id;
        const again = await fetchRecord(client, 'rollouts', id, true);
        if (again.kind !== 'record') throw new Error(`rollout ${id}: ${again.message}`);
        const rollout = { record: again.record, etag: again.etag };
        if (!current) return;
        setRollout(rollout);
        if (!stillOffered(action, offeredActions(rollout.record, detail))) {
          throw new Error(`rollout ${id} moved since this page showed it: close this, and choose again`);
        }
        let entry;
        if (action.kind === 'complete') {
          const answer = await fetchRecord(client, 'platform_components', rollout.record.component, true);
          if (answer.kind !== 'record')
            throw new Error(`the catalog entry ${rollout.record.component}: ${answer.message}`);
          entry = { record: answer.record, etag: answer.etag };
        }
        const made = actionChange(action, rollout, detail, entry);
        if (!current) return;
        setChange(made);
        setMessage(made.message);
        void committing.runPreview(made.set, made.message);
      } catch (error) {
        if (current) setChange({ error: (error as Error).message });
      }
    })();
    return () => {
      current = false;
    };
  }, [confirmed, action]);

  // The page takes the dialog away (and the focus where it belongs): closing it here too would tell of it twice.
  const close = (committed?: CommitOutcome) => onClose(committed);

  const onCommit = async (event: Event) => {
    event.preventDefault();
    if (!change || 'error' in change || committing.busy) return;
    if (!message.trim()) {
      setMessageError('Write a commit message: it becomes the message of the commit in the config repo.');
      return;
    }
    setMessageError(undefined);
    const outcome = await committing.commit(change.set, message);
    if (outcome.kind === 'committed') close(outcome);
  };

  const title = actionTitle(action, rollout.record.id);
  return (
    <dialog ref={dialog} class="action-dialog" aria-labelledby="action-title" onClose={() => onClose()}>
      <h2 id="action-title" ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <ActionWords action={action} rollout={rollout.record} detail={detail} />
      {!confirmed && (
        <>
          <Banner tone="warning" title="The gates have not passed">
            <p>
              The rollout is {detail.state}: {detail.reason}. The service would not release step{' '}
              {rollout.record.released + 1} now. Releasing it anyway changes its clusters' answers at once.
            </p>
            {detail.state === 'halted' && <HeldBackBy clusters={holdingBack(detail)} />}
          </Banner>
          <div class="buttons">
            <button type="button" class="danger" onClick={() => setAction({ kind: 'advance', forced: true })}>
              Advance anyway
            </button>
            <button type="button" onClick={() => close()}>
              Cancel
            </button>
          </div>
        </>
      )}
      {action.kind === 'rollback' && (
        <div class="field">
          <label for="rollback-to">Roll back to</label>
          <select
            id="rollback-to"
            value={String(action.step)}
            onChange={(e) => setAction({ kind: 'rollback', step: Number((e.target as HTMLSelectElement).value) })}
          >
            {Array.from({ length: rollout.record.released }, (_, step) => (
              <option value={String(step)}>
                {step === 0
                  ? "None: the catalog's answer everywhere"
                  : `Step ${step} (wave ${detail.steps[step - 1].wave})`}
              </option>
            ))}
          </select>
        </div>
      )}
      {change && 'error' in change && (
        <Banner tone="error" title="This action cannot be prepared">
          <p>{change.error}</p>
        </Banner>
      )}
      {confirmed && change && !('error' in change) && (
        <form class="commit-form" onSubmit={(e) => void onCommit(e)}>
          <label for="action-message">Commit message</label>
          <textarea
            id="action-message"
            rows={3}
            value={message}
            aria-invalid={messageError ? true : undefined}
            aria-describedby={messageError ? 'action-message-error' : undefined}
            onInput={(e) => setMessage((e.target as HTMLTextAreaElement).value)}
          />
          {messageError && (
            <p id="action-message-error" class="field-error" role="alert">
              {messageError}
            </p>
          )}
          <div class="buttons">
            <button type="button" onClick={() => void committing.runPreview(change.set, message)}>
              Preview
            </button>
            <button type="submit" class="primary" disabled={committing.busy}>
              Commit
            </button>
            <button type="button" onClick={() => close()}>
              Cancel
            </button>
          </div>
        </form>
      )}
      {/* A commit closes the dialog, and the page says what was stored. */}
      {committing.outcome?.kind !== 'committed' && <OutcomeView outcome={committing.outcome} busy={committing.busy} />}
      {confirmed && <PreviewResult preview={committing.preview} />}
    </dialog>
  );
}
