// Committing a change set, previewing it, and the history of revisions: the calls of the
// editing views. The client's other calls are in ./endpoints.ts.
import { ApiError, type ApiClient, type ApiResponse } from './client.ts';
import { API } from './endpoints.ts';
import type { ChangeRequest, Committed, ErrorDetail, Preview, RevisionEntry, RevisionHistory } from './types.ts';

/** A refused change set: the status (400, 404, 409, 412), the message, and which writes were at fault. */
export class ChangeRefused extends ApiError {
  readonly details: ErrorDetail[];

  constructor(status: number, code: string | undefined, message: string, details: ErrorDetail[]) {
    super(status, code, message);
    this.name = 'ChangeRefused';
    this.details = details;
  }
}

const JSON_BODY = { 'content-type': 'application/json' };

/** Stores the change set as one commit; throws ChangeRefused when the service refuses it. */
export async function commitChanges(client: ApiClient, change: ChangeRequest): Promise<Committed> {
  const response = await client.request(`${API}/changes`, {
    method: 'POST',
    headers: JSON_BODY,
    body: JSON.stringify(change),
  });
  if (response.status === 201) return JSON.parse(response.text) as Committed;
  throw refusal(response);
}

/** What the change set would do to the fleet, nothing stored. */
export async function previewChanges(client: ApiClient, change: ChangeRequest): Promise<Preview> {
  const response = await client.request(`${API}/changes/preview`, {
    method: 'POST',
    headers: JSON_BODY,
    body: JSON.stringify(change),
  });
  if (response.ok) return JSON.parse(response.text) as Preview;
  throw refusal(response);
}

export type HistoryAnswer = { kind: 'revisions'; revisions: RevisionEntry[] } | { kind: 'not-kept'; message: string };

/**
 * The revisions the service judged, newest first; those that changed one cluster's answers with `cluster`, those that
 * changed one rollout's record with `rollout`.
 */
export async function fetchRevisions(
  client: ApiClient,
  options: { cluster?: string; rollout?: string; limit?: number; signal?: AbortSignal } = {},
): Promise<HistoryAnswer> {
  const query = new URLSearchParams();
  if (options.cluster !== undefined) query.set('cluster', options.cluster);
  if (options.rollout !== undefined) query.set('rollout', options.rollout);
  if (options.limit !== undefined) query.set('limit', String(options.limit));
  const response = await client.request(`${API}/revisions${query.size ? `?${query}` : ''}`, {
    signal: options.signal,
  });
  if (response.ok) {
    const body = JSON.parse(response.text) as RevisionHistory;
    return { kind: 'revisions', revisions: body.revisions };
  }
  const error = refusal(response);
  if (response.status === 404) return { kind: 'not-kept', message: error.message };
  throw error;
}

function refusal(response: ApiResponse): ChangeRefused {
  try {
    const body = JSON.parse(response.text) as { error?: unknown; message?: unknown; details?: unknown };
    if (typeof body.message === 'string') {
      const details = Array.isArray(body.details) ? (body.details as ErrorDetail[]) : [];
      return new ChangeRefused(
        response.status,
        typeof body.error === 'string' ? body.error : undefined,
        body.message,
        details,
      );
    }
  } catch {
    // Not the service's JSON error body (a proxy's page): the status says enough.
  }
  return new ChangeRefused(response.status, undefined, `the service answered ${response.status}`, []);
}
