// Generates a config repo of N clusters x M components (plus namespaces and rolebindings),
// for benchmarks and speed checks. Usage:
//   node scripts/generate-repo.ts <dir> [clusters=1000] [componentsPerCluster=25]
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { ENVIRONMENTS } from '../src/domain/records.ts';

export interface GenerateOptions {
  clusters: number;
  componentsPerCluster: number;
  /** Catalog size; defaults to componentsPerCluster + 5 (a few entries no cluster uses). */
  catalogSize?: number;
  namespacesPerCluster?: number;
  rolebindingsPerCluster?: number;
  /** Make the directory a Git repository with one commit (uses the git command line). */
  git?: boolean;
}

/** The id of the i-th generated cluster. */
export function clusterId(i: number): string {
  return `cluster-${String(i).padStart(5, '0')}`;
}

export function clusterDns(i: number): string {
  return `cluster-${String(i).padStart(5, '0')}.fleet.example.com`;
}

export function generateConfigRepo(dir: string, options: GenerateOptions): void {
  const catalogSize = options.catalogSize ?? options.componentsPerCluster + 5;
  const namespacesPerCluster = options.namespacesPerCluster ?? 5;
  const rolebindingsPerCluster = options.rolebindingsPerCluster ?? 3;
  for (const folder of ['clusters', 'platform_components', 'namespaces', 'rolebindings'])
    mkdirSync(join(dir, folder), { recursive: true });

  const write = (path: string, record: object) => writeFileSync(join(dir, path), dump(record));
  for (let c = 0; c < catalogSize; c++) {
    write(`platform_components/component-${c}.yaml`, {
      id: `component-${c}`,
      component_path: `charts/component-${c}`,
      component_version: c % 3 === 0 ? 'latest' : `1.${c}.0`,
      oci_url: `oci://registry.example.com/platform/component-${c}`,
      oci_tag: `1.${c}.0`,
      cluster_env_enabled: c % 4 === 0,
      depends_on: c > 0 && c % 2 === 0 ? [`component-${c - 1}`] : [],
    });
  }
  for (let n = 0; n < namespacesPerCluster * 4; n++) {
    write(`namespaces/team-${n}.yaml`, {
      id: `team-${n}`,
      labels: { team: `team-${n}`, tier: 'app' },
      annotations: { owner: `owner-${n}@example.com` },
    });
  }
  for (let r = 0; r < rolebindingsPerCluster * 2; r++) {
    write(`rolebindings/binding-${r}.yaml`, {
      id: `binding-${r}`,
      role: r % 2 ? 'view' : 'edit',
      subjects: [
        { kind: 'Group', name: `group-${r}`, apiGroup: 'rbac.authorization.k8s.io' },
        { kind: 'User', name: `user-${r}@example.com`, apiGroup: 'rbac.authorization.k8s.io' },
      ],
    });
  }
  for (let i = 0; i < options.clusters; i++) {
    const components = Array.from(
      { length: options.componentsPerCluster },
      (_, k) => `component-${(i + k) % (catalogSize - 5 || catalogSize)}`,
    );
    const unique = [...new Set(components)];
    write(`clusters/${clusterId(i)}.yaml`, {
      id: clusterId(i),
      cluster_name: `k8s-${i}`,
      cluster_dns: clusterDns(i),
      environment: ENVIRONMENTS[i % ENVIRONMENTS.length],
      platform_components: unique.map((id, k) => ({
        id,
        enabled: k % 7 !== 6,
        oci_tag: k === 0 && i % 10 === 0 ? `hotfix-${i}` : null,
        component_path: null,
      })),
      namespaces: Array.from({ length: namespacesPerCluster }, (_, k) => ({
        id: `team-${(i + k) % (namespacesPerCluster * 4)}`,
      })),
      rolebindings: Array.from({ length: rolebindingsPerCluster }, (_, k) => ({
        id: `binding-${(i + k) % (rolebindingsPerCluster * 2)}`,
      })),
      patches: Object.fromEntries(
        unique
          .slice(0, 3)
          .map((id) => [
            id,
            { replicaCount: String((i % 3) + 1), 'resources.limits.memory': `${128 * ((i % 4) + 1)}Mi` },
          ]),
      ),
    });
  }
  if (options.git) {
    const run = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    run('init', '-q', '-b', 'main');
    run('add', '-A');
    run(
      '-c',
      'user.name=generator',
      '-c',
      'user.email=generator@example.com',
      '-c',
      'gc.auto=0',
      'commit',
      '-q',
      '-m',
      'generated config repo',
    );
  }
}

if (import.meta.main) {
  const [dir, clusters = '1000', components = '25'] = process.argv.slice(2);
  if (!dir) {
    console.error('usage: node scripts/generate-repo.ts <dir> [clusters=1000] [componentsPerCluster=25]');
    process.exit(2);
  }
  generateConfigRepo(dir, { clusters: Number(clusters), componentsPerCluster: Number(components) });
  console.log(`generated ${clusters} clusters x ${components} components in ${dir}`);
}
