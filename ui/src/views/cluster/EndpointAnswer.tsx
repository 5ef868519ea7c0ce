// One of a cluster's three answers as served — its body (pretty or raw), X-Config-Revision
// and ETag — and the cluster's last poll of it from the fleet view.
import type { ApiClient } from '../../api/client.ts';
import { fetchClusterAnswer } from '../../api/endpoints.ts';
import type { Endpoint, FleetEndpointPoll } from '../../api/types.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Banner } from '../../components/common/Banner.tsx';
import { CodeBlock } from '../../components/common/CodeBlock.tsx';
import { Time } from '../../components/common/Time.tsx';
import { useEditing } from '../../edits/editing.ts';
import { useAsync } from '../../hooks/use-async.ts';

export interface EndpointAnswerProps {
  client: ApiClient;
  dns: string;
  endpoint: Endpoint;
  poll: FleetEndpointPoll | undefined;
  statesUnavailable: string | undefined;
}

export function EndpointAnswer({ client, dns, endpoint, poll, statesUnavailable }: EndpointAnswerProps) {
  const { dataVersion } = useEditing();
  const answer = useAsync(() => fetchClusterAnswer(client, dns, endpoint), [client, dns, endpoint, dataVersion]);
  const headingId = `answer-${endpoint}`;
  return (
    <section class="answer" aria-labelledby={headingId}>
      <h3 id={headingId}>{endpoint}</h3>
      <p class="poll">{pollText(poll, statesUnavailable)}</p>
      <Loaded value={answer} what={`the ${endpoint} answer`}>
        {(served) => (
          <>
            <dl class="facts">
              <dt>Status</dt>
              <dd>{served.status}</dd>
              <dt>X-Config-Revision</dt>
              <dd>
                <code>{served.revision ?? '—'}</code>
              </dd>
              <dt>ETag</dt>
              <dd>
                <code>{served.etag ?? '—'}</code>
                {served.etag?.endsWith('-gzip"') && (
                  <span class="muted">
                    {' '}
                    (the gzip copy's; the plain body's is {served.etag.replace(/-gzip"$/, '"')})
                  </span>
                )}
              </dd>
            </dl>
            {served.error ? (
              <Banner tone="error" title={`The service answered ${served.status}`}>
                <p>{served.error.message}</p>
              </Banner>
            ) : (
              <CodeBlock raw={served.text} label={`${endpoint} answer`} id={`body-${endpoint}`} />
            )}
          </>
        )}
      </Loaded>
    </section>
  );
}

function pollText(poll: FleetEndpointPoll | undefined, statesUnavailable: string | undefined) {
  if (statesUnavailable)
    return <span class="muted">Whether the cluster polled it is not known: the fleet view is off.</span>;
  if (!poll || poll.last_poll === null) return <span class="muted">The cluster never polled this answer.</span>;
  if (poll.up_to_date) {
    return (
      <>
        Polled the current answer <Time iso={poll.last_poll} />.
      </>
    );
  }
  return (
    <>
      <strong>Not the current answer:</strong> its last poll (<Time iso={poll.last_poll} />) got{' '}
      <code>{poll.etag_served}</code>; the service now serves{' '}
      <code>{poll.etag_current ?? 'no body (over 900 KiB)'}</code>.
    </>
  );
}
