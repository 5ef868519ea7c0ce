// Crud-mode test set-up: a small, fully consistent data set (every reference resolves, so
// every write test starts from a state the service accepts), and a service in crud mode on
// any backend (helpers/backends.ts): a local Git repository, a remote one over smart HTTP, a
// seed file in memory, or a new SQLite database seeded from the same data.
import { execFileSync } from 'node:child_process';
import { afterEach } from 'vitest';
import type { Collection } from '../../src/domain/records.ts';
import { BACKENDS, type DataSet, type PreparedBackend, prepareBackend } from './backends.ts';
import { asRepoFiles } from './fixture-data.ts';
import { makeConfigRepo, type RepoFiles } from './git-fixture.ts';
import { type RawResponse, request } from './http.ts';
import { startTestService, type TestService, WRITE_TOKEN } from './service.ts';

export const CRUD_DATA: Record<Collection, { id: string; [key: string]: unknown }[]> = {
  clusters: [
    {
      id: 'c1',
      cluster_name: 'cluster-one',
      cluster_dns: 'c1.k8s.example.com',
      environment: 'prod',
      platform_components: [
        { id: 'cert-manager', enabled: true },
        { id: 'traefik', enabled: true },
        { id: 'podinfo', enabled: true, oci_tag: '6.7.2-hotfix' },
      ],
      namespaces: [{ id: 'team-a' }],
      rolebindings: [{ id: 'admins' }],
      patches: { podinfo: { replicaCount: '3', 'ui.color': 'blue' } },
    },
    { id: 'c0', cluster_name: 'bare', cluster_dns: 'Bare.Example.COM', environment: 'dev' },
  ],
  platform_components: [
    { id: 'cert-manager', component_path: 'cert-manager', component_version: 'v1.16.2', oci_url: 'oci://quay.io/jetstack/charts', oci_tag: 'v1.16.2' },
    { id: 'traefik', component_path: 'traefik', component_version: '33.0.0', oci_url: 'oci://ghcr.io/traefik/helm', oci_tag: '33.0.0', depends_on: ['cert-manager'] },
    { id: 'podinfo', component_path: 'podinfo', component_version: '6.7.1', oci_url: 'oci://ghcr.io/stefanprodan/charts', oci_tag: '6.7.1', depends_on: ['traefik'] },
    { id: 'unused', component_path: 'unused', component_version: 'latest', oci_url: 'oci://example.com/charts', oci_tag: '1.0.0' },
  ],
  namespaces: [{ id: 'team-a', labels: { team: 'a' }, annotations: { owner: 'a@example.com' } }, { id: 'team-b' }],
  rolebindings: [
    { id: 'admins', role: 'cluster-admin', subjects: [{ kind: 'Group', name: 'platform', apiGroup: 'rbac.authorization.k8s.io' }] },
    { id: 'viewers', role: 'view', subjects: [] },
  ],
  // Nothing released: every answer is the catalog's, as without it.
  rollouts: [
    { id: 'podinfo-7', component: 'podinfo', set: { component_version: '7.0.0', oci_tag: '7.0.0' }, waves: [{ name: 'prod', environments: ['prod'] }] },
  ],
};

/** One valid new record per collection, and a body that replaces it (PUT), and a merge patch. */
export const SAMPLES: Record<Collection, { create: Record<string, unknown>; replace: Record<string, unknown>; patch: Record<string, unknown> }> = {
  clusters: {
    create: {
      id: 'c9',
      cluster_name: 'nine',
      cluster_dns: 'c9.example.com',
      environment: 'qa',
      platform_components: [{ id: 'cert-manager', enabled: true }],
      namespaces: [{ id: 'team-b' }],
      patches: { 'cert-manager': { 'crds.enabled': 'true' } },
    },
    replace: { cluster_name: 'nine-again', cluster_dns: 'c9.example.com', environment: 'uat', platform_components: [{ id: 'cert-manager', enabled: false }] },
    patch: { environment: 'prod', patches: { 'cert-manager': { replicaCount: '2' } } },
  },
  platform_components: {
    create: { id: 'kyverno', component_path: 'kyverno', component_version: '3.3.0', oci_url: 'oci://ghcr.io/kyverno/charts', oci_tag: '3.3.0' },
    replace: { component_path: 'kyverno', component_version: '3.3.1', oci_url: 'oci://ghcr.io/kyverno/charts', oci_tag: '3.3.1', depends_on: ['cert-manager'] },
    patch: { oci_tag: '3.3.2', cluster_env_enabled: true },
  },
  namespaces: {
    create: { id: 'team-c', labels: { team: 'c' } },
    replace: { annotations: { owner: 'c@example.com' } },
    patch: { labels: { tier: 'gold' } },
  },
  rolebindings: {
    create: { id: 'deployers', role: 'edit', subjects: [{ kind: 'ServiceAccount', name: 'ci', apiGroup: '' }] },
    replace: { role: 'admin', subjects: [] },
    patch: { subjects: [{ kind: 'User', name: 'alice@example.com', apiGroup: 'rbac.authorization.k8s.io' }] },
  },
  rollouts: {
    create: { id: 'traefik-34', component: 'traefik', set: { component_version: '34.0.0', oci_tag: '34.0.0' }, waves: [{ name: 'prod', environments: ['prod'] }] },
    replace: { component: 'traefik', set: { oci_tag: '34.0.1' }, waves: [{ name: 'first', clusters: ['c1'] }], released: 1 },
    patch: { released: 0, paused: true },
  },
};

export const CRUD_BACKENDS = BACKENDS;
export type CrudBackend = (typeof CRUD_BACKENDS)[number];

export interface CrudService extends TestService {
  /** The config repo (git backend). */
  dir?: string;
  prepared: PreparedBackend;
}

export function crudRepo(files: RepoFiles = asRepoFiles(CRUD_DATA)): string {
  return makeConfigRepo(files);
}

/** A service in crud mode on `backend`, serving CRUD_DATA (or, for git, the repository `dir`). */
export async function startCrud(backend: CrudBackend, env: Record<string, string> = {}, dir?: string): Promise<CrudService> {
  const base = { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN, LOG_LEVEL: 'info' };
  const prepared: PreparedBackend =
    dir === undefined ? await prepareBackend(backend, CRUD_DATA as DataSet) : { backend: 'git', dir, env: { STORE_BACKEND: 'git', CONFIG_REPO: dir } };
  const service = await startTestService({ ...base, ...prepared.env, ...env });
  return Object.assign(service, { dir: prepared.dir, prepared });
}

/** A request with the write token (unless `token` says otherwise) and a JSON body. */
export function send(
  service: TestService,
  method: string,
  path: string,
  body?: unknown,
  options: { headers?: Record<string, string>; token?: string } = {},
): Promise<RawResponse> {
  const headers = body === undefined ? { ...options.headers } : { 'content-type': 'application/json', ...options.headers };
  return request(service.url, path, {
    method,
    token: options.token ?? WRITE_TOKEN,
    headers,
    body: body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
  });
}

/** Log lines as objects (read at call time). */
export function logLines(service: TestService): Record<string, unknown>[] {
  return service
    .logText()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function auditLines(service: TestService): Record<string, unknown>[] {
  return logLines(service).filter((line) => line.msg === 'audit');
}

export function gitOut(dir: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
}

export function commitCount(dir: string): number {
  return Number(gitOut(dir, 'rev-list', '--count', 'HEAD'));
}

/**
 * For a test file whose tests each start crud services on a Git checkout: a start function
 * whose services are all closed after each test.
 */
export function crudServicesClosedAfterEach(): (dir?: string, backend?: 'git' | 'git-remote') => Promise<CrudService> {
  let services: CrudService[] = [];
  afterEach(async () => {
    await Promise.all(services.map((s) => s.close()));
    services = [];
  });
  return async (dir, backend = 'git') => {
    const service = await startCrud(backend, {}, dir);
    services.push(service);
    return service;
  };
}
