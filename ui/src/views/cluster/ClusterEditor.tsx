// The cluster's record as a form, for a person who may edit: its components, patches,
// namespaces and role bindings. Each edit goes into the page's one change set (the bar at the
// top counts them; /ui/changes previews and commits them); the form shows the record as the
// set would leave it, with changed fields marked.
import type { ApiClient } from '../../api/client.ts';
import type { ClusterRecord, NamespaceRecord, PlatformComponentRecord, RoleBindingRecord } from '../../api/types.ts';
import { EditError } from '../../components/edits/EditError.tsx';
import { useEdit } from '../../components/edits/use-edit.ts';
import { loadRecords } from '../../data/records.ts';
import { useChangeSet } from '../../edits/use-change-set.ts';
import { useAsync } from '../../hooks/use-async.ts';
import { ComponentsEditor } from './ComponentsEditor.tsx';
import { PatchesEditor } from './PatchesEditor.tsx';
import { ReferencesEditor } from './ReferencesEditor.tsx';

export interface ClusterEditorProps {
  client: ApiClient;
  stored: ClusterRecord;
  etag: string | null;
}

interface Definitions {
  catalog: PlatformComponentRecord[];
  namespaces: NamespaceRecord[];
  rolebindings: RoleBindingRecord[];
}

export function ClusterEditor({ client, stored, etag }: ClusterEditorProps) {
  const set = useChangeSet();
  const editor = useEdit(client, 'clusters', stored.id, { record: stored, etag });
  // Suggestions only: the form works without them (a failed load leaves the lists empty).
  const definitions = useAsync(async (): Promise<Definitions> => {
    const [catalog, namespaces, rolebindings] = await Promise.all([
      loadRecords(client, 'platform_components'),
      loadRecords(client, 'namespaces'),
      loadRecords(client, 'rolebindings'),
    ]);
    return { catalog, namespaces, rolebindings };
  }, [client]);
  const known: Definitions =
    definitions.state === 'done' ? definitions.value : { catalog: [], namespaces: [], rolebindings: [] };
  const pending = set.find('clusters', stored.id);
  const current = set.current('clusters', stored.id, stored);
  if (current === null) {
    return <p class="muted">This cluster is deleted in the pending change set.</p>;
  }
  // Edits of a record read when the page opened build on that version; once in the set, on the set's.
  const base = (pending?.base as ClusterRecord | null | undefined) ?? stored;
  const createdIds = (collection: 'namespaces' | 'rolebindings') =>
    set.records.filter((r) => r.collection === collection && r.base === null).map((r) => r.id);
  return (
    <div class="cluster-editor">
      <EditError error={editor.error} />
      <ComponentsEditor stored={base} current={current} catalog={known.catalog} editor={editor} />
      <PatchesEditor stored={base} current={current} editor={editor} />
      <ReferencesEditor
        list="namespaces"
        stored={base}
        current={current}
        known={[...known.namespaces.map((n) => n.id), ...createdIds('namespaces')]}
        editor={editor}
      />
      <ReferencesEditor
        list="rolebindings"
        stored={base}
        current={current}
        known={[...known.rolebindings.map((r) => r.id), ...createdIds('rolebindings')]}
        editor={editor}
      />
    </div>
  );
}
