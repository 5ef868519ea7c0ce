// `gitops-config inputs <repo-dir> <cluster_dns> [endpoint]`: the exact body the server would
// send for a working tree. It loads the directory with the server's own loader, judges it
// with the server's rules and answers through the server's ResponseTable, so the bytes
// cannot differ from a real response.
import { judge } from '../domain/judge.ts';
import type { Problem } from '../domain/problem.ts';
import { isPerClusterEndpoint, PER_CLUSTER_ENDPOINTS } from '../domain/projections/index.ts';
import type { ServedResponse } from '../serving/served-response.ts';
import { ResponseTable } from '../serving/response-table.ts';
import { workingTreeRevision } from '../store/git/repository.ts';
import { checkedGitDirectory } from '../store/git/repository-format.ts';
import { RecordFileLoader } from '../store/record-files/record-file-loader.ts';
import { readWorkingTree } from '../store/record-files/working-tree.ts';
import { locateInFiles, revisionReport } from './revision-report.ts';

export const ENDPOINTS = [...Object.keys(PER_CLUSTER_ENDPOINTS), 'clusters'] as const;

export type InputsOutcome =
  | { ok: true; body: Buffer; revision: string }
  | { ok: false; status: 'invalid'; message: string; problems: Problem[] }
  | { ok: false; status: 'not_found' | 'oversized'; message: string };

/** What GET /api/v2/gitops/clusters/{dns}/{endpoint} (or /clusters) would answer for this directory. */
export async function previewInputs(
  dir: string,
  endpoint: string,
  clusterDns: string | undefined,
): Promise<InputsOutcome> {
  const files = await readWorkingTree(dir);
  // The revision id comes from Git when the folder is a repository's top: one in a form not
  // read here is refused (UnsupportedRepositoryForm) rather than misread.
  checkedGitDirectory(dir);
  const loaded = await revisionReport(new RecordFileLoader(), files, await workingTreeRevision(dir, files, {}));
  const judgement = judge({ snapshot: loaded.snapshot, problems: loaded.loadProblems }, undefined);
  if (!judgement.publish) {
    return {
      ok: false,
      status: 'invalid',
      message:
        `the server would refuse this revision (${judgement.blocking.length} problem(s)) and keep serving the ` +
        `previous one`,
      problems: await locateInFiles(judgement.blocking, files),
    };
  }
  const responses = new ResponseTable(loaded.snapshot);
  let prepared: ServedResponse | undefined;
  if (endpoint === 'clusters') {
    prepared = responses.clustersList();
  } else if (isPerClusterEndpoint(endpoint) && clusterDns !== undefined) {
    prepared = responses.forCluster(endpoint, clusterDns);
    if (!prepared)
      return {
        ok: false,
        status: 'not_found',
        message: `no cluster has cluster_dns "${clusterDns}" (the server answers 404)`,
      };
  } else {
    throw new Error(`unknown endpoint ${endpoint}`);
  }
  if (prepared.kind === 'oversized') {
    return {
      ok: false,
      status: 'oversized',
      message:
        `the response would be ${prepared.bytes} bytes, over the consumer's limit of 921600 bytes (900 KiB); ` +
        `the server refuses it with a 500`,
    };
  }
  return { ok: true, body: prepared.body, revision: loaded.snapshot.revision };
}
