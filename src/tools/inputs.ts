// `gitops-config inputs <repo-dir> <cluster_dns> [endpoint]`: the exact body the server would
// send for a working tree. It loads the directory with the server's own git store
// (LocalRepoStore.loadWorkingTree) and answers through the server's ResponseCache, so the
// bytes cannot differ from a real response.
import { formatProblem, type Problem } from '../domain/problems.ts';
import { isPerClusterEndpoint, PER_CLUSTER_ENDPOINTS } from '../domain/read-endpoints.ts';
import { createLogger } from '../logger.ts';
import type { PreparedResponse } from '../serving/prepared-response.ts';
import { SnapshotPublisher } from '../serving/publisher.ts';
import { ResponseCache } from '../serving/response-cache.ts';
import { LocalRepoStore } from '../store/git/local-repo-store.ts';

export const ENDPOINTS = [...Object.keys(PER_CLUSTER_ENDPOINTS), 'clusters'] as const;

export type InputsOutcome =
  | { ok: true; body: Buffer; revision: string }
  | { ok: false; status: 'invalid'; message: string; problems: Problem[] }
  | { ok: false; status: 'not_found' | 'oversized'; message: string };

/** What GET /api/v2/gitops/clusters/{dns}/{endpoint} (or /clusters) would answer for this directory. */
export async function previewInputs(dir: string, endpoint: string, clusterDns: string | undefined): Promise<InputsOutcome> {
  const store = new LocalRepoStore({ dir, publisher: new SnapshotPublisher(), log: createLogger('silent'), watch: false });
  const loaded = await store.loadWorkingTree();
  if (!loaded.ok) {
    return {
      ok: false,
      status: 'invalid',
      message: `the server would refuse this revision (${loaded.error}) and keep serving the previous one`,
      problems: loaded.problems,
    };
  }
  const cache = new ResponseCache(loaded.snapshot);
  let prepared: PreparedResponse | undefined;
  if (endpoint === 'clusters') {
    prepared = cache.clustersList();
  } else if (isPerClusterEndpoint(endpoint) && clusterDns !== undefined) {
    prepared = cache.forCluster(endpoint, clusterDns);
    if (!prepared) return { ok: false, status: 'not_found', message: `no cluster has cluster_dns "${clusterDns}" (the server answers 404)` };
  } else {
    throw new Error(`unknown endpoint ${endpoint}`);
  }
  if (prepared.kind === 'oversized') {
    return {
      ok: false,
      status: 'oversized',
      message: `the response would be ${prepared.bytes} bytes, over the consumer's limit of 921600 bytes (900 KiB); the server refuses it with a 500`,
    };
  }
  return { ok: true, body: prepared.body, revision: loaded.snapshot.revision };
}

export function describeProblems(problems: Problem[]): string[] {
  return problems.map(formatProblem);
}
