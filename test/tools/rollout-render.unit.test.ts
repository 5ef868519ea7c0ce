// `gitops-config rollout status` (src/tools/rollout-render.ts) shows what a cluster reported:
// a failed cluster with its message, in text and in Markdown, as the API's status carries it.
import { describe, expect, it } from 'vitest';
import type { RolloutDetail } from '../../src/domain/rollouts/rollout-shapes.ts';
import { renderRolloutDetail } from '../../src/tools/rollout-render.ts';

const FAILURE = 'Helm upgrade failed for release flux-system/kube-prometheus-stack: context deadline exceeded';
const detail: RolloutDetail = {
  id: 'kps-67-5',
  component: 'kube-prometheus-stack',
  set: { component_version: '67.5.0', oci_tag: '67.5.0' },
  state: 'halted',
  reason: `step 1 has 1 cluster failed or offline, more than the failure budget of 0: qa-eu-1 (failed: ${FAILURE})`,
  released: 1,
  clusters: { pending: 0, released: 0, fetched: 0, succeeded: 1, failed: 1, offline: 0, pinned: 0 },
  steps: [
    {
      step: 1,
      wave: 'canary',
      released_in: 'abc123',
      released_at: '2026-01-01T00:00:00.000Z',
      done_at: null,
      soak_ends_at: null,
      clusters: [
        { id: 'dev-eu-1', state: 'succeeded', since: '2026-01-01T00:01:00.000Z' },
        { id: 'qa-eu-1', state: 'failed', since: '2026-01-01T00:02:00.000Z', message: FAILURE },
      ],
    },
  ],
};

describe('rollout status', () => {
  it('names each failed cluster with its message, in text and in Markdown', () => {
    const text = renderRolloutDetail(detail, 'text');
    expect(text).toContain(`halted: ${detail.reason}`);
    expect(text).toContain(`  failed    qa-eu-1 (${FAILURE})`);
    expect(text).toContain('  succeeded dev-eu-1');
    expect(renderRolloutDetail(detail, 'markdown')).toContain(`qa-eu-1 (${FAILURE})`);
  });
});
