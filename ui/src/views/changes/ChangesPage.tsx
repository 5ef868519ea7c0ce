// The pending change set: its records and edits (each can be discarded), a preview of what it
// does to the fleet, and the commit with a message. After a commit the set is empty and the
// views read the store again; a refusal leaves the set as it was.
import { useEffect, useState } from 'preact/hooks';
import { ChangeRefused, commitChanges, previewChanges } from '../../api/changes.ts';
import type { ApiClient } from '../../api/client.ts';
import type { Preview } from '../../api/types.ts';
import { Banner } from '../../components/common/Banner.tsx';
import { forget } from '../../data/cache.ts';
import type { ChangeSet } from '../../edits/change-set.ts';
import { findConflicts, rebaseAll } from '../../edits/conflicts.ts';
import { useEditing } from '../../edits/editing.ts';
import { changeSet, discardChangeSet, setChangeSet, useChangeSet } from '../../edits/use-change-set.ts';
import { useTitle } from '../../hooks/use-title.ts';
import { Committed, type CommitOutcome, Conflicts, Refused } from './Outcome.tsx';
import { PendingList } from './PendingList.tsx';
import { PreviewPanel } from './PreviewPanel.tsx';

type PreviewState =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'done'; preview: Preview }
  | { state: 'error'; outcome: CommitOutcome };

export function ChangesPage({ client }: { client: ApiClient }) {
  useTitle('Changes');
  const { canEdit, reload } = useEditing();
  const set = useChangeSet();
  const [message, setMessage] = useState('');
  const [messageError, setMessageError] = useState<string | undefined>(undefined);
  const [preview, setPreview] = useState<PreviewState>({ state: 'none' });
  const [outcome, setOutcome] = useState<CommitOutcome | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [dropped, setDropped] = useState<string[]>([]);

  // A preview is of the set as it was: any edit makes it stale.
  useEffect(() => setPreview({ state: 'none' }), [set]);

  const runPreview = async () => {
    // The button stays enabled (a disabled button would lose the keyboard's focus): a second press while one runs is
    // ignored.
    if (preview.state === 'loading') return;
    setPreview({ state: 'loading' });
    try {
      const answer = await previewChanges(client, set.request(message.trim() || 'preview'));
      setPreview({ state: 'done', preview: answer });
    } catch (error) {
      setPreview({ state: 'error', outcome: await outcomeOf(error, set) });
    }
  };

  const commit = async (current: ChangeSet) => {
    setBusy(true);
    setOutcome(undefined);
    try {
      const committed = await commitChanges(client, current.request(message.trim()));
      discardChangeSet();
      forget();
      reload();
      setOutcome({
        kind: 'committed',
        revision: committed.revision,
        unchanged: committed.unchanged === true,
        message: message.trim(),
      });
      setMessage('');
    } catch (error) {
      setOutcome(await outcomeOf(error, current));
    } finally {
      setBusy(false);
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
    void commit(set);
  };

  const outcomeOf = async (error: unknown, of: ChangeSet): Promise<CommitOutcome> => {
    if (!(error instanceof ChangeRefused)) return { kind: 'failed', message: (error as Error).message };
    if (error.status === 412) return { kind: 'conflict', error, conflicts: await findConflicts(client, of) };
    return { kind: 'refused', error, records: of.records };
  };

  const rebaseAndRetry = () => {
    if (outcome?.kind !== 'conflict') return;
    const rebased = rebaseAll(changeSet(), outcome.conflicts);
    setChangeSet(rebased.set);
    setDropped(rebased.dropped);
    if (rebased.set.size > 0) void commit(rebased.set);
    else setOutcome(undefined);
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
      {outcome?.kind === 'committed' && (
        <Committed revision={outcome.revision} unchanged={outcome.unchanged} message={outcome.message} />
      )}
      {outcome?.kind === 'failed' && (
        <Banner tone="error" title="The change could not be sent">
          <p>{outcome.message}</p>
        </Banner>
      )}
      {outcome?.kind === 'refused' && <Refused error={outcome.error} records={outcome.records} />}
      {outcome?.kind === 'conflict' && (
        <Conflicts error={outcome.error} conflicts={outcome.conflicts} onRebase={rebaseAndRetry} busy={busy} />
      )}
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
              <button type="button" onClick={() => void runPreview()}>
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
          {preview.state === 'loading' && (
            <p class="loading" role="status">
              Working out what the change does…
            </p>
          )}
          {preview.state === 'error' && preview.outcome.kind === 'refused' && (
            <Refused error={preview.outcome.error} records={preview.outcome.records} />
          )}
          {preview.state === 'error' && preview.outcome.kind !== 'refused' && (
            <Banner tone="error" title="No preview">
              <p>
                {preview.outcome.kind === 'failed'
                  ? preview.outcome.message
                  : preview.outcome.kind === 'conflict'
                    ? preview.outcome.error.message
                    : ''}
              </p>
            </Banner>
          )}
          {preview.state === 'done' && <PreviewPanel preview={preview.preview} />}
        </>
      )}
    </>
  );
}
