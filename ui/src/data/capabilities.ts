// What this service offers beyond the reads every mode has. Its settings come with the page
// (/ui/config.json, made by the service at start): crud mode, the fleet view and where people
// sign in are known before any request that would fail without them. Whether it keeps the
// history of revisions is asked of the API itself (404: not kept).
import type { ApiClient } from '../api/client.ts';
import type { UiSettings } from '../api/types.ts';
import { cached } from './cache.ts';

export function serviceSettings(client: ApiClient): Promise<UiSettings> {
  return cached('settings', Infinity, async () => {
    const { data } = await client.json<UiSettings>('/ui/config.json', { token: null });
    return data;
  });
}

/** True in crud mode: records (REST) are served. */
export async function crudMode(client: ApiClient): Promise<boolean> {
  return (await serviceSettings(client)).api_mode === 'crud';
}
