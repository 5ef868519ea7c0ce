// What this service offers beyond the reads every mode has. Its settings come with the page
// (/ui/config.json, made by the service at start): crud mode, the fleet view and where people
// sign in are known before any request that would fail without them. Whether it keeps the
// history of revisions is asked of the API itself (404: not kept).
import type { ApiClient } from '../api/client.ts';
import type { OidcSettings } from '../auth/oidc-flow.ts';
import { cached } from './cache.ts';

export interface ServiceSettings {
  api_mode: 'read-only' | 'crud';
  /** False with METRICS=off: GET /api/v2/gitops/fleet answers 404. */
  fleet_view: boolean;
  /** Sign-in at the OIDC issuer (OIDC_UI_CLIENT_ID); null: people paste a token. */
  oidc?: OidcSettings | null;
}

export function serviceSettings(client: ApiClient): Promise<ServiceSettings> {
  return cached('settings', Infinity, async () => {
    const { data } = await client.json<ServiceSettings>('/ui/config.json', { token: null });
    return data;
  });
}

/** True in crud mode: records (REST) are served. */
export async function crudMode(client: ApiClient): Promise<boolean> {
  return (await serviceSettings(client)).api_mode === 'crud';
}
