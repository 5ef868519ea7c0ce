// Crud-mode test set-up: the data set of ../fixtures/crud-data.ts, and a service in crud mode on
// any backend (helpers/backends.ts): a local Git repository, a remote one over smart HTTP, a
// seed file in memory, or a new SQLite database seeded from the same data.
import { afterEach } from 'vitest';
import { CRUD_DATA } from '../fixtures/crud-data.ts';
import { BACKENDS, type PreparedBackend, prepareBackend } from './backends.ts';
import { asRepoFiles } from './fixture-data.ts';
import { makeConfigRepo, type RepoFiles } from './git-fixture.ts';
import { runCommandText } from './process-starter.ts';
import { type RawResponse, request } from './http.ts';
import { startTestService, type TestService, WRITE_TOKEN } from './service.ts';

export { CRUD_DATA, SAMPLES } from '../fixtures/crud-data.ts';

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

/** A config repo of CRUD_DATA whose clusters are `ids`, each like its first cluster under its own name. */
export function crudRepoOfClusters(ids: readonly string[]): string {
  const template = CRUD_DATA.clusters[0];
  const clusters = ids.map((id) => ({ ...template, id, cluster_name: id, cluster_dns: `${id}.k8s.example.com` }));
  return crudRepo(asRepoFiles({ ...CRUD_DATA, clusters }));
}

/** A service in crud mode on `backend`, serving CRUD_DATA (or, for git, the repository `dir`). */
export async function startCrud(
  backend: CrudBackend,
  env: Record<string, string> = {},
  dir?: string,
): Promise<CrudService> {
  // The service's own releases of rollouts (ROLLOUT_AUTO_ADVANCE) would be writes the tests of
  // the REST writes did not make: off here; the rollout tests turn it on where they test it.
  const base = { API_MODE: 'crud', CRUD_AUTH_TOKEN: WRITE_TOKEN, LOG_LEVEL: 'info', ROLLOUT_AUTO_ADVANCE: 'off' };
  const prepared: PreparedBackend =
    dir === undefined
      ? await prepareBackend(backend, CRUD_DATA)
      : { backend: 'git', dir, env: { STORE_BACKEND: 'git', CONFIG_REPO: dir } };
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
  const headers =
    body === undefined ? { ...options.headers } : { 'content-type': 'application/json', ...options.headers };
  return request(service.url, path, {
    method,
    token: options.token ?? WRITE_TOKEN,
    headers,
    body:
      body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body),
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
  return runCommandText('git', args, { cwd: dir }).trim();
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
