// What one replica remembers of a rollout's members between evaluations: a member is `fetched`
// since the first poll seen holding its release, not since its latest poll.
import { describe, expect, it } from 'vitest';
import { ClusterPolls } from '../../../src/serving/fleet-polls.ts';
import { ReleaseEvidence } from '../../../src/serving/rollouts/release-evidence.ts';

function polled(at: number, etag: string): ClusterPolls {
  const polls = new ClusterPolls();
  polls.at['platform-components'] = at;
  polls.etag['platform-components'] = etag;
  return polls;
}

describe('release evidence', () => {
  it('keeps the time a member first held its release while it goes on polling the same answer', () => {
    const evidence = new ReleaseEvidence();
    expect(evidence.facts('dev-eu-1', polled(1_000, '"old"'), '"new"')?.fetchedAt).toBeNull();
    expect(evidence.facts('dev-eu-1', polled(2_000, '"new"'), '"new"')?.fetchedAt).toBe(2_000);
    expect(evidence.facts('dev-eu-1', polled(3_000, '"new"'), '"new"')).toMatchObject({
      lastPollAt: 3_000,
      fetchedAt: 2_000,
    });
  });

  it('starts over once the member is seen without its release', () => {
    const evidence = new ReleaseEvidence();
    evidence.facts('dev-eu-1', polled(2_000, '"new"'), '"new"');
    expect(evidence.facts('dev-eu-1', polled(3_000, '"other"'), '"new"')?.fetchedAt).toBeNull();
    expect(evidence.facts('dev-eu-1', polled(4_000, '"new"'), '"new"')?.fetchedAt).toBe(4_000);
  });
});
