// Every cluster the service serves, for the fleet page and a cluster's page: the fleet view
// (GET /api/v2/gitops/fleet: id, DNS name, state, polls) and the listing
// (GET /api/v2/gitops/clusters: id, DNS name, environment), asked at once and joined. Both
// are needed — the fleet view has no environment, the listing no state — and neither needs
// crud mode. The listing is one gzip'd request for fleets up to some 7,000 clusters and a few
// shards beyond that. When the fleet view is off (METRICS=off) the listing alone is shown.
import type { ApiClient } from '../api/client.ts';
import { fetchClusterListing, fetchFleetView, type FleetAnswer } from '../api/endpoints.ts';
import { cached } from './cache.ts';
import { serviceSettings } from './capabilities.ts';
import { buildRows, type FleetRows } from './fleet-rows.ts';

export interface FleetDirectory {
  rows: FleetRows;
  /** Why states are missing, when the fleet view is not available. */
  statesUnavailable: string | undefined;
  revision: string | undefined;
}

/** Kept this long: going from the fleet to a cluster and back does not fetch it again. */
const MAX_AGE_MS = 15_000;

export function loadFleetDirectory(client: ApiClient, options: { fresh?: boolean } = {}): Promise<FleetDirectory> {
  return cached('fleet-directory', options.fresh ? 0 : MAX_AGE_MS, async () => {
    const settings = await serviceSettings(client);
    const [fleet, listing] = await Promise.all([
      settings.fleet_view
        ? fetchFleetView(client)
        : Promise.resolve<FleetAnswer>({ kind: 'off', message: 'the fleet view is off in this service (METRICS=off)' }),
      fetchClusterListing(client),
    ]);
    return directoryOf(fleet, listing);
  });
}

function directoryOf(fleet: FleetAnswer, listing: Parameters<typeof buildRows>[0]): FleetDirectory {
  if (fleet.kind === 'off')
    return { rows: buildRows(listing, undefined), statesUnavailable: fleet.message, revision: undefined };
  return { rows: buildRows(listing, fleet.view.clusters), statesUnavailable: undefined, revision: fleet.view.revision };
}
