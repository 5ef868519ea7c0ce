// Whether a pasted token may sign in: asked of the service before the token is kept. A
// cluster's token reads only that cluster's three answers, so the fleet-wide views would
// refuse it on every page; it is turned away here with that reason.
import { type ApiClient, errorOf } from '../api/client.ts';
import { API, fetchWhoami } from '../api/endpoints.ts';
import type { Whoami } from '../api/types.ts';

export const CLUSTER_TOKEN_REFUSAL = "a cluster token reads one cluster only; sign in with a person's or service token";

/**
 * The shape of a cluster token: `gcc1.<cluster id>.<mac>`, the mac an HMAC-SHA256 in base64url
 * without padding (43 characters). Cluster ids may hold dots, so the mac is matched from the end.
 */
export function looksLikeClusterToken(token: string): boolean {
  return /^gcc1\.[A-Za-z0-9._-]+\.[A-Za-z0-9_-]{43}$/.test(token);
}

export type TokenCheck =
  | { ok: true; whoami: Whoami | undefined }
  | { ok: false; reason: 'empty' | 'cluster' | 'refused' | 'unreachable'; message: string };

export async function checkToken(client: ApiClient, pasted: string): Promise<TokenCheck> {
  const token = pasted.trim();
  if (token === '') return { ok: false, reason: 'empty', message: 'paste a token first' };
  if (looksLikeClusterToken(token)) return { ok: false, reason: 'cluster', message: CLUSTER_TOKEN_REFUSAL };
  try {
    const answer = await fetchWhoami(client, token);
    if (answer.kind === 'known') {
      if (answer.whoami.kind === 'cluster') return { ok: false, reason: 'cluster', message: CLUSTER_TOKEN_REFUSAL };
      return { ok: true, whoami: answer.whoami };
    }
    if (answer.kind === 'refused') return refusal(answer.error.status, answer.error.message);
    // This service does not say who a token belongs to: a small fleet-wide read tells whether
    // the token reads the fleet (one shard of the listing of 4096: a few clusters at most).
    const probe = await client.request(`${API}/clusters?shard=0/4096`, { token });
    if (probe.ok) return { ok: true, whoami: undefined };
    return refusal(probe.status, errorOf(probe).message);
  } catch (error) {
    return {
      ok: false,
      reason: 'unreachable',
      message: `the service could not be reached: ${(error as Error).message}`,
    };
  }
}

function refusal(status: number, message: string): TokenCheck {
  if (status === 401)
    return { ok: false, reason: 'refused', message: `the service refused the token (401): ${message}` };
  if (status === 403) return { ok: false, reason: 'cluster', message: CLUSTER_TOKEN_REFUSAL };
  return { ok: false, reason: 'unreachable', message: `the service answered ${status}: ${message}` };
}
