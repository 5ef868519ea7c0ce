// An event as Flux's notification-controller sends it through a Provider of type `generic` or
// `generic-hmac`: the JSON of its `Event` (fluxcd/pkg runtime/events): `involvedObject`
// (`kind`, `name`, `namespace`, ...), `severity` (info, error or trace), `timestamp`,
// `message`, `reason`, `metadata` (string values; the emitter's group prefix already stripped, so
// a HelmRelease's chart version is `revision`, and the Alert's `eventMetadata` keys as they
// are, such as `cluster`) and `reportingController`. What is kept of one: the fields the
// rollouts read, the message cut to a bound (a failed Helm action appends its log to it).
import { isValidId } from '../ids.ts';

export const SEVERITIES = ['info', 'error', 'trace'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** The most of a message kept: enough to say why an upgrade failed, not the whole Helm log. */
export const KEPT_MESSAGE_CHARS = 1000;
/** Metadata keys kept: those the rollouts read, and the cluster it names. */
const KEPT_METADATA = ['cluster', 'revision', 'rollout'] as const;
/** The longest name, namespace or kind taken (Kubernetes names are at most 253 characters). */
const MAX_NAME = 253;

export interface FluxEvent {
  kind: string;
  name: string;
  namespace: string;
  severity: Severity;
  /** As sent (RFC 3339), compared as text only. */
  timestamp: string;
  reason: string;
  message: string;
  reportingController: string;
  /** `cluster`, `revision` and `rollout` of the metadata, when sent. */
  metadata: { cluster?: string; revision?: string; rollout?: string };
}

/** An event as one replica kept it: when it was received there (ms since the epoch). */
export interface ReceivedEvent extends FluxEvent {
  receivedAt: number;
}

/** Why a body is not an event: where, and what. */
export interface EventProblem {
  path: string;
  message: string;
}

export type ParsedEvent = { ok: true; event: FluxEvent } | { ok: false; problems: EventProblem[] };

/** The event a parsed JSON body holds, or every problem found in it. */
export function parseFluxEvent(body: unknown): ParsedEvent {
  const problems: EventProblem[] = [];
  if (!isObject(body))
    return { ok: false, problems: [{ path: '', message: 'the body is not a JSON object (a Flux event)' }] };
  const object = body.involvedObject;
  if (!isObject(object)) problems.push({ path: '/involvedObject', message: 'required: an object with kind and name' });
  const text = (value: unknown, path: string, required: boolean, max = Number.POSITIVE_INFINITY): string => {
    if (value === undefined && !required) return '';
    if (typeof value !== 'string' || (required && value === ''))
      problems.push({ path, message: 'required: a non-empty string' });
    else if (value.length > max) problems.push({ path, message: `longer than ${max} characters` });
    else return value;
    return '';
  };
  const kind = text(isObject(object) ? object.kind : undefined, '/involvedObject/kind', true, MAX_NAME);
  const name = text(isObject(object) ? object.name : undefined, '/involvedObject/name', true, MAX_NAME);
  const namespace = text(isObject(object) ? object.namespace : undefined, '/involvedObject/namespace', false, MAX_NAME);
  const severity = body.severity;
  if (!SEVERITIES.includes(severity as Severity))
    problems.push({ path: '/severity', message: 'required: one of info, error, trace' });
  const timestamp = text(body.timestamp, '/timestamp', true, 64);
  const reason = text(body.reason, '/reason', false, MAX_NAME);
  const message = text(body.message, '/message', false);
  const reportingController = text(body.reportingController, '/reportingController', false, MAX_NAME);
  const metadata = metadataOf(body.metadata, problems);
  if (problems.length > 0) return { ok: false, problems };
  const event: FluxEvent = {
    kind,
    name,
    namespace,
    severity: severity as Severity,
    timestamp,
    reason,
    message: message.length > KEPT_MESSAGE_CHARS ? `${message.slice(0, KEPT_MESSAGE_CHARS)}…` : message,
    reportingController,
    metadata,
  };
  return { ok: true, event };
}

function metadataOf(value: unknown, problems: EventProblem[]): FluxEvent['metadata'] {
  if (value === undefined || value === null) return {};
  if (!isObject(value)) {
    problems.push({ path: '/metadata', message: 'an object of strings' });
    return {};
  }
  const kept: FluxEvent['metadata'] = {};
  for (const [key, entry] of Object.entries(value)) {
    if (typeof entry !== 'string') {
      problems.push({ path: `/metadata/${key}`, message: 'metadata values are strings' });
      continue;
    }
    if ((KEPT_METADATA as readonly string[]).includes(key))
      kept[key as (typeof KEPT_METADATA)[number]] = entry.slice(0, MAX_NAME);
  }
  if (kept.cluster !== undefined && !isValidId(kept.cluster)) {
    problems.push({ path: '/metadata/cluster', message: `"${kept.cluster.slice(0, 64)}" is not a cluster id` });
  }
  return kept;
}

/**
 * The same text for the same event sent twice (a retried delivery, an event Flux emitted
 * again): every field it was sent with but the time it was received.
 */
export function eventKey(event: FluxEvent): string {
  const m = event.metadata;
  return [
    event.kind,
    event.namespace,
    event.name,
    event.severity,
    event.timestamp,
    event.reason,
    event.reportingController,
    m.cluster ?? '',
    m.revision ?? '',
    m.rollout ?? '',
    event.message,
  ].join('\u0000');
}

/** About what a kept event costs in memory: its strings (two bytes a character) and the object around them. */
export function eventBytes(event: FluxEvent): number {
  const m = event.metadata;
  const chars =
    event.kind.length +
    event.name.length +
    event.namespace.length +
    event.timestamp.length +
    event.reason.length +
    event.message.length +
    event.reportingController.length +
    (m.cluster?.length ?? 0) +
    (m.revision?.length ?? 0) +
    (m.rollout?.length ?? 0);
  return 2 * chars + 256;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
