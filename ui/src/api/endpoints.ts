// Typed calls of the public API, one function per question the UI asks. Committing a change
// set, its preview and the history of revisions are in ./changes.ts.
import { ApiError, type ApiClient, errorOf } from './client.ts';
import type {
  ClusterListing,
  ClusterSummary,
  Collection,
  Endpoint,
  FleetView,
  ReadyBody,
  RecordsByCollection,
  Whoami,
} from './types.ts';

export const API = '/api/v2/gitops';

/**
 * The UI's requests for a cluster's answers carry this header: a person looking at an answer
 * is not the cluster polling it, and the fleet view must not count the look as a poll.
 */
export const NOT_A_POLL = { 'gitops-poll': 'false' } as const;

/** /ready, public; with a token it also lists the refused revision's problems. */
export async function fetchReady(client: ApiClient): Promise<ReadyBody> {
  const response = await client.request('/ready');
  return JSON.parse(response.text) as ReadyBody;
}

export type WhoamiAnswer =
  { kind: 'known'; whoami: Whoami } | { kind: 'unknown' } | { kind: 'refused'; error: ApiError };

/** Who the token belongs to; `unknown` when this service does not answer the question (404). */
export async function fetchWhoami(client: ApiClient, token?: string): Promise<WhoamiAnswer> {
  const response = await client.request(`${API}/whoami`, { token });
  if (response.ok) return { kind: 'known', whoami: JSON.parse(response.text) as Whoami };
  if (response.status === 404) return { kind: 'unknown' };
  return { kind: 'refused', error: errorOf(response) };
}

export type FleetAnswer = { kind: 'view'; view: FleetView } | { kind: 'off'; message: string };

/** The fleet view, or why it is not available (METRICS=off answers 404). */
export async function fetchFleetView(client: ApiClient, signal?: AbortSignal): Promise<FleetAnswer> {
  const response = await client.request(`${API}/fleet`, { signal });
  if (response.ok) return { kind: 'view', view: JSON.parse(response.text) as FleetView };
  const error = errorOf(response);
  if (response.status === 404) return { kind: 'off', message: error.message };
  throw error;
}

/** At most this many requests at once: a browser opens six connections per origin. */
const PARALLEL = 6;

/**
 * Every cluster's summary (id, name, DNS name, environment) from the listing. A listing over
 * 900 KiB is refused (422) with the number of shards that fit in its message; the shards are
 * then fetched side by side and joined.
 */
export async function fetchClusterListing(client: ApiClient, signal?: AbortSignal): Promise<ClusterSummary[]> {
  const whole = await client.request(`${API}/clusters`, { signal });
  if (whole.ok) return (JSON.parse(whole.text) as ClusterListing).inputs;
  const error = errorOf(whole);
  if (whole.status !== 422) throw error;
  const shards = Number(/n = (\d+)/.exec(error.message)?.[1] ?? 8);
  const parts = await inParallel(shards, PARALLEL, async (i) => {
    const { data } = await client.json<ClusterListing>(`${API}/clusters?shard=${i}/${shards}`, { signal });
    return data.inputs;
  });
  return parts.flat().sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export interface ClusterAnswer {
  endpoint: Endpoint;
  status: number;
  /** The body as served, byte for byte. */
  text: string;
  etag: string | null;
  revision: string | null;
  error: ApiError | undefined;
}

/** One of a cluster's three answers, as the cluster gets it (not counted as its poll). */
export async function fetchClusterAnswer(
  client: ApiClient,
  dns: string,
  endpoint: Endpoint,
  signal?: AbortSignal,
): Promise<ClusterAnswer> {
  const response = await client.request(`${API}/clusters/${encodeURIComponent(dns)}/${endpoint}`, {
    headers: NOT_A_POLL,
    signal,
  });
  return {
    endpoint,
    status: response.status,
    text: response.text,
    etag: response.headers.get('etag'),
    revision: response.headers.get('x-config-revision'),
    error: response.ok ? undefined : errorOf(response),
  };
}

export type RecordAnswer<C extends Collection> =
  | { kind: 'record'; record: RecordsByCollection[C]; etag: string | null; text: string }
  | { kind: 'read-only'; message: string }
  | { kind: 'missing'; message: string };

/** One record from REST, or `read-only` when the service does not serve REST (API_MODE=read-only). */
export async function fetchRecord<C extends Collection>(
  client: ApiClient,
  collection: C,
  id: string,
  crud: boolean,
): Promise<RecordAnswer<C>> {
  if (!crud) return { kind: 'read-only', message: 'records are served in crud mode (API_MODE=crud)' };
  const response = await client.request(`/${collection}/${encodeURIComponent(id)}`);
  if (response.ok)
    return {
      kind: 'record',
      record: JSON.parse(response.text) as RecordsByCollection[C],
      etag: response.headers.get('etag'),
      text: response.text,
    };
  if (response.status === 404) return { kind: 'missing', message: errorOf(response).message };
  throw errorOf(response);
}

/** Largest page REST gives (its `limit` maximum). */
const PAGE = 10_000;

/** Every record of a collection (crud mode), the pages after the first fetched side by side. */
export async function fetchAllRecords<C extends Collection>(
  client: ApiClient,
  collection: C,
  signal?: AbortSignal,
): Promise<RecordsByCollection[C][]> {
  const first = await client.json<RecordsByCollection[C][]>(`/${collection}?limit=${PAGE}`, { signal });
  const total = Number(first.response.headers.get('x-total-count') ?? first.data.length);
  if (total <= first.data.length) return first.data;
  const pages = await inParallel(Math.ceil(total / PAGE) - 1, PARALLEL, async (i) => {
    const { data } = await client.json<RecordsByCollection[C][]>(
      `/${collection}?limit=${PAGE}&offset=${(i + 1) * PAGE}`,
      { signal },
    );
    return data;
  });
  return [first.data, ...pages].flat();
}

async function inParallel<T>(count: number, width: number, task: (i: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      results[i] = await task(i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
  return results;
}

export { ApiError };
