// The pending change set: its records and edits (each can be discarded), a preview of what it
// does to the fleet, and the commit with a message. After a commit the set is empty and the
// views read the store again; a refusal leaves the set as it was.
import { useEffect, useState } from 'preact/hooks';
import type { ApiClient } from '../../api/client.ts';
import { Banner } from '../../components/common/Banner.tsx';
import { rebaseAll } from '../../edits/conflicts.ts';
import { useEditing } from '../../edits/editing.ts';
import { useCommit } from '../../edits/use-commit.ts';
import { changeSet, discardChangeSet, setChangeSet, useChangeSet } from '../../edits/use-change-set.ts';
import { useTitle } from '../../hooks/use-title.ts';
import { OutcomeView, PreviewResult } from './Outcome.tsx';
import { PendingList } from './PendingList.tsx';

export function ChangesPage({ client }: { client: ApiClient }) {
  useTitle('Changes');
  const { canEdit } = useEditing();
  const set = useChangeSet();
  const [message, setMessage] = useState('');
  const [messageError, setMessageError] = useState<string | undefined>(undefined);
  const { preview, outcome, busy, runPreview, commit, clearPreview, clearOutcome } = useCommit(client);
  const [dropped, setDropped] = useState<string[]>([]);

  // A preview is of the set as it was: any edit makes it stale.
  useEffect(clearPreview, [set]);

  const commitSet = async (current: typeof set) => {
    if ((await commit(current, message)).kind === 'committed') {
      discardChangeSet();
      setMessage('');
    }
  };

  const onCommit = (event: Event) => {
    event.preventDefault();
    if (!message.trim()) {
      setMessageError('Write a commit message: it becomes the message of the commit in the config repo.');
      return;
    }
    setMessageError(undefined);
    setDropped([]);
    void commitSet(set);
  };

  const rebaseAndRetry = () => {
    if (outcome?.kind !== 'conflict') return;
    const rebased = rebaseAll(changeSet(), outcome.conflicts);
    setChangeSet(rebased.set);
    setDropped(rebased.dropped);
    if (rebased.set.size > 0) void commitSet(rebased.set);
    else clearOutcome();
  };

  const edits = set.records.reduce((sum, pending) => sum + Math.max(1, pending.ops.length), 0);
  return (
    <>
      <h1 tabIndex={-1}>Changes</h1>
      {!canEdit && (
        <Banner tone="info" title="Editing is not available">
          <p>Changes are made in crud mode (API_MODE=crud) by a person or token with the write role.</p>
        </Banner>
      )}
      <OutcomeView outcome={outcome} onRebase={rebaseAndRetry} busy={busy} />
      {dropped.length > 0 && (
        <Banner tone="warning" title="Edits that no longer apply were dropped">
          <ul>
            {dropped.map((text) => (
              <li>{text}</li>
            ))}
          </ul>
        </Banner>
      )}
      {set.size === 0 ? (
        <p class="muted">
          No changes pending. Edit a cluster, the catalog, a namespace or a role binding: the edits gather here until
          you commit them.
        </p>
      ) : (
        <>
          <p>
            <strong>
              {edits} change{edits === 1 ? '' : 's'} pending
            </strong>{' '}
            in {set.size} record{set.size === 1 ? '' : 's'}.
          </p>
          <PendingList set={set} />
          <form class="commit-form" onSubmit={onCommit}>
            <label for="commit-message">Commit message</label>
            <textarea
              id="commit-message"
              rows={3}
              value={message}
              aria-invalid={messageError ? true : undefined}
              aria-describedby={messageError ? 'commit-message-error' : undefined}
              onInput={(event) => setMessage((event.target as HTMLTextAreaElement).value)}
            />
            {messageError && (
              <p id="commit-message-error" class="field-error" role="alert">
                {messageError}
              </p>
            )}
            <div class="buttons">
              <button type="button" onClick={() => void runPreview(set, message)}>
                Preview
              </button>
              <button type="submit" class="primary" disabled={busy}>
                Commit
              </button>
              <button type="button" class="danger" onClick={() => discardChangeSet()} disabled={busy}>
                Discard all
              </button>
            </div>
          </form>
          <PreviewResult preview={preview} />
        </>
      )}
    </>
  );
}
