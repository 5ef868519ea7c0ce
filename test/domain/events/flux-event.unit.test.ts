// A Flux event's body parsed (domain/events/flux-event.ts): the fields of fluxcd/pkg's `Event`
// as notification-controller marshals them (helpers/flux-events.ts builds them that way), the
// metadata keys the rollouts read kept, a long message cut, and every problem named by its path.
import { describe, expect, it } from 'vitest';
import { eventKey, KEPT_MESSAGE_CHARS, parseFluxEvent } from '../../../src/domain/events/flux-event.ts';
import { helmEventBody } from '../../helpers/flux-events.ts';

const body = (fields: Record<string, unknown> = {}) => ({
  ...JSON.parse(helmEventBody({ name: 'podinfo', reason: 'UpgradeSucceeded', revision: '6.7.2', cluster: 'c1' })),
  ...fields,
});

describe('parseFluxEvent', () => {
  it('reads the event notification-controller sends, keeping the metadata the rollouts read', () => {
    const parsed = parseFluxEvent({
      ...body(),
      metadata: { cluster: 'c1', revision: '6.7.2', app_version: '6.7.2', summary: 'x' },
    });
    expect(parsed).toEqual({
      ok: true,
      event: {
        kind: 'HelmRelease',
        name: 'podinfo',
        namespace: 'flux-system',
        severity: 'info',
        timestamp: body().timestamp,
        reason: 'UpgradeSucceeded',
        message: body().message,
        reportingController: 'helm-controller',
        metadata: { cluster: 'c1', revision: '6.7.2' },
      },
    });
  });

  it('cuts a long message (a failed Helm action appends its log) and takes an event without metadata', () => {
    const long = parseFluxEvent(body({ message: 'm'.repeat(39_000), metadata: undefined }));
    expect(long.ok && long.event.message.length).toBe(KEPT_MESSAGE_CHARS + 1);
    expect(long.ok && long.event.metadata).toEqual({});
  });

  it('names every problem by its path', () => {
    expect(parseFluxEvent([])).toEqual({
      ok: false,
      problems: [{ path: '', message: 'the body is not a JSON object (a Flux event)' }],
    });
    const bad = parseFluxEvent(
      body({
        involvedObject: { kind: 'HelmRelease' },
        severity: 'warning',
        metadata: { cluster: 'Not An Id!', revision: 3 },
      }),
    );
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems.map((p) => p.path)).toEqual([
      '/involvedObject/name',
      '/severity',
      '/metadata/revision',
      '/metadata/cluster',
    ]);
  });

  it('gives the same key to the same event sent twice, another to any other', () => {
    const a = parseFluxEvent(body());
    const b = parseFluxEvent(JSON.parse(JSON.stringify(body())));
    const c = parseFluxEvent(body({ timestamp: '2030-01-01T00:00:00Z' }));
    expect(a.ok && b.ok && eventKey(a.event) === eventKey(b.event)).toBe(true);
    expect(a.ok && c.ok && eventKey(a.event) !== eventKey(c.event)).toBe(true);
  });
});
