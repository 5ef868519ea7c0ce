// Under the header of every view while edits are pending: how many, and the way to review,
// preview and commit them.
import { useChangeSet } from '../../edits/use-change-set.ts';
import { href } from '../../router/router.ts';

export function PendingBar({ current }: { current: string | undefined }) {
  const set = useChangeSet();
  if (set.size === 0) return null;
  const edits = set.records.reduce((sum, pending) => sum + Math.max(1, pending.ops.length), 0);
  const onChangesPage = current === href('changes');
  return (
    <div class="pending-bar" role="region" aria-label="Pending change set">
      <p>
        <strong>
          {edits} change{edits === 1 ? '' : 's'} pending
        </strong>{' '}
        in {set.size} record{set.size === 1 ? '' : 's'}, not committed yet.
      </p>
      {!onChangesPage && <a href={href('changes')}>Review, preview and commit</a>}
    </div>
  );
}
