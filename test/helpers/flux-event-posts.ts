// Events sent to the real service as notification-controller's Providers send them: a
// `generic-hmac` one signs the body (./flux-events.ts, hmacSignature) and sends no
// Authorization; a `generic` one sends the headers of its Secret, here the cluster's token.
import { request, type RawResponse } from './http.ts';
import { hmacSignature } from './flux-events.ts';

export const EVENTS = '/api/v2/gitops/events';

/** Posts as a generic-hmac Provider: signed with the token, no Authorization. */
export function postSigned(
  url: string,
  body: string,
  token: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return request(url, EVENTS, {
    method: 'POST',
    body,
    headers: {
      'content-type': 'application/json',
      'gotk-component': 'helm-controller',
      'x-signature': hmacSignature(body, token),
      ...headers,
    },
  });
}

/** Posts as a generic Provider whose headers Secret carries the cluster token. */
export function postWithToken(url: string, body: string, token: string): Promise<RawResponse> {
  return request(url, EVENTS, {
    method: 'POST',
    body,
    token,
    headers: { 'content-type': 'application/json', 'gotk-component': 'helm-controller' },
  });
}
