// Checks that span records: references, uniqueness, dependency cycles and the size of what
// each cluster would be served. The config-repo validator runs all of them on a whole repo;
// a REST write runs those that the changed record can affect. Loading a revision to serve
// it does not (the contract says dangling references are skipped when serving).
import { dnsKey } from './cluster-dns.ts';
import type { Problem } from './problems.ts';
import { MAX_RESPONSE_BYTES, PER_CLUSTER_ENDPOINTS, type PerClusterEndpoint } from './read-endpoints.ts';
import type { Cluster, Collection } from './records.ts';
import type { Snapshot } from './snapshot.ts';

/** The consumer's default `spec.filter.limit`: items past it are silently dropped. */
export const CONSUMER_DEFAULT_LIMIT = 100;

const REFERENCE_TARGETS = {
  platform_components: 'platform_components',
  namespaces: 'namespaces',
  rolebindings: 'rolebindings',
} as const;

/**
 * Problems of one cluster: dangling references, stray patches, response size. (References
 * listed twice are reported by createSnapshot, which refuses them even when serving.)
 */
export function checkCluster(snapshot: Snapshot, cluster: Cluster): Problem[] {
  const problems: Problem[] = [];
  const base = `clusters/${cluster.id}`;
  for (const field of Object.keys(REFERENCE_TARGETS) as (keyof typeof REFERENCE_TARGETS)[]) {
    cluster[field].forEach((ref, index) => {
      if (!snapshot[REFERENCE_TARGETS[field]].has(ref.id)) {
        problems.push({
          path: `${base}/${field}/${index}/id`,
          message: `references ${field} "${ref.id}", which does not exist`,
        });
      }
    });
  }
  const assigned = new Set(cluster.platform_components.map((ref) => ref.id));
  for (const component of Object.keys(cluster.patches)) {
    if (!assigned.has(component)) {
      problems.push({
        path: `${base}/patches/${component}`,
        message: `patches component "${component}", which the cluster does not reference in platform_components`,
      });
    }
  }
  problems.push(...checkResponseSizes(snapshot, cluster));
  return problems;
}

/** Errors for responses over 900 KiB, warnings for lists the consumer would cut at its default limit. */
export function checkResponseSizes(snapshot: Snapshot, cluster: Cluster): Problem[] {
  const problems: Problem[] = [];
  for (const endpoint of Object.keys(PER_CLUSTER_ENDPOINTS) as PerClusterEndpoint[]) {
    const inputs = PER_CLUSTER_ENDPOINTS[endpoint](snapshot, cluster);
    const bytes = Buffer.byteLength(JSON.stringify({ inputs }));
    if (bytes >= MAX_RESPONSE_BYTES) {
      problems.push({
        path: `clusters/${cluster.id}`,
        message: `its ${endpoint} response would be ${bytes} bytes, over the consumer's 900 KiB limit (921600 bytes)`,
      });
    }
    if (inputs.length > CONSUMER_DEFAULT_LIMIT) {
      problems.push({
        path: `clusters/${cluster.id}`,
        severity: 'warning',
        message: `its ${endpoint} response has ${inputs.length} inputs; the consumer keeps only ${CONSUMER_DEFAULT_LIMIT} unless its ResourceSetInputProvider raises spec.filter.limit`,
      });
    }
  }
  return problems;
}

/** Unknown and cyclic depends_on in the catalog. */
export function checkCatalog(snapshot: Snapshot): Problem[] {
  const problems: Problem[] = [];
  for (const entry of snapshot.platform_components.values()) {
    entry.depends_on.forEach((dep, index) => {
      if (!snapshot.platform_components.has(dep)) {
        problems.push({
          path: `platform_components/${entry.id}/depends_on/${index}`,
          message: `depends on "${dep}", which is not in the catalog`,
        });
      } else if (dep === entry.id) {
        problems.push({ path: `platform_components/${entry.id}/depends_on/${index}`, message: 'depends on itself' });
      }
    });
  }
  for (const cycle of dependencyCycles(snapshot)) {
    problems.push({
      path: `platform_components/${cycle[0]}/depends_on`,
      message: `depends_on forms a cycle: ${[...cycle, cycle[0]].join(' -> ')}`,
    });
  }
  return problems;
}

/** Each cycle once (self-dependencies are reported by checkCatalog), starting at its smallest id. */
export function dependencyCycles(snapshot: Snapshot): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): void => {
    state.set(id, 'visiting');
    stack.push(id);
    for (const dep of snapshot.platform_components.get(id)?.depends_on ?? []) {
      if (dep === id || !snapshot.platform_components.has(dep)) continue;
      const seen = state.get(dep);
      if (seen === 'visiting') {
        const cycle = stack.slice(stack.indexOf(dep));
        const start = cycle.indexOf([...cycle].sort()[0]!);
        cycles.push([...cycle.slice(start), ...cycle.slice(0, start)]);
      } else if (seen === undefined) {
        visit(dep);
      }
    }
    stack.pop();
    state.set(id, 'done');
  };
  for (const id of snapshot.platform_components.keys()) if (!state.has(id)) visit(id);
  return cycles;
}

/** Ids of the clusters that reference a catalog entry, namespace or rolebinding definition. */
export function referencingClusters(snapshot: Snapshot, collection: Exclude<Collection, 'clusters'>, id: string): string[] {
  const ids: string[] = [];
  for (const cluster of snapshot.clusters.values()) {
    if (cluster[collection].some((ref) => ref.id === id)) ids.push(cluster.id);
  }
  return ids;
}

/** Catalog ids whose depends_on names `id`. */
export function dependents(snapshot: Snapshot, id: string): string[] {
  return [...snapshot.platform_components.values()].filter((c) => c.depends_on.includes(id)).map((c) => c.id);
}

/** Another cluster that already uses this DNS name, if any. */
export function clusterWithDns(snapshot: Snapshot, dns: string, exceptId?: string): Cluster | undefined {
  const found = snapshot.clustersByDns.get(dnsKey(dns));
  return found && found.id !== exceptId ? found : undefined;
}

/** Every check, on a whole snapshot: what the config-repo validator reports. */
export function validateSnapshot(snapshot: Snapshot): Problem[] {
  const problems: Problem[] = [];
  for (const cluster of snapshot.clusters.values()) problems.push(...checkCluster(snapshot, cluster));
  problems.push(...checkCatalog(snapshot));
  const used = new Set<string>();
  for (const cluster of snapshot.clusters.values()) for (const ref of cluster.platform_components) used.add(ref.id);
  for (const id of snapshot.platform_components.keys()) {
    if (!used.has(id)) {
      problems.push({ path: `platform_components/${id}`, severity: 'warning', message: `catalog entry "${id}" is used by no cluster` });
    }
  }
  return problems;
}
