// The frame of the pages that list records of a collection with the clusters using each
// (catalog, namespaces, role bindings): they read records, which the service serves in crud
// mode only. In read-only mode the page says so, and where the same facts can be seen. Each
// record is shown as the pending change set would leave it; records the set creates are
// listed too, and those it deletes are marked.
import type { ComponentChildren } from 'preact';
import type { ApiClient } from '../../api/client.ts';
import type { Collection, RecordsByCollection } from '../../api/types.ts';
import { crudMode } from '../../data/capabilities.ts';
import { loadRecords, type Usage, usageOf } from '../../data/records.ts';
import { useEditing } from '../../edits/editing.ts';
import { useChangeSet } from '../../edits/use-change-set.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { useTitle } from '../../hooks/use-title.ts';
import { Loaded } from './Async.tsx';
import { Banner } from './Banner.tsx';

/** One record of the page: as stored (null: the change set creates it) and as the set leaves it (null: deletes it). */
export interface DefinitionRow<R> {
  id: string;
  stored: R | null;
  current: R | null;
}

export interface DefinitionsPageProps<C extends Collection> {
  client: ApiClient;
  title: string;
  collection: C;
  /** What a person can look at instead in read-only mode. */
  readOnlyHint: string;
  /** Shown above the table to a person who may edit (a form to create a record). */
  creator?: ComponentChildren;
  children: (rows: DefinitionRow<RecordsByCollection[C]>[], usage: Usage) => ComponentChildren;
}

type Loaded<C extends Collection> = { crud: false } | { crud: true; records: RecordsByCollection[C][]; usage: Usage };

export function DefinitionsPage<C extends Collection>({
  client,
  title,
  collection,
  readOnlyHint,
  creator,
  children,
}: DefinitionsPageProps<C>) {
  useTitle(title);
  const { canEdit, dataVersion } = useEditing();
  const set = useChangeSet();
  const data = useAsync(async (): Promise<Loaded<C>> => {
    if (!(await crudMode(client))) return { crud: false };
    const [records, clusters] = await Promise.all([loadRecords(client, collection), loadRecords(client, 'clusters')]);
    return { crud: true, records, usage: usageOf(clusters) };
  }, [client, collection, dataVersion]);
  return (
    <>
      <h1 tabIndex={-1}>{title}</h1>
      <Loaded value={data} what={title.toLowerCase()}>
        {(loaded) => {
          if (!loaded.crud) {
            return (
              <Banner tone="info" title="Shown in crud mode">
                <p>
                  This page lists the records of the store, which the service serves only in crud mode (API_MODE=crud);
                  this service runs read-only. {readOnlyHint}
                </p>
              </Banner>
            );
          }
          type R = RecordsByCollection[C];
          const rows: DefinitionRow<R>[] = loaded.records.map((record) => ({
            id: record.id,
            stored: record,
            current: set.current(collection, record.id, record),
          }));
          for (const pending of set.records) {
            if (pending.collection === collection && pending.base === null)
              rows.push({
                id: pending.id,
                stored: null,
                current: set.current(collection, pending.id, null as unknown as R),
              });
          }
          return (
            <>
              {canEdit && creator}
              {children(rows, loaded.usage)}
            </>
          );
        }}
      </Loaded>
    </>
  );
}
