// The rollout the rollout benchmark serves (scripts/bench-rollout.ts): one catalog entry that
// every generated cluster uses (scripts/generate-repo.ts gives each cluster components 0 to 24),
// taken to the whole fleet in one wave of ten steps, so that at 50,000 clusters a step is the
// 5,000 clusters of a release commit. The generator's ids are zero-padded, so the plan's order
// (by id) is the order of the clusters' numbers and a step is a run of consecutive numbers.

export const ROLLOUT_ID = 'bench-rollout';
export const ROLLOUT_COMPONENT = 'component-1';
/** What the released clusters get: the generator's entry has 1.1.0 for both. */
export const ROLLOUT_SET = { component_version: '2.0.0', oci_tag: '2.0.0' } as const;
export const STEPS = 10;
/** How the reads ask: for gzip, as the fleet's agents do, then plain. */
export const ENCODINGS = ['gzip', 'plain'] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** The file of the rollout in the config repo. */
export const ROLLOUT_FILE = `rollouts/${ROLLOUT_ID}.yaml`;

/** Clusters per step: a tenth of the fleet, rounded up. */
export function stepSize(clusters: number): number {
  return Math.ceil(clusters / STEPS);
}

/** The numbers of the clusters of step `step` (from 1): [first, end). */
export function stepRange(step: number, clusters: number): { first: number; end: number } {
  const size = stepSize(clusters);
  return { first: Math.min((step - 1) * size, clusters), end: Math.min(step * size, clusters) };
}

/** The number of steps the plan has for a fleet of `clusters`. */
export function stepCount(clusters: number): number {
  return Math.ceil(clusters / stepSize(clusters));
}

/**
 * The rollout record with `released` steps released, as a person would write it. A deadline of
 * a day and a budget of every cluster: nothing halts it while the benchmark runs.
 */
export function rolloutYaml(clusters: number, released: number): string {
  return [
    `# ${ROLLOUT_COMPONENT} ${ROLLOUT_SET.oci_tag} to the whole fleet, ${stepSize(clusters)} clusters a step`,
    `component: ${ROLLOUT_COMPONENT}`,
    'set:',
    ...Object.entries(ROLLOUT_SET).map(([field, value]) => `  ${field}: "${value}"`),
    'waves:',
    '  - name: fleet',
    '    environments: [dev, qa, uat, prod]',
    `    batch: ${stepSize(clusters)}`,
    `failure_budget: ${clusters}`,
    'progress_deadline: 24h',
    `released: ${released}`,
    '',
  ].join('\n');
}
