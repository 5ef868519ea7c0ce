// Records of a collection from REST (crud mode), kept for a short while, and who uses each
// definition: the catalog, namespaces and role bindings pages all count the clusters that
// reference an entry, from the same cluster records.
import type { ApiClient } from '../api/client.ts';
import { fetchAllRecords } from '../api/endpoints.ts';
import type { ClusterRecord, Collection, RecordsByCollection } from '../api/types.ts';
import { cached } from './cache.ts';

const MAX_AGE_MS = 15_000;

export function loadRecords<C extends Collection>(client: ApiClient, collection: C): Promise<RecordsByCollection[C][]> {
  return cached(`records:${collection}`, MAX_AGE_MS, () => fetchAllRecords(client, collection));
}

export interface ComponentUse {
  clusters: string[];
  /** Clusters that pin another artifact tag than the catalog's, with that tag. */
  pins: { cluster: string; tag: string }[];
  disabled: number;
}

export interface Usage {
  components: Map<string, ComponentUse>;
  namespaces: Map<string, string[]>;
  rolebindings: Map<string, string[]>;
}

export function usageOf(clusters: readonly ClusterRecord[]): Usage {
  const usage: Usage = { components: new Map(), namespaces: new Map(), rolebindings: new Map() };
  for (const cluster of clusters) {
    for (const ref of cluster.platform_components) {
      let use = usage.components.get(ref.id);
      if (!use) usage.components.set(ref.id, (use = { clusters: [], pins: [], disabled: 0 }));
      use.clusters.push(cluster.id);
      if (ref.oci_tag) use.pins.push({ cluster: cluster.id, tag: ref.oci_tag });
      if (!ref.enabled) use.disabled++;
    }
    for (const ref of cluster.namespaces) push(usage.namespaces, ref.id, cluster.id);
    for (const ref of cluster.rolebindings) push(usage.rolebindings, ref.id, cluster.id);
  }
  return usage;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
