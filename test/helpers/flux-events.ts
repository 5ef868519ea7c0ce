// Events as Flux's notification-controller sends them to a Provider of type `generic` or
// `generic-hmac`, so that the tests send what a cluster sends. Each fact comes from Flux's own
// sources:
// - the body is Go's json.Marshal of fluxcd/pkg's `Event` (apis/event/v1beta1): involvedObject
//   (a corev1.ObjectReference: kind, namespace, name, uid, apiVersion, resourceVersion), severity,
//   timestamp (RFC 3339), message, reason, metadata (keys sorted, as Go writes a map),
//   reportingController, reportingInstance; Go escapes <, > and & in strings;
// - notification-controller strips the involved object's group prefix from metadata keys
//   (internal/server/event_handlers.go, combineEventMetadata), so helm-controller's
//   `helm.toolkit.fluxcd.io/revision` arrives as `revision`, and adds the Alert's eventMetadata
//   keys as they are (`cluster`); it drops the `token` key (excludeInternalMetadata);
// - generic-hmac (internal/notifier/forwarder.go) sends `X-Signature: sha256=<hex HMAC-SHA256 of
//   the marshalled event>` keyed by the Provider Secret's `token`;
// - helm-controller (internal/reconcile/install.go, upgrade.go) sends InstallSucceeded /
//   UpgradeSucceeded as Normal events (severity info) and InstallFailed / UpgradeFailed as
//   Warning events (severity error), each with the chart version as the revision.
import { createHmac } from 'node:crypto';
import { clusterTokenKey, signClusterToken } from '../../src/domain/cluster-token.ts';

export interface HelmEvent {
  /** The HelmRelease's name. */
  name: string;
  /** InstallSucceeded, UpgradeSucceeded, InstallFailed, UpgradeFailed, or any other reason. */
  reason: string;
  /** The chart version, sent as metadata.revision; null: none. */
  revision: string | null;
  /** The Alert's eventMetadata.cluster; null: none. */
  cluster: string | null;
  message?: string;
  /** metadata.rollout (an annotation of the HelmRelease, event.toolkit.fluxcd.io/rollout). */
  rollout?: string;
  timestamp?: string;
  severity?: 'info' | 'error' | 'trace';
}

/** The JSON body notification-controller posts for a HelmRelease event. */
export function helmEventBody(e: HelmEvent): string {
  const failed = /Failed$/.test(e.reason);
  const metadata: Record<string, string> = {};
  if (e.cluster !== null) metadata.cluster = e.cluster;
  if (e.revision !== null) metadata.revision = e.revision;
  if (e.rollout !== undefined) metadata.rollout = e.rollout;
  const sorted = Object.fromEntries(
    Object.keys(metadata)
      .sort()
      .map((k) => [k, metadata[k]]),
  );
  const event = {
    involvedObject: {
      kind: 'HelmRelease',
      namespace: 'flux-system',
      name: e.name,
      uid: '7d0cdc51-ddcf-4743-b223-83ca5c699632',
      apiVersion: 'helm.toolkit.fluxcd.io/v2',
      resourceVersion: '81234',
    },
    severity: e.severity ?? (failed ? 'error' : 'info'),
    timestamp: e.timestamp ?? new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    message:
      e.message ??
      (failed
        ? `Helm ${e.reason === 'InstallFailed' ? 'install' : 'upgrade'} failed for release flux-system/${e.name}`
        : `Helm ${e.reason === 'InstallSucceeded' ? 'install' : 'upgrade'} succeeded for release ` +
          `flux-system/${e.name}.v2 with chart ${e.name}@${e.revision}`),
    reason: e.reason,
    ...(Object.keys(sorted).length > 0 ? { metadata: sorted } : {}),
    reportingController: 'helm-controller',
    reportingInstance: 'helm-controller-5c8f7c8d9b-x2k4q',
  };
  return goJson(event);
}

/** JSON as Go's encoding/json writes it: no spaces, <, > and & escaped. */
export function goJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `sha256=<hex HMAC-SHA256(body, token)>`, as generic-hmac signs. */
export function hmacSignature(body: string, token: string): string {
  return `sha256=${createHmac('sha256', token).update(body).digest('hex')}`;
}

/** The cluster token of `id` under `key`, generation 0 unless said. */
export function clusterToken(key: string, id: string, generation = 0): string {
  return signClusterToken(clusterTokenKey(key), id, generation);
}
