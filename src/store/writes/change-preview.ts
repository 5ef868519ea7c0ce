// The preview of a change set (POST /api/v2/gitops/changes/preview): a dry run of the set
// through the one write path — so that a write that cannot apply is refused exactly as the
// commit would be (404, 409, 412, 400 with the write's index; 503 while the store holds a
// refused revision) — with the shrink guard left to the judgement, then the report of what it
// would do (domain/writes/change-preview.ts). Nothing is stored.
import type { DiffReport } from '../../domain/diff-report.ts';
import type { ChangeSetRequest } from '../../domain/writes/change-set.ts';
import { previewChangeSetSteps } from '../../domain/writes/change-preview.ts';
import { runInSlices } from '../runner/event-loop.ts';
import type { StoreRunner } from '../runner/store-runner.ts';

export async function previewChange(
  store: Pick<StoreRunner, 'write' | 'receiverHosts'>,
  request: ChangeSetRequest,
): Promise<DiffReport> {
  const { applied, base } = await store.write(request, { dryRun: true, shrinkGuard: false });
  return runInSlices(
    previewChangeSetSteps(base.snapshot, applied.snapshot, request, base.sources, base.retired, store.receiverHosts),
  );
}
