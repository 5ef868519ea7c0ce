// A rollout as a person builds it before it is a record: proposed from a catalog entry and the
// clusters using it — a canary step of one cluster, then one wave per environment in the order
// dev → qa → uat → prod — edited in the wave builder, checked field by field, and made into the
// record the change set creates. Which clusters end up in which step is the service's to say
// (the preview lists them); the counts here are only a guide while building. Pure: no DOM, no
// requests.
import type { ClusterRecord, PlatformComponentRecord, RolloutRecord, RolloutWaveRecord } from '../api/types.ts';

export type Environment = NonNullable<RolloutWaveRecord['environments']>[number];

const ENVIRONMENT_ORDER = { dev: 0, qa: 1, uat: 2, prod: 3 } satisfies Record<Environment, number>;
/** The environments in the order a change goes through them. */
export const ENVIRONMENTS = Object.keys(ENVIRONMENT_ORDER) as Environment[];

export interface DraftWave {
  name: string;
  /** The canary wave names its one cluster; the others select environments. */
  clusters: string[];
  environments: Environment[];
  /** A number, a percentage ("25%"), or empty: the whole wave in one step. */
  batch: string;
  /** A Go duration. */
  soak: string;
  approval: boolean;
}

export interface RolloutDraft {
  id: string;
  /** The new values, the catalog's to begin with. */
  version: string;
  tag: string;
  waves: DraftWave[];
  failureBudget: string;
  progressDeadline: string;
  /** Created with nothing released and paused; otherwise the commit releases step 1 (the canary) itself. */
  startPaused: boolean;
}

/** A cluster using the component: what the builder needs of it. */
export interface Member {
  id: string;
  environment: Environment;
}

/** The clusters using `component`, sorted by id (the order the service cuts steps in). */
export function membersOf(clusters: readonly ClusterRecord[], component: string): Member[] {
  return clusters
    .filter((c) => c.platform_components.some((ref) => ref.id === component))
    .map((c) => ({ id: c.id, environment: c.environment }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A rollout id from the component and the version: only the characters an id may hold. */
export function proposedId(component: string, version: string): string {
  const text = `${component}-${version}`
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, '');
  return text.slice(0, 250).replace(/[^A-Za-z0-9]+$/, '');
}

/**
 * The proposal: the canary (the first cluster of the earliest environment), then each
 * environment the members are in, in order; a person approves before the later environments
 * (uat, prod), and prod goes a quarter of its clusters at a time.
 */
export function proposeDraft(entry: PlatformComponentRecord, members: readonly Member[]): RolloutDraft {
  const present = ENVIRONMENTS.filter((env) => members.some((m) => m.environment === env));
  const canary = present.length > 0 ? members.find((m) => m.environment === present[0]) : undefined;
  const waves: DraftWave[] = [];
  if (canary) waves.push({ ...wave('canary'), clusters: [canary.id], soak: '30m' });
  for (const env of present) {
    // The canary may have been the environment's one cluster: a wave left with none is not proposed.
    if (!members.some((m) => m.environment === env && m.id !== canary?.id)) continue;
    waves.push({
      ...wave(env),
      environments: [env],
      soak: env === 'prod' ? '30m' : '1h',
      approval: env === 'uat' || env === 'prod',
      batch: env === 'prod' ? '25%' : '',
    });
  }
  return {
    id: proposedId(entry.id, entry.component_version),
    version: entry.component_version,
    tag: entry.oci_tag,
    waves,
    failureBudget: '0',
    progressDeadline: '1h',
    startPaused: false,
  };
}

function wave(name: string): DraftWave {
  return { name, clusters: [], environments: [], batch: '', soak: '0s', approval: false };
}

/** The wave with the environments of the wave after it: one wave of both, the later one gone. */
export function mergeWaves(waves: readonly DraftWave[], into: number): DraftWave[] {
  const [a, b] = [waves[into], waves[into + 1]];
  if (!a || !b) return [...waves];
  const merged: DraftWave = {
    ...a,
    clusters: [...new Set([...a.clusters, ...b.clusters])],
    environments: ENVIRONMENTS.filter((env) => a.environments.includes(env) || b.environments.includes(env)),
  };
  return [...waves.slice(0, into), merged, ...waves.slice(into + 2)];
}

/** How many of the members each wave selects (minus those of earlier waves), and how many no wave does. */
export function waveSizes(waves: readonly DraftWave[], members: readonly Member[]): { sizes: number[]; left: number } {
  const sizes = waves.map(() => 0);
  let left = 0;
  for (const m of members) {
    const k = waves.findIndex((w) => w.clusters.includes(m.id) || w.environments.includes(m.environment));
    if (k === -1) left++;
    else sizes[k]++;
  }
  return { sizes, left };
}

/** A field of the draft that is not right, in words, with the label of the field it is in. */
export interface DraftProblem {
  field: string;
  message: string;
}

const ID = /^[A-Za-z0-9]([A-Za-z0-9._-]{0,248}[A-Za-z0-9])?$/;
const DURATION = /^[+]?(0|(([0-9]+([.][0-9]*)?|[.][0-9]+)(ns|us|µs|μs|ms|s|m|h))+)$/;
const BATCH = /^([1-9][0-9]*|(100|[1-9][0-9]?)%)$/;

/** The labels of the builder's fields, which its problems name and a test finds them by. */
export const FIELD = {
  id: 'Rollout id',
  version: 'New version',
  tag: 'New tag',
  failureBudget: 'Failure budget',
  progressDeadline: 'Progress deadline',
  waveName: (n: number) => `Wave ${n} name`,
  batch: (n: number) => `Wave ${n} batch`,
  soak: (n: number) => `Wave ${n} soak`,
  canary: 'Canary cluster',
};

/** What keeps the draft from being a record the service would take; none when it is one. */
export function draftProblems(draft: RolloutDraft, entry: PlatformComponentRecord): DraftProblem[] {
  const problems: DraftProblem[] = [];
  const add = (field: string, message: string) => problems.push({ field, message });
  if (!ID.test(draft.id))
    add(FIELD.id, 'letters, digits, ".", "_" and "-", beginning and ending with a letter or digit');
  if (!draft.version.trim()) add(FIELD.version, 'a version is needed');
  if (!draft.tag.trim()) add(FIELD.tag, 'a tag is needed');
  if (draft.version.trim() === entry.component_version && draft.tag.trim() === entry.oci_tag)
    add(
      FIELD.version,
      `the catalog has ${entry.component_version} (tag ${entry.oci_tag}) already: nothing to roll out`,
    );
  if (!/^(0|[1-9][0-9]*)$/.test(draft.failureBudget.trim())) add(FIELD.failureBudget, 'a whole number, 0 or more');
  if (!DURATION.test(draft.progressDeadline.trim())) add(FIELD.progressDeadline, 'a duration such as 30m, 1h or 1h30m');
  if (draft.waves.length === 0) add('Waves', 'at least one wave');
  const names = new Set<string>();
  draft.waves.forEach((w, i) => {
    const name = w.name.trim();
    if (!ID.test(name)) add(FIELD.waveName(i + 1), 'letters, digits, ".", "_" and "-"');
    else if (names.has(name)) add(FIELD.waveName(i + 1), `another wave is named ${name}`);
    names.add(name);
    if (w.batch.trim() && !BATCH.test(w.batch.trim())) add(FIELD.batch(i + 1), 'a number of clusters or a percentage');
    if (!DURATION.test(w.soak.trim())) add(FIELD.soak(i + 1), 'a duration such as 0s, 30m or 2h');
  });
  return problems;
}

/** The record the change set creates: `set` holds the fields that differ from the catalog's. */
export function draftRecord(draft: RolloutDraft, entry: PlatformComponentRecord): RolloutRecord {
  const set: RolloutRecord['set'] = {};
  if (draft.version.trim() !== entry.component_version) set.component_version = draft.version.trim();
  if (draft.tag.trim() !== entry.oci_tag) set.oci_tag = draft.tag.trim();
  return {
    id: draft.id,
    component: entry.id,
    set,
    waves: draft.waves.map((w) => ({
      name: w.name.trim(),
      clusters: [...w.clusters],
      environments: [...w.environments],
      batch: batchValue(w.batch.trim()),
      soak: w.soak.trim(),
      approval: w.approval,
    })),
    failure_budget: Number(draft.failureBudget.trim()),
    progress_deadline: draft.progressDeadline.trim(),
    require_reports: false,
    released: draft.startPaused ? 0 : 1,
    paused: draft.startPaused,
    approved: [],
  };
}

function batchValue(text: string): number | string | null {
  if (text === '') return null;
  return text.endsWith('%') ? text : Number(text);
}
