// The fleet listing (GET /api/v2/gitops/clusters) answers 422 past the consumer's limit; a
// revision whose unfiltered listing nears it is worth a warning, so that callers page it.
import { MAX_RESPONSE_BYTES } from '../projections/index.ts';
import { type Problem, problem } from '../problem.ts';
import type { Snapshot } from '../snapshot.ts';
import { analyzeFleet } from './fleet-analysis.ts';

/** The share of the limit at which the unfiltered fleet listing is worth a warning. */
export const FLEET_LIST_WARNING_SHARE = 0.8;

/** The bytes of the unfiltered fleet listing. */
export function fleetListBytes(snapshot: Snapshot): number {
  return analyzeFleet(snapshot).listBytes;
}

/** A warning when the unfiltered fleet listing nears the limit: callers should page it with ?shard=. */
export function fleetListProblems(snapshot: Snapshot): Problem[] {
  const bytes = fleetListBytes(snapshot);
  if (bytes < FLEET_LIST_WARNING_SHARE * MAX_RESPONSE_BYTES) return [];
  const share = Math.round((100 * bytes) / MAX_RESPONSE_BYTES);
  const over = bytes >= MAX_RESPONSE_BYTES;
  return [
    {
      ...problem(
        'fleet_list_large',
        { field: '' },
        `the unfiltered clusters listing is ${bytes} bytes, ${share}% of the 900 KiB ` +
          `limit${over ? ': it answers 422 response_too_large' : ''}; read it with ?shard=<i>/<n> or ?environment=`,
      ),
      severity: 'warning',
    },
  ];
}
