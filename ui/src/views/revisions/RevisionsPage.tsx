// The history: the revisions the service judged, newest first, published or refused.
import type { ApiClient } from '../../api/client.ts';
import { fetchRevisions } from '../../api/changes.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Banner } from '../../components/common/Banner.tsx';
import { useEditing } from '../../edits/editing.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { useTitle } from '../../hooks/use-title.ts';
import { RevisionTable } from './RevisionTable.tsx';

const SHOWN = 100;

export function RevisionsPage({ client }: { client: ApiClient }) {
  useTitle('Revisions');
  const { dataVersion } = useEditing();
  const history = useAsync(() => fetchRevisions(client, { limit: SHOWN }), [client, dataVersion]);
  return (
    <>
      <h1 tabIndex={-1}>Revisions</h1>
      <Loaded value={history} what="the revisions">
        {(answer) =>
          answer.kind === 'not-kept' ? (
            <Banner tone="info" title="History is not available">
              <p>This service does not keep the history of revisions ({answer.message}).</p>
            </Banner>
          ) : answer.revisions.length === 0 ? (
            <p class="muted">No revision judged yet.</p>
          ) : (
            <>
              <p class="muted">
                The newest {answer.revisions.length === SHOWN ? SHOWN : ''} revisions the service judged, newest first.
              </p>
              <RevisionTable revisions={answer.revisions} label="Revisions" />
            </>
          )
        }
      </Loaded>
    </>
  );
}
