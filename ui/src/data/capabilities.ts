// What this service offers beyond the reads every mode has, asked once per sign-in.
import type { ApiClient } from '../api/client.ts';
import { probeCrud, probeRevisions } from '../api/endpoints.ts';
import { cached } from './cache.ts';

/** True in crud mode: records (REST) are served. */
export function crudMode(client: ApiClient): Promise<boolean> {
  return cached('crud-mode', Infinity, () => probeCrud(client));
}

/** True when the service keeps the history of revisions. */
export function historyAvailable(client: ApiClient): Promise<boolean> {
  return cached('history', Infinity, () => probeRevisions(client));
}
