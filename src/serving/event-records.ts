// The events one replica keeps (./cluster-events.ts) in a compact form, for the rollouts of
// another (GET /peers/v1/events, like the poll records): one row per cluster,
// [clusterId, [receivedAt, kind, namespace, name, severity, timestamp, reason, message,
// reportingController, cluster, revision, rollout]...], a metadata key not sent as null.
import { type ReceivedEvent, SEVERITIES, type Severity } from '../domain/events/flux-event.ts';
import type { ClusterEvents, EventLookup } from './cluster-events.ts';

type EventRow = [
  number,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string,
  string | null,
  string | null,
  string | null,
];

export interface EventRecords {
  events: [string, EventRow[]][];
}

export function encodeEventRecords(events: ClusterEvents): EventRecords {
  const rows: [string, EventRow[]][] = [];
  for (const [clusterId, list] of events.entries()) {
    rows.push([
      clusterId,
      list.map((e) => [
        e.receivedAt,
        e.kind,
        e.namespace,
        e.name,
        e.severity,
        e.timestamp,
        e.reason,
        e.message,
        e.reportingController,
        e.metadata.cluster ?? null,
        e.metadata.revision ?? null,
        e.metadata.rollout ?? null,
      ]),
    ]);
  }
  return { events: rows };
}

/** Thrown for records that are not in the form above (a replica of another version, a proxy's page). */
export class MalformedEventRecords extends Error {}

/** The records as a lookup of each cluster's events. */
export function decodeEventRecords(value: unknown): EventLookup & { size: number } {
  const records = value as Partial<EventRecords> | null;
  if (typeof records !== 'object' || records === null || !Array.isArray(records.events))
    throw new MalformedEventRecords('not {events}');
  const byCluster = new Map<string, ReceivedEvent[]>();
  for (const entry of records.events as unknown[]) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) {
      throw new MalformedEventRecords('an entry is not [clusterId, events]');
    }
    byCluster.set(entry[0], (entry[1] as unknown[]).map(eventOf));
  }
  return { of: (id) => byCluster.get(id), size: byCluster.size };
}

function eventOf(row: unknown): ReceivedEvent {
  const r = row as unknown[];
  const texts =
    Array.isArray(r) &&
    r.length === 12 &&
    typeof r[0] === 'number' &&
    r.slice(1, 9).every((v) => typeof v === 'string');
  const optional = texts && r.slice(9).every((v) => v === null || typeof v === 'string');
  if (!optional || !SEVERITIES.includes(r[4] as Severity))
    throw new MalformedEventRecords('an event is not a row of its fields');
  const [
    receivedAt,
    kind,
    namespace,
    name,
    severity,
    timestamp,
    reason,
    message,
    reportingController,
    cluster,
    revision,
    rollout,
  ] = r as EventRow;
  const metadata: ReceivedEvent['metadata'] = {};
  if (cluster !== null) metadata.cluster = cluster;
  if (revision !== null) metadata.revision = revision;
  if (rollout !== null) metadata.rollout = rollout;
  return {
    receivedAt,
    kind,
    namespace,
    name,
    severity: severity as Severity,
    timestamp,
    reason,
    message,
    reportingController,
    metadata,
  };
}
