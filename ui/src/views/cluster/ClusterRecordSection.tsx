// The cluster's record: from REST in crud mode — as a form for a person who may edit, and as
// served (with its ETag) for everyone —; in read-only mode (no REST) the listing's summary of
// it, saying where the whole record is shown.
import type { ApiClient } from '../../api/client.ts';
import { fetchRecord } from '../../api/endpoints.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Banner } from '../../components/common/Banner.tsx';
import { CodeBlock } from '../../components/common/CodeBlock.tsx';
import { crudMode } from '../../data/capabilities.ts';
import { useEditing } from '../../edits/editing.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { ClusterEditor } from './ClusterEditor.tsx';

export interface ClusterRecordProps {
  client: ApiClient;
  id: string;
  summary: { id: string; cluster_dns: string; environment: string | undefined };
}

export function ClusterRecordSection({ client, id, summary }: ClusterRecordProps) {
  const { canEdit, dataVersion } = useEditing();
  const record = useAsync(
    async () => fetchRecord(client, 'clusters', id, await crudMode(client)),
    [client, id, dataVersion],
  );
  return (
    <section aria-labelledby="record">
      <h2 id="record">Record</h2>
      <Loaded value={record} what="the record">
        {(answer) => {
          if (answer.kind === 'record') {
            return (
              <>
                {canEdit && <ClusterEditor client={client} stored={answer.record} etag={answer.etag} />}
                {canEdit && <h3>As stored</h3>}
                <dl class="facts">
                  <dt>ETag</dt>
                  <dd>
                    <code>{answer.etag ?? '—'}</code>
                  </dd>
                </dl>
                <CodeBlock raw={answer.text} label="cluster record" id="record-body" />
              </>
            );
          }
          if (answer.kind === 'missing') {
            return (
              <Banner tone="warning" title="No record">
                <p>{answer.message}</p>
              </Banner>
            );
          }
          return (
            <>
              <Banner tone="info">
                <p>
                  Records are shown in crud mode (API_MODE=crud). In read-only mode, this is what the listing says of
                  the cluster:
                </p>
              </Banner>
              <CodeBlock raw={JSON.stringify(summary)} label="cluster summary from the listing" id="record-body" />
            </>
          );
        }}
      </Loaded>
    </section>
  );
}
