// What a cluster reported of a rollout's release, from the events it sent (../events/): pure,
// events in, a report out. Flux's helm-controller sends, for a HelmRelease, `InstallSucceeded`
// or `UpgradeSucceeded` (severity info) when a release went in, and its failures with severity
// error; each carries the chart version as `metadata.revision`.
//
// For a member of a released step, only events of the HelmRelease named after the component
// (ROLLOUT_RELEASE_NAME) received since its step was released count:
//   succeeded  InstallSucceeded / UpgradeSucceeded whose `revision` is the rollout's set.oci_tag
//              (else set.component_version), or whose `rollout` is the rollout's id
//   failed     severity error, unless it names another release (a `rollout` of another id, or a
//              `revision` other than the rollout's without a `rollout` of this one)
// The last event that counts wins: a failed upgrade that Helm's remediation retried and that
// then succeeded is `succeeded`. An event received before the step was released, one for an
// earlier release, and one of another object change nothing; no event is no report, never
// success.
import type { ReceivedEvent } from '../events/flux-event.ts';
import type { ClusterReport } from './cluster-progress.ts';
import type { Rollout } from './rollout-record.ts';

/** The reasons helm-controller gives a release that went in. */
export const SUCCESS_REASONS: readonly string[] = ['InstallSucceeded', 'UpgradeSucceeded'];
/** The kind of object whose events report a release. */
export const RELEASE_KIND = 'HelmRelease';
/** ROLLOUT_RELEASE_NAME's default, and the word in it that stands for the component's id. */
export const COMPONENT_PLACEHOLDER = '{component}';

/** What the events of one member are judged against. */
export interface ReportTarget {
  rolloutId: string;
  /** The HelmRelease's name. */
  releaseName: string;
  /** The chart version the release installs; undefined when the set changes neither oci_tag nor component_version. */
  revision: string | undefined;
  /** When the member's step was released (ms since the epoch): nothing received before it counts. */
  releasedAt: number;
}

/** The HelmRelease name of a component under ROLLOUT_RELEASE_NAME (`{component}` stands for its id). */
export function releaseName(pattern: string, component: string): string {
  return pattern.split(COMPONENT_PLACEHOLDER).join(component);
}

/** The target of a rollout's members released at `releasedAt`. */
export function reportTarget(rollout: Rollout, namePattern: string, releasedAt: number): ReportTarget {
  return {
    rolloutId: rollout.id,
    releaseName: releaseName(namePattern, rollout.component),
    revision: rollout.set.oci_tag ?? rollout.set.component_version,
    releasedAt,
  };
}

/** The report the events make, or null when none of them counts. `events` in the order received. */
export function releaseReport(
  events: readonly ReceivedEvent[] | undefined,
  target: ReportTarget,
): ClusterReport | null {
  if (events === undefined) return null;
  let report: ClusterReport | null = null;
  for (const event of events) {
    const counted = countedAs(event, target);
    if (counted === undefined) continue;
    if (report === null || event.receivedAt >= report.at)
      report = { state: counted, at: event.receivedAt, message: event.message };
  }
  return report;
}

function countedAs(event: ReceivedEvent, target: ReportTarget): ClusterReport['state'] | undefined {
  if (event.kind !== RELEASE_KIND || event.name !== target.releaseName || event.receivedAt < target.releasedAt)
    return undefined;
  const { rollout, revision } = event.metadata;
  const ours = rollout === target.rolloutId || (revision !== undefined && revision === target.revision);
  if (SUCCESS_REASONS.includes(event.reason) && event.severity === 'info') return ours ? 'succeeded' : undefined;
  if (event.severity !== 'error') return undefined;
  const another = (rollout !== undefined && rollout !== target.rolloutId) || (!ours && revision !== undefined);
  return another ? undefined : 'failed';
}
