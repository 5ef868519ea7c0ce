// Previewing and committing a change set, for every view that does either: the Changes page
// (the person's gathered edits) and the actions on a rollout (a change set of their own). A
// preview is of one set as it was; a commit refused with 412 finds which records changed
// meanwhile and how (./conflicts.ts); after a commit the views read the store again.
import { useState } from 'preact/hooks';
import { ChangeRefused, commitChanges, previewChanges } from '../api/changes.ts';
import type { ApiClient } from '../api/client.ts';
import type { Preview } from '../api/types.ts';
import { forget } from '../data/cache.ts';
import type { ChangeSet, PendingRecord } from './change-set.ts';
import { type Conflict, findConflicts } from './conflicts.ts';
import { useEditing } from './editing.ts';

export type CommitOutcome =
  | { kind: 'committed'; revision: string | null; unchanged: boolean; message: string }
  | { kind: 'refused'; error: ChangeRefused; records: readonly PendingRecord[] }
  | { kind: 'conflict'; error: ChangeRefused; conflicts: Conflict[] }
  | { kind: 'failed'; message: string };

export type PreviewState =
  | { state: 'none' }
  | { state: 'loading' }
  | { state: 'done'; preview: Preview }
  | { state: 'error'; outcome: CommitOutcome };

export interface Committing {
  preview: PreviewState;
  /** What came of the last commit; undefined before one, and while one is sent. */
  outcome: CommitOutcome | undefined;
  busy: boolean;
  /** Asks what the set would do; a second call while one runs is ignored. */
  runPreview: (set: ChangeSet, message: string) => Promise<void>;
  /** Sends the set with the message; what came of it (also kept as `outcome`). */
  commit: (set: ChangeSet, message: string) => Promise<CommitOutcome>;
  /** Forgets the preview (the set changed) or the outcome. */
  clearPreview: () => void;
  clearOutcome: () => void;
}

export function useCommit(client: ApiClient): Committing {
  const { reload } = useEditing();
  const [preview, setPreview] = useState<PreviewState>({ state: 'none' });
  const [outcome, setOutcome] = useState<CommitOutcome | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  const outcomeOf = async (error: unknown, of: ChangeSet): Promise<CommitOutcome> => {
    if (!(error instanceof ChangeRefused)) return { kind: 'failed', message: (error as Error).message };
    if (error.status === 412) return { kind: 'conflict', error, conflicts: await findConflicts(client, of) };
    return { kind: 'refused', error, records: of.records };
  };

  const runPreview = async (set: ChangeSet, message: string) => {
    if (preview.state === 'loading') return;
    setPreview({ state: 'loading' });
    try {
      const answer = await previewChanges(client, set.request(message.trim() || 'preview'));
      setPreview({ state: 'done', preview: answer });
    } catch (error) {
      setPreview({ state: 'error', outcome: await outcomeOf(error, set) });
    }
  };

  const commit = async (set: ChangeSet, message: string): Promise<CommitOutcome> => {
    setBusy(true);
    setOutcome(undefined);
    let result: CommitOutcome;
    try {
      const committed = await commitChanges(client, set.request(message.trim()));
      forget();
      reload();
      result = {
        kind: 'committed',
        revision: committed.revision,
        unchanged: committed.unchanged === true,
        message: message.trim(),
      };
    } catch (error) {
      // Finding what changed meanwhile asks again; if that fails too, the first failure is what is said.
      result = await outcomeOf(error, set).catch(
        () => ({ kind: 'failed', message: (error as Error).message }) as const,
      );
    }
    setOutcome(result);
    setBusy(false);
    return result;
  };

  return {
    preview,
    outcome,
    busy,
    runPreview,
    commit,
    clearPreview: () => setPreview({ state: 'none' }),
    clearOutcome: () => setOutcome(undefined),
  };
}
