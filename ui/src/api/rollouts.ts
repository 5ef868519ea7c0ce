// Where the rollouts stand, as the service works it out from the clusters' polls: the list and
// one rollout step by step. Both are fleet reads (a person, the read token) in every mode; the
// service answers 404 where it keeps no poll records (METRICS=off), and for an unknown id.
import { type ApiClient, errorOf } from './client.ts';
import { API } from './endpoints.ts';
import type { RolloutDetail, RolloutList } from './types.ts';

export type RolloutListAnswer = { kind: 'list'; list: RolloutList } | { kind: 'off'; message: string };

/** Every rollout of the served revision, or why the service cannot say (404). */
export async function fetchRollouts(client: ApiClient, signal?: AbortSignal): Promise<RolloutListAnswer> {
  const response = await client.request(`${API}/rollouts`, { signal });
  if (response.ok) return { kind: 'list', list: JSON.parse(response.text) as RolloutList };
  if (response.status === 404) return { kind: 'off', message: errorOf(response).message };
  throw errorOf(response);
}

export type RolloutAnswer = { kind: 'rollout'; rollout: RolloutDetail } | { kind: 'missing'; message: string };

/** One rollout, or the service's word on why there is none by that id (404). */
export async function fetchRollout(client: ApiClient, id: string, signal?: AbortSignal): Promise<RolloutAnswer> {
  const response = await client.request(`${API}/rollouts/${encodeURIComponent(id)}`, { signal });
  if (response.ok) return { kind: 'rollout', rollout: JSON.parse(response.text) as RolloutDetail };
  if (response.status === 404) return { kind: 'missing', message: errorOf(response).message };
  throw errorOf(response);
}
