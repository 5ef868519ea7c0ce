// The records the change set changes, each with its edits in words, a link to where it is
// edited, and a button to discard that record's edits.
import type { ChangeSet, PendingRecord } from '../../edits/change-set.ts';
import { describeEdit } from '../../edits/record-edits.ts';
import { setChangeSet } from '../../edits/use-change-set.ts';
import { href } from '../../router/router.ts';

const PAGES: Record<PendingRecord['collection'], (id: string) => string> = {
  clusters: (id) => href('clusters', id),
  platform_components: () => href('catalog'),
  namespaces: () => href('namespaces'),
  rolebindings: () => href('rolebindings'),
  rollouts: (id) => href('rollouts', id),
};

export function PendingList({ set }: { set: ChangeSet }) {
  return (
    <ul class="pending-list" aria-label="Pending changes">
      {set.records.map((pending) => {
        const name = `${pending.collection}/${pending.id}`;
        const verb =
          pending.base === null ? 'create' : pending.ops.some((op) => op.kind === 'delete') ? 'delete' : 'update';
        return (
          <li key={name}>
            <div class="pending-head">
              <a href={PAGES[pending.collection](pending.id)}>{name}</a> <span class="muted">({verb})</span>
              <button
                type="button"
                class="small"
                onClick={() => setChangeSet(set.without(pending.collection, pending.id))}
              >
                Discard <span class="visually-hidden">the changes of {name}</span>
              </button>
            </div>
            <ul class="edits">
              {pending.ops
                .filter((op) => op.kind !== 'create' && op.kind !== 'delete')
                .map((op) => (
                  <li>{describeEdit(op)}</li>
                ))}
            </ul>
            {pending.etag && (
              <p class="muted small-print">
                based on ETag <code>{pending.etag}</code>
              </p>
            )}
          </li>
        );
      })}
    </ul>
  );
}
