// The text of a record file as the service writes it (crud mode with the Git backend): the
// record's fields in the one canonical key order, the id kept in the file, per-cluster
// overrides left out while they are null (as a person would write the file), and the
// file's leading comment block kept, so that a diff of a REST write looks like a hand edit.
import { dump } from 'js-yaml';
import type { AnyRecord, Cluster, Collection, Rollout } from '../records.ts';

/** A record in the form it is written to its file. Reading the file back gives the same record. */
export function fileForm(collection: Collection, record: AnyRecord): object {
  if (collection === 'rollouts') return rolloutFileForm(record as Rollout);
  if (collection !== 'clusters') return record;
  const cluster = record as Cluster;
  const form: Record<string, unknown> = { ...cluster };
  // Left out at its default, as a person writes a new cluster's file; in its canonical place otherwise.
  if (cluster.credential_generation === 0) delete form.credential_generation;
  if (cluster.receiver_url === null) delete form.receiver_url;
  return {
    ...form,
    platform_components: cluster.platform_components.map((ref) => {
      const out: Record<string, unknown> = { id: ref.id, enabled: ref.enabled };
      if (ref.oci_tag != null) out.oci_tag = ref.oci_tag;
      if (ref.component_path != null) out.component_path = ref.component_path;
      return out;
    }),
  };
}

/**
 * A rollout's waves say what selects them and what differs from the defaults: a wave of one
 * environment is one line and its name, as a person writes it. Every top-level field stays,
 * `released` and `paused` above all, which a reviewer looks for.
 */
function rolloutFileForm(rollout: Rollout): object {
  const waves = rollout.waves.map((wave) => {
    const form: Record<string, unknown> = { name: wave.name };
    if (wave.clusters.length > 0) form.clusters = wave.clusters;
    if (wave.environments.length > 0) form.environments = wave.environments;
    if (wave.batch !== null) form.batch = wave.batch;
    if (wave.soak !== '0s') form.soak = wave.soak;
    if (wave.approval) form.approval = true;
    return form;
  });
  return { ...rollout, waves };
}

/** Fields that map keys to strings; their values are always written quoted, so they stay strings. */
const STRING_MAPS = new Set(['patches', 'labels', 'annotations']);

/**
 * The YAML text of a record file; `header` is a block of `#` comment lines put first. The
 * values of `patches`, `labels` and `annotations` are always double-quoted ("3", "true"
 * stay strings when someone edits them by hand later).
 */
export function recordFileText(collection: Collection, record: AnyRecord, header = ''): string {
  const form = fileForm(collection, record) as Record<string, unknown>;
  const options = { lineWidth: -1, noRefs: true, quoteStyle: 'double' } as const;
  // The string maps are the last fields of every record kind, so the two halves are one
  // mapping in the canonical key order.
  const keys = Object.keys(form);
  const split = keys.findIndex((key) => STRING_MAPS.has(key));
  const plain = split === -1 ? keys : keys.slice(0, split);
  const maps = split === -1 ? [] : keys.slice(split);
  if (maps.some((key) => !STRING_MAPS.has(key)))
    throw new Error(`recordFileText: unexpected field order in ${collection}`);
  const pick = (names: string[]) => Object.fromEntries(names.map((name) => [name, form[name]]));
  const head = dump(pick(plain), options);
  const tail = maps.length > 0 ? dump(pick(maps), { ...options, forceQuotes: true }) : '';
  return header + head + tail;
}

/** The comment lines at the very top of a file (a schema hint, a note to editors), or ''. */
export function leadingComments(text: string): string {
  const match = /^(?:#[^\n]*(?:\n|$))+/.exec(text);
  if (!match) return '';
  return match[0].endsWith('\n') ? match[0] : `${match[0]}\n`;
}

/** The `# yaml-language-server: $schema=...` line of a file, if it starts with one. */
export function schemaHintLine(text: string): string {
  const first = /^[^\n]*/.exec(text)![0];
  return /^#\s*yaml-language-server:\s*\$schema=\S+/.test(first) ? `${first}\n` : '';
}
