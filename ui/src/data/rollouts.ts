// Every rollout and where it stands, for the Rollouts view, a cluster's page and the catalog.
// The service works progress out from the clusters' polls, which it keeps only with the fleet
// view (`METRICS=off` keeps neither): the page's settings say so before any request, so no view
// asks a question whose answer can only be 404.
import type { ApiClient } from '../api/client.ts';
import { fetchRollout, fetchRollouts, type RolloutAnswer, type RolloutListAnswer } from '../api/rollouts.ts';
import { serviceSettings } from './capabilities.ts';

export const PROGRESS_OFF = "the service keeps no record of the clusters' polls (METRICS=off)";

export async function loadRollouts(client: ApiClient, signal?: AbortSignal): Promise<RolloutListAnswer> {
  if (!(await serviceSettings(client)).fleet_view) return { kind: 'off', message: PROGRESS_OFF };
  return fetchRollouts(client, signal);
}

export async function loadRollout(
  client: ApiClient,
  id: string,
  signal?: AbortSignal,
): Promise<RolloutAnswer | { kind: 'off'; message: string }> {
  if (!(await serviceSettings(client)).fleet_view) return { kind: 'off', message: PROGRESS_OFF };
  return fetchRollout(client, id, signal);
}
