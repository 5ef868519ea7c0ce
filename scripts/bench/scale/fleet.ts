// A generated fleet of one size, and what every measurement of the scale benchmark needs
// to address it: the repo, the service's environment, the read paths of each cluster.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clusterDns, generateConfigRepo } from '../../generate-repo.ts';
import { pack } from '../git.ts';

export const READ_TOKEN = 'bench-scale-read-token';
export const WRITE_TOKEN = 'bench-scale-write-token';
export const AUTH = { authorization: `Bearer ${READ_TOKEN}` };
/** The open-file limit every service process runs under, as in a container with defaults. */
export const MAX_OPEN_FILES = 1024;
export const ENDPOINTS = ['platform-components', 'namespaces', 'rolebindings'] as const;
export const FLEET_LIST = '/api/v2/gitops/clusters';

export interface Fleet {
  clusters: number;
  components: number;
  /** Temp folder holding the repo (and the crud copy); removed at the end unless --keep. */
  root: string;
  repo: string;
  /** Record files and their bytes on disk. */
  files: number;
  yamlBytes: number;
  generateMs: number;
}

export async function generateFleet(clusters: number, components: number): Promise<Fleet> {
  const root = mkdtempSync(join(tmpdir(), `bench-scale-${clusters}-`));
  const repo = join(root, 'repo');
  const started = performance.now();
  generateConfigRepo(repo, { clusters, componentsPerCluster: components, git: true });
  // Packed as a fresh clone is, which is how a deployed service finds its repo.
  await pack(repo);
  const generateMs = performance.now() - started;
  let files = 0;
  let yamlBytes = 0;
  for (const folder of ['clusters', 'platform_components', 'namespaces', 'rolebindings']) {
    for (const name of readdirSync(join(repo, folder))) {
      files++;
      yamlBytes += statSync(join(repo, folder, name)).size;
    }
  }
  return { clusters, components, root, repo, files, yamlBytes, generateMs };
}

export function removeFleet(fleet: Fleet): void {
  rmSync(fleet.root, { recursive: true, force: true });
}

export function serviceEnv(repo: string, extra: Record<string, string> = {}): Record<string, string> {
  return { CONFIG_REPO: repo, AUTH_TOKEN: READ_TOKEN, LISTEN_ADDR: '127.0.0.1:0', LOG_LEVEL: 'info', ...extra };
}

export function clusterPath(i: number, endpoint: (typeof ENDPOINTS)[number]): string {
  return `/api/v2/gitops/clusters/${clusterDns(i)}/${endpoint}`;
}

export function clusterFile(repo: string, i: number): string {
  return join(repo, 'clusters', `cluster-${String(i).padStart(5, '0')}.yaml`);
}

/** `count` cluster indices spread evenly over the fleet. */
export function spreadIndices(clusters: number, count: number): number[] {
  const n = Math.min(clusters, count);
  return Array.from({ length: n }, (_, j) => Math.floor((j * clusters) / n));
}
