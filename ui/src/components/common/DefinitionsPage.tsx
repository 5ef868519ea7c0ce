// The frame of the pages that list records of a collection with the clusters using each
// (catalog, namespaces, role bindings): they read records, which the service serves in crud
// mode only. In read-only mode the page says so, and where the same facts can be seen.
import type { ComponentChildren } from 'preact';
import type { ApiClient } from '../../api/client.ts';
import type { ClusterRecord, Collection, RecordsByCollection } from '../../api/types.ts';
import { useAsync } from '../../app/use-async.ts';
import { useTitle } from '../../app/use-title.ts';
import { crudMode } from '../../data/capabilities.ts';
import { loadRecords, type Usage, usageOf } from '../../data/records.ts';
import { Loaded } from './Async.tsx';
import { Banner } from './Banner.tsx';

export interface DefinitionsPageProps<C extends Collection> {
  client: ApiClient;
  title: string;
  collection: C;
  /** What a person can look at instead in read-only mode. */
  readOnlyHint: string;
  children: (records: RecordsByCollection[C][], usage: Usage) => ComponentChildren;
}

type Loaded<C extends Collection> = { crud: false } | { crud: true; records: RecordsByCollection[C][]; usage: Usage };

export function DefinitionsPage<C extends Collection>({ client, title, collection, readOnlyHint, children }: DefinitionsPageProps<C>) {
  useTitle(title);
  const data = useAsync(async (): Promise<Loaded<C>> => {
    if (!(await crudMode(client))) return { crud: false };
    const [records, clusters] = await Promise.all([loadRecords(client, collection), loadRecords(client, 'clusters')]);
    return { crud: true, records, usage: usageOf(clusters as ClusterRecord[]) };
  }, [client, collection]);
  return (
    <>
      <h1 tabIndex={-1}>{title}</h1>
      <Loaded value={data} what={title.toLowerCase()}>
        {(loaded) =>
          loaded.crud ? (
            children(loaded.records, loaded.usage)
          ) : (
            <Banner tone="info" title="Shown in crud mode">
              <p>
                This page lists the records of the store, which the service serves only in crud mode (API_MODE=crud); this service runs read-only.{' '}
                {readOnlyHint}
              </p>
            </Banner>
          )
        }
      </Loaded>
    </>
  );
}
