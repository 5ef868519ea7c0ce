// One cluster: its three answers exactly as served (with the revision and ETag they carry),
// whether it polled each current answer and when, its record, and the revisions that changed
// it, and the rollouts it is in.
import type { ApiClient } from '../../api/client.ts';
import { ENDPOINTS } from '../../api/types.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Banner } from '../../components/common/Banner.tsx';
import { StatusPill } from '../../components/common/StatusPill.tsx';
import { Time } from '../../components/common/Time.tsx';
import { loadFleetDirectory } from '../../data/fleet-directory.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { useTitle } from '../../hooks/use-title.ts';
import { BASE } from '../../router/router.ts';
import { ClusterRecordSection } from './ClusterRecordSection.tsx';
import { ClusterRevisions } from './ClusterRevisions.tsx';
import { ClusterRollouts } from './ClusterRollouts.tsx';
import { EndpointAnswer } from './EndpointAnswer.tsx';

export function ClusterPage({ client, id }: { client: ApiClient; id: string }) {
  useTitle(id);
  const directory = useAsync(() => loadFleetDirectory(client), [client]);
  return (
    <>
      <p class="crumbs">
        <a href={BASE}>Fleet</a> /
      </p>
      <h1 tabIndex={-1}>{id}</h1>
      <Loaded value={directory} what="the cluster">
        {({ rows, statesUnavailable }) => {
          const r = rows.byId.get(id);
          if (r === undefined) {
            return (
              <Banner tone="warning" title="No such cluster">
                <p>
                  The service serves no cluster with the id <code>{id}</code>. It may have been removed or renamed;{' '}
                  <a href={BASE}>search the fleet</a>.
                </p>
              </Banner>
            );
          }
          const dns = rows.dns[r];
          const polls = rows.polls[r];
          return (
            <>
              <dl class="facts">
                <dt>DNS name</dt>
                <dd>{dns}</dd>
                <dt>Environment</dt>
                <dd>{rows.environment[r] ?? <span class="muted">unknown</span>}</dd>
                <dt>State</dt>
                <dd>
                  {statesUnavailable ? (
                    <span class="muted">not available (the fleet view is off)</span>
                  ) : (
                    <StatusPill state={rows.state[r]} />
                  )}
                </dd>
                <dt>Last seen</dt>
                <dd>
                  {statesUnavailable ? <span class="muted">not available</span> : <Time iso={rows.lastSeen[r]} />}
                </dd>
              </dl>
              <section aria-labelledby="answers">
                <h2 id="answers">What the cluster gets</h2>
                <p class="muted">
                  The three answers the cluster polls, exactly as the service serves them now. Looking at them here is
                  not counted as the cluster's poll.
                </p>
                {ENDPOINTS.map((endpoint) => (
                  <EndpointAnswer
                    client={client}
                    dns={dns}
                    endpoint={endpoint}
                    poll={polls?.endpoints[endpoint]}
                    statesUnavailable={statesUnavailable}
                  />
                ))}
              </section>
              <ClusterRecordSection
                client={client}
                id={id}
                summary={{ id, cluster_dns: dns, environment: rows.environment[r] }}
              />
              <ClusterRollouts client={client} id={id} />
              <ClusterRevisions client={client} id={id} />
            </>
          );
        }}
      </Loaded>
    </>
  );
}
