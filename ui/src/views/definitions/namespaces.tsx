// Namespace definitions: labels and annotations, each a map a person who may edit changes key
// by key.
import type { NamespaceRecord } from '../../api/types.ts';
import { KeyValueEditor } from '../../components/edits/KeyValueEditor.tsx';
import type { EditOp } from '../../edits/record-edits.ts';
import type { DefinitionColumn, DefinitionKind } from './definition-kind.ts';

type MapField = 'labels' | 'annotations';

function mapColumn(field: MapField, header: string, what: string): DefinitionColumn<NamespaceRecord> {
  return {
    header,
    Shown: ({ record }) => <Pairs map={record[field]} />,
    Edited: ({ stored, current, edit }) => (
      <KeyValueEditor
        what={what}
        owner={current.id}
        stored={stored?.[field] ?? {}}
        current={current[field]}
        onSet={(changes) => edit(...changes.map(({ key, value }): EditOp => ({ kind: 'entry', field, key, value })))}
      />
    ),
  };
}

export const NAMESPACES: DefinitionKind<'namespaces'> = {
  collection: 'namespaces',
  title: 'Namespaces',
  idHeader: 'Namespace',
  noun: 'namespace',
  readOnlyHint: "Each cluster's page shows the namespaces it gets.",
  make: (id) => ({ id, labels: {}, annotations: {} }),
  columns: [mapColumn('labels', 'Labels', 'label'), mapColumn('annotations', 'Annotations', 'annotation')],
};

function Pairs({ map }: { map: Record<string, string> }) {
  const entries = Object.entries(map);
  if (entries.length === 0) return <span class="muted">none</span>;
  return (
    <ul class="pairs">
      {entries.map(([key, value]) => (
        <li>
          <code>
            {key}={value}
          </code>
        </li>
      ))}
    </ul>
  );
}
