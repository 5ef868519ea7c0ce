// `gitops-config cluster-token <cluster id>`: the token a cluster reads its own configuration
// with, as the server checks it: signed with the first of CLUSTER_TOKEN_KEYS over the
// cluster's id and the credential_generation of its record in the working tree (the record
// the server will serve once the tree is merged). Only that one record file is read.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { clusterTokenKey, signClusterToken } from '../domain/cluster-token.ts';
import { ID_RULE, isValidId } from '../domain/ids.ts';
import type { Problem } from '../domain/problem.ts';
import type { Cluster } from '../domain/records.ts';
import { parseRecordFile } from '../domain/repo-layout/record-file-parse.ts';
import { locateProblems } from '../domain/repo-layout/problem-positions.ts';

export type ClusterTokenOutcome =
  { ok: true; token: string; generation: number } | { ok: false; message: string; problems: Problem[] };

/** Thrown for what the command line got wrong (exit 2). */
export class ClusterTokenUsage extends Error {}

export async function clusterToken(
  dir: string,
  clusterId: string,
  keys: readonly string[],
): Promise<ClusterTokenOutcome> {
  if (!isValidId(clusterId)) throw new ClusterTokenUsage(`"${clusterId}" is not a cluster id: an id is ${ID_RULE}`);
  if (keys.length === 0) {
    throw new ClusterTokenUsage(
      'CLUSTER_TOKEN_KEYS (or CLUSTER_TOKEN_KEYS_FILE) is not set: the token is signed with its first key, as the ' +
        'server has it',
    );
  }
  const paths = [`clusters/${clusterId}.yaml`, `clusters/${clusterId}.yml`].filter((path) =>
    existsSync(join(dir, path)),
  );
  if (paths.length === 0)
    return { ok: false, message: `no cluster "${clusterId}": ${dir} has no clusters/${clusterId}.yaml`, problems: [] };
  if (paths.length > 1)
    return {
      ok: false,
      message: `cluster "${clusterId}" is defined twice (${paths.join(', ')}); the server refuses such a revision`,
      problems: [],
    };
  const path = paths[0];
  const text = readFileSync(join(dir, path), 'utf8');
  const parsed = parseRecordFile(path, text)!;
  if (parsed.record === undefined) {
    const problems = locateProblems(parsed.problems, new Map([[path, text]]), { withoutText: 'first-line' });
    return { ok: false, message: `${path} is not a valid cluster record; the server would not serve it`, problems };
  }
  const generation = (parsed.record as Cluster).credential_generation;
  return { ok: true, token: signClusterToken(clusterTokenKey(keys[0]), clusterId, generation), generation };
}
