// "Revisions that changed it": the history of the cluster's answers. Filled from
// GET /api/v2/gitops/revisions?cluster=<id> where the service keeps the history; until then
// (the path answers 404) it says so.
import type { ApiClient } from '../../api/client.ts';
import { useAsync } from '../../app/use-async.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { historyAvailable } from '../../data/capabilities.ts';

export function ClusterRevisions({ client, id }: { client: ApiClient; id: string }) {
  const available = useAsync(() => historyAvailable(client), [client]);
  return (
    <section aria-labelledby="revisions">
      <h2 id="revisions">Revisions that changed it</h2>
      <Loaded value={available} what="the history">
        {(yes) =>
          yes ? (
            <p class="muted">
              This service keeps the history of revisions: <code>GET /api/v2/gitops/revisions?cluster={id}</code> lists those that changed this cluster.
            </p>
          ) : (
            <p class="muted">History is not available: this service does not keep the history of revisions.</p>
          )
        }
      </Loaded>
    </section>
  );
}
