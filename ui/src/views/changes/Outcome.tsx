// What came of pressing Commit: the new revision; or the refusal, with the writes at fault
// named by their record (nothing was stored); or, for a 412, what changed meanwhile. Also the
// preview's result as the views show it: working, refused, or the blast radius.
import type { ChangeRefused } from '../../api/changes.ts';
import { Banner } from '../../components/common/Banner.tsx';
import type { PendingRecord } from '../../edits/change-set.ts';
import type { Conflict } from '../../edits/conflicts.ts';
import { shown } from '../../edits/record-diff.ts';
import type { CommitOutcome, PreviewState } from '../../edits/use-commit.ts';
import { href } from '../../router/router.ts';
import { PreviewPanel } from './PreviewPanel.tsx';

/** What came of a commit, whichever it was; `onRebase` offers to apply the edits again after a 412. */
export function OutcomeView({
  outcome,
  onRebase,
  busy,
}: {
  outcome: CommitOutcome | undefined;
  onRebase?: () => void;
  busy: boolean;
}) {
  switch (outcome?.kind) {
    case undefined:
      return null;
    case 'committed':
      return <Committed revision={outcome.revision} unchanged={outcome.unchanged} message={outcome.message} />;
    case 'failed':
      return (
        <Banner tone="error" title="The change could not be sent">
          <p>{outcome.message}</p>
        </Banner>
      );
    case 'refused':
      return <Refused error={outcome.error} records={outcome.records} />;
    case 'conflict':
      return <Conflicts error={outcome.error} conflicts={outcome.conflicts} onRebase={onRebase} busy={busy} />;
  }
}

/** The preview as far as it got: working it out, refused (with why), or what the change does. */
export function PreviewResult({ preview }: { preview: PreviewState }) {
  switch (preview.state) {
    case 'none':
      return null;
    case 'loading':
      return (
        <p class="loading" role="status">
          Working out what the change does…
        </p>
      );
    case 'done':
      return <PreviewPanel preview={preview.preview} />;
    case 'error': {
      const { outcome } = preview;
      if (outcome.kind === 'refused') return <Refused error={outcome.error} records={outcome.records} />;
      return (
        <Banner tone="error" title="No preview">
          <p>
            {outcome.kind === 'failed' ? outcome.message : outcome.kind === 'conflict' ? outcome.error.message : ''}
          </p>
        </Banner>
      );
    }
  }
}

export function Committed({
  revision,
  unchanged,
  message,
}: {
  revision: string | null;
  unchanged: boolean;
  message: string;
}) {
  if (unchanged) {
    return (
      <Banner tone="info" title="Nothing to commit">
        <p>
          The records already hold these values: no commit was made
          {revision ? (
            <>
              {' '}
              (the service serves <code class="revision">{revision}</code>)
            </>
          ) : (
            ''
          )}
          .
        </p>
      </Banner>
    );
  }
  return (
    <Banner tone="info" title="Committed">
      <p>
        The change is stored as revision <code class="revision">{revision}</code> ({message.split('\n')[0]}). See{' '}
        <a href={href('revisions')}>the revisions</a>.
      </p>
    </Banner>
  );
}

export function Refused({ error, records }: { error: ChangeRefused; records: readonly PendingRecord[] }) {
  return (
    <Banner tone="error" title={`The service refused the change (${error.status}); nothing was committed`}>
      <p>{error.message}</p>
      {error.details.length > 0 && (
        <ul class="problems" aria-label="Why the change was refused">
          {error.details.map((detail) => {
            const record = detail.index === undefined ? undefined : records[detail.index];
            return (
              <li>
                {record && <strong>{`${record.collection}/${record.id}`}</strong>}{' '}
                {detail.path && <code>{detail.path}</code>} {detail.message}
              </li>
            );
          })}
        </ul>
      )}
    </Banner>
  );
}

export function Conflicts({
  error,
  conflicts,
  onRebase,
  busy,
}: {
  error: ChangeRefused;
  conflicts: Conflict[];
  /** Absent where applying the edits again to the newer records would not be what the person chose. */
  onRebase?: () => void;
  busy: boolean;
}) {
  return (
    <Banner tone="warning" title="Changed meanwhile: nothing was committed">
      <p>{error.message}</p>
      {conflicts.length === 0 ? (
        <p>The records of the change set read the same again now; commit again.</p>
      ) : (
        <>
          <p>Someone changed these records after you began editing them. Their change:</p>
          {conflicts.map((conflict) => (
            <div class="conflict">
              <p>
                <strong>{`${conflict.collection}/${conflict.id}`}</strong>
                {conflict.current === null ? ' was deleted.' : ` (now ETag ${conflict.etag ?? '—'})`}
              </p>
              {conflict.current !== null && (
                <ul aria-label={`What changed in ${conflict.collection}/${conflict.id}`}>
                  {conflict.differences.map((difference) => (
                    <li>
                      <code>{difference.field}</code>: {shown(difference.before)} → {shown(difference.after)}
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
          {onRebase ? (
            <>
              <p>Re-basing applies your edits again to the records as they are now, and commits again.</p>
              <button type="button" onClick={onRebase} disabled={busy}>
                Re-base and retry
              </button>
            </>
          ) : (
            <p>Nothing of yours was applied. Look at the rollout as it is now, and choose again.</p>
          )}
        </>
      )}
    </Banner>
  );
}
