// What a member's events report of its rollout's release (domain/rollouts/release-reports.ts).
// The events are those helm-controller emits as notification-controller forwards them (see
// helpers/flux-events.ts for the sources): InstallSucceeded / UpgradeSucceeded at severity info
// and failures at severity error, each with the chart version as metadata.revision.
import { describe, expect, it } from 'vitest';
import type { ReceivedEvent } from '../../../src/domain/events/flux-event.ts';
import { releaseName, releaseReport, reportTarget } from '../../../src/domain/rollouts/release-reports.ts';
import { rollout } from '../../fixtures/rollout-fleet.ts';

const RELEASED = 1_000_000;
const r = rollout({ waves: [{ name: 'canary', clusters: ['dev-eu-1'] }], released: 1, require_reports: true });
const target = reportTarget(r, '{component}', RELEASED);

function event(fields: Partial<ReceivedEvent> & { revision?: string; rollout?: string }): ReceivedEvent {
  const { revision = '67.5.0', rollout: id, ...rest } = fields;
  const failed = /Failed$/.test(rest.reason ?? '');
  return {
    kind: 'HelmRelease',
    name: 'kube-prometheus-stack',
    namespace: 'flux-system',
    severity: failed ? 'error' : 'info',
    timestamp: '2026-01-01T00:00:00Z',
    reason: 'UpgradeSucceeded',
    message: `${rest.reason ?? 'UpgradeSucceeded'}`,
    reportingController: 'helm-controller',
    receivedAt: RELEASED + 1000,
    metadata: {
      cluster: 'dev-eu-1',
      ...(revision === '' ? {} : { revision }),
      ...(id === undefined ? {} : { rollout: id }),
    },
    ...rest,
  };
}

describe('releaseReport', () => {
  it('no event is no report, never success', () => {
    expect(releaseReport(undefined, target)).toBeNull();
    expect(releaseReport([], target)).toBeNull();
  });

  it("InstallSucceeded or UpgradeSucceeded of the set's oci_tag, or naming the rollout, is success", () => {
    expect(releaseReport([event({})], target)).toMatchObject({ state: 'succeeded', at: RELEASED + 1000 });
    expect(releaseReport([event({ reason: 'InstallSucceeded' })], target)?.state).toBe('succeeded');
    expect(releaseReport([event({ revision: '2.0.0-chart', rollout: 'kps-67-5' })], target)?.state).toBe('succeeded');
  });

  it('a failure of severity error is failed, with its message', () => {
    const failed = event({
      reason: 'UpgradeFailed',
      message: 'Helm upgrade failed: timed out waiting for the condition',
    });
    expect(releaseReport([failed], target)).toEqual({ state: 'failed', at: RELEASED + 1000, message: failed.message });
    // helm-controller may send an error without the revision: after the release it counts.
    expect(releaseReport([event({ reason: 'UpgradeFailed', revision: '' })], target)?.state).toBe('failed');
  });

  it('an event before the release, of an earlier release, of another object, or no report changes nothing', () => {
    const ignored = [
      event({ receivedAt: RELEASED - 1 }),
      event({ reason: 'UpgradeFailed', receivedAt: RELEASED - 1 }),
      event({ revision: '67.4.0' }),
      event({ reason: 'UpgradeFailed', revision: '67.4.0' }),
      event({ reason: 'UpgradeFailed', rollout: 'another-rollout' }),
      event({ name: 'cert-manager' }),
      event({ kind: 'Kustomization' }),
      event({ reason: 'DependencyNotReady' }),
      event({ reason: 'UpgradeSucceeded', severity: 'trace' }),
    ];
    expect(releaseReport(ignored, target)).toBeNull();
  });

  it('the last event that counts wins: a failure Helm remediated, then a success, is success', () => {
    const failed = event({ reason: 'UpgradeFailed', receivedAt: RELEASED + 10 });
    const succeeded = event({ receivedAt: RELEASED + 20 });
    expect(releaseReport([failed, succeeded], target)?.state).toBe('succeeded');
    expect(
      releaseReport([succeeded, event({ reason: 'UpgradeFailed', receivedAt: RELEASED + 30 })], target)?.state,
    ).toBe('failed');
  });

  it("reads the set's component_version without an oci_tag, and the HelmRelease name from ROLLOUT_RELEASE_NAME", () => {
    const versionOnly = rollout({
      set: { component_version: '67.5.0' },
      waves: [{ name: 'canary', clusters: ['dev-eu-1'] }],
    });
    const named = reportTarget(versionOnly, 'platform-{component}', RELEASED);
    expect(named).toMatchObject({ releaseName: 'platform-kube-prometheus-stack', revision: '67.5.0' });
    expect(releaseReport([event({ name: 'platform-kube-prometheus-stack' })], named)?.state).toBe('succeeded');
    expect(releaseReport([event({})], named)).toBeNull();
    expect(releaseName('{component}', 'traefik')).toBe('traefik');
  });
});
