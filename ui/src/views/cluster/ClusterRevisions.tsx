// The revisions that changed this cluster's answers (GET /api/v2/gitops/revisions?cluster=),
// newest first; a service that keeps no history says so.
import type { ApiClient } from '../../api/client.ts';
import { fetchRevisions } from '../../api/changes.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { useEditing } from '../../edits/editing.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { RevisionTable } from '../revisions/RevisionTable.tsx';

const SHOWN = 20;

export function ClusterRevisions({ client, id }: { client: ApiClient; id: string }) {
  const { dataVersion } = useEditing();
  const history = useAsync(() => fetchRevisions(client, { cluster: id, limit: SHOWN }), [client, id, dataVersion]);
  return (
    <section aria-labelledby="revisions">
      <h2 id="revisions">Revisions that changed it</h2>
      <Loaded value={history} what="the history">
        {(answer) =>
          answer.kind === 'not-kept' ? (
            <p class="muted">History is not available: this service does not keep the history of revisions.</p>
          ) : answer.revisions.length === 0 ? (
            <p class="muted">No revision the service judged changed this cluster's answers.</p>
          ) : (
            <RevisionTable revisions={answer.revisions} label={`Revisions that changed ${id}`} showClusters={false} />
          )
        }
      </Loaded>
    </section>
  );
}
