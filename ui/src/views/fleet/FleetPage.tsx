// Every cluster of the fleet: its id (a link to its page), DNS name, environment,
// convergence state and when it last polled; a search over ids and DNS names, filters by
// environment, state and a cluster's state in a rollout, and the count of clusters in each state.
import type { ApiClient } from '../../api/client.ts';
import { FLEET_STATES } from '../../api/types.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Banner } from '../../components/common/Banner.tsx';
import { STATE_LABELS } from '../../components/common/StatusPill.tsx';
import { loadFleetDirectory } from '../../data/fleet-directory.ts';
import { countStates } from '../../data/fleet-rows.ts';
import { loadRollouts } from '../../data/rollouts.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { useTitle } from '../../hooks/use-title.ts';
import type { Location } from '../../router/router.ts';
import { FleetTable } from './FleetTable.tsx';

export function FleetPage({ client, location }: { client: ApiClient; location: Location }) {
  useTitle('Fleet');
  const directory = useAsync(() => loadFleetDirectory(client), [client]);
  // For the filter by rollout: without it (no progress kept, or not answered) the fleet is shown all the same.
  const rollouts = useAsync(() => loadRollouts(client).catch(() => undefined), [client]);
  const rolloutList = rollouts.state === 'done' && rollouts.value?.kind === 'list' ? rollouts.value.list.rollouts : [];
  return (
    <>
      <h1 tabIndex={-1}>Fleet</h1>
      <Loaded value={directory} what="the fleet">
        {({ rows, statesUnavailable }) => {
          const counts = countStates(rows);
          return (
            <>
              {statesUnavailable && (
                <Banner tone="info" title="Convergence states are not available">
                  <p>
                    The service does not keep the fleet view, so which cluster has the current configuration is not
                    known: {statesUnavailable}. The clusters are listed without states.
                  </p>
                </Banner>
              )}
              <ul class="counts" aria-label="Clusters per state">
                <li>
                  <span class="count">{rows.count.toLocaleString()}</span> clusters
                </li>
                {!statesUnavailable &&
                  FLEET_STATES.map((state) => (
                    <li>
                      <span class={`count count-${state}`}>{counts[state].toLocaleString()}</span>{' '}
                      {STATE_LABELS[state].toLowerCase()}
                    </li>
                  ))}
              </ul>
              <FleetTable
                client={client}
                rows={rows}
                rollouts={rolloutList}
                counts={counts}
                statesAvailable={!statesUnavailable}
                initial={location.search}
              />
            </>
          );
        }}
      </Loaded>
    </>
  );
}
