// A simulated fleet: a config repo of clusters in four environments, the real service serving
// it, and one poller per cluster that fetches its platform-components answer over HTTP with
// the cluster's own token, every `pollIntervalMs` (under a second), as the clusters' providers
// do on their interval. Every answer each poller got is kept, so a test compares bytes and
// ETags before and after a change; a poller can be stopped (the cluster goes offline) and
// started again. The rollout tests drive it, and so can any test that needs clusters polling.
import { clusterTokenKey, signClusterToken } from '../../src/domain/cluster-token.ts';
import { ENVIRONMENTS } from '../../src/domain/records.ts';
import { prepareBackend, type PreparedBackend } from './backends.ts';
import { type RepoFiles } from './git-fixture.ts';
import { request } from './http.ts';
import { READ_TOKEN, startTestService, type TestService, WRITE_TOKEN } from './service.ts';

export const FLEET_TOKEN_KEY = 'simulated-fleet-token-key-0123456789abcdef';
export const ROLLED = 'kube-prometheus-stack';
export const OTHER = 'cert-manager';
export const CATALOG = [
  {
    id: OTHER,
    component_path: 'cert-manager',
    component_version: 'v1.16.2',
    oci_url: 'oci://quay.io/jetstack/charts',
    oci_tag: 'v1.16.2',
  },
  {
    id: ROLLED,
    component_path: 'kube-prometheus-stack',
    component_version: '67.4.0',
    oci_url: 'oci://ghcr.io/prometheus-community/charts',
    oci_tag: '67.4.0',
    depends_on: [OTHER],
  },
];

export interface FleetCluster {
  id: string;
  dns: string;
  environment: (typeof ENVIRONMENTS)[number];
}

export interface Answer {
  at: number;
  status: number;
  etag: string;
  body: string;
}

export interface SimulatedFleetOptions {
  /** Clusters per environment (four environments): 6 gives 24 clusters. */
  perEnvironment?: number;
  pollIntervalMs?: number;
  /** The service's settings besides the backend and the tokens (API_MODE, ROLLOUT_*). */
  env?: Record<string, string>;
  backend?: 'git' | 'git-remote' | 'memory' | 'sqlite';
  /** Records to add to the repo (a rollout, by collection/id.yaml path). */
  extraFiles?: RepoFiles;
  /** Another fleet's backend to serve instead of a new one (a second writer on the same remote). */
  prepared?: PreparedBackend;
}

export interface SimulatedFleet {
  service: TestService;
  prepared: PreparedBackend;
  clusters: FleetCluster[];
  /** The last answer a cluster's poller got (undefined before its first). */
  last(id: string): Answer | undefined;
  /** Every answer a cluster's poller got, oldest first. */
  answers(id: string): readonly Answer[];
  /** Stops a cluster's poller: it polls no more until started again. */
  stop(id: string): void;
  start(id: string): void;
  /** Resolves once every cluster of `ids` (every running poller, by default) got an answer at or after `moment`. */
  polledSince(moment: number, ids?: readonly string[], timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export function fleetClusters(perEnvironment = 6): FleetCluster[] {
  const regions = ['eu', 'us'];
  return ENVIRONMENTS.flatMap((environment) =>
    Array.from({ length: perEnvironment }, (_, i) => {
      const id = `${environment}-${regions[i % 2]}-${Math.floor(i / 2) + 1}`;
      return { id, dns: `${id}.k8s.example.com`, environment };
    }),
  );
}

/** The fleet's records as repo files. */
export function fleetFiles(clusters: readonly FleetCluster[], extra: RepoFiles = {}): RepoFiles {
  const files: RepoFiles = { 'README.md': '# simulated fleet\n' };
  for (const entry of CATALOG) files[`platform_components/${entry.id}.yaml`] = entry;
  for (const c of clusters) {
    files[`clusters/${c.id}.yaml`] = {
      id: c.id,
      cluster_name: c.id,
      cluster_dns: c.dns,
      environment: c.environment,
      platform_components: [
        { id: OTHER, enabled: true },
        { id: ROLLED, enabled: true },
      ],
    };
  }
  return { ...files, ...extra };
}

function dataOf(files: RepoFiles): Record<string, { id: string }[]> {
  const data: Record<string, { id: string }[]> = {
    clusters: [],
    platform_components: [],
    namespaces: [],
    rolebindings: [],
    rollouts: [],
  };
  for (const [path, record] of Object.entries(files)) {
    const collection = path.split('/')[0];
    if (collection in data) data[collection].push(record as { id: string });
  }
  return data;
}

export async function startSimulatedFleet(options: SimulatedFleetOptions = {}): Promise<SimulatedFleet> {
  const clusters = fleetClusters(options.perEnvironment);
  const interval = options.pollIntervalMs ?? 250;
  const files = fleetFiles(clusters, options.extraFiles);
  const prepared = options.prepared ?? (await prepareBackend(options.backend ?? 'git', dataOf(files) as never, files));
  const service = await startTestService({
    CRUD_AUTH_TOKEN: WRITE_TOKEN,
    CLUSTER_TOKEN_KEYS: FLEET_TOKEN_KEY,
    LOG_LEVEL: 'info',
    ...prepared.env,
    ...options.env,
  });
  const key = clusterTokenKey(FLEET_TOKEN_KEY);
  const answers = new Map<string, Answer[]>(clusters.map((c) => [c.id, []]));
  const timers = new Map<string, NodeJS.Timeout>();
  const waiters = new Set<() => void>();
  let closed = false;

  const poll = async (c: FleetCluster): Promise<void> => {
    const token = signClusterToken(key, c.id, 0);
    try {
      const res = await request(service.url, `/api/v2/gitops/clusters/${c.dns}/platform-components`, { token });
      answers.get(c.id)!.push({ at: Date.now(), status: res.status, etag: String(res.headers.etag), body: res.text });
      for (const wake of waiters) wake();
    } catch {
      // The service is closing: the poller stops with it.
    }
  };
  const start = (id: string): void => {
    const c = clusters.find((x) => x.id === id)!;
    if (closed || timers.has(id)) return;
    const tick = (): void => {
      void poll(c).then(() => {
        // Each poller on its own clock, a little jittered, as a fleet's providers are.
        if (timers.has(id) && !closed) timers.set(id, setTimeout(tick, interval * (0.75 + Math.random() / 2)));
      });
    };
    timers.set(id, setTimeout(tick, Math.random() * interval));
  };
  const stop = (id: string): void => {
    clearTimeout(timers.get(id));
    timers.delete(id);
  };
  for (const c of clusters) start(c.id);

  return {
    service,
    prepared,
    clusters,
    last: (id) => answers.get(id)!.at(-1),
    answers: (id) => answers.get(id)!,
    stop,
    start,
    polledSince(moment, ids = [...timers.keys()], timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (!ids.every((id) => answers.get(id)!.some((a) => a.at >= moment))) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          const missing = ids.filter((id) => !answers.get(id)!.some((a) => a.at >= moment));
          reject(new Error(`clusters that did not poll within ${timeoutMs} ms: ${missing.join(', ')}`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    async close() {
      closed = true;
      for (const id of [...timers.keys()]) stop(id);
      await service.close();
    },
  };
}

/**
 * Each cluster's platform-components answer when the catalog entry itself carries `set`: what a
 * released cluster must be served, byte for byte. Read from a second service on the same
 * records, the entry changed, in memory.
 */
export async function catalogChangedAnswers(
  clusters: readonly FleetCluster[],
  set: Record<string, string>,
): Promise<Map<string, Answer>> {
  const files = fleetFiles(clusters);
  const path = `platform_components/${ROLLED}.yaml`;
  files[path] = { ...(files[path] as object), ...set };
  const prepared = await prepareBackend('memory', dataOf(files) as never, files);
  const service = await startTestService({ ...prepared.env, LOG_LEVEL: 'warn' });
  try {
    const out = new Map<string, Answer>();
    for (const c of clusters) {
      const res = await request(service.url, `/api/v2/gitops/clusters/${c.dns}/platform-components`, {
        token: READ_TOKEN,
      });
      out.set(c.id, { at: Date.now(), status: res.status, etag: String(res.headers.etag), body: res.text });
    }
    return out;
  } finally {
    await service.close();
  }
}
