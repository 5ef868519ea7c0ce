// What sets one kind of definition apart on its page (namespaces, role bindings): its names,
// the record a new one starts as, and its columns between the id and the clusters using it,
// each shown as read and as edited. ./DefinitionPage.tsx makes the page of any kind.
import type { VNode } from 'preact';
import type { RecordsByCollection } from '../../api/types.ts';
import type { EditOp } from '../../edits/record-edits.ts';

/** The collections of definitions a cluster references by id. */
export type DefinitionCollection = 'namespaces' | 'rolebindings';

export interface DefinitionColumn<R> {
  /** The column's header. */
  header: string;
  /** The cell as a reader sees it (and anyone, for a definition the change set deletes). */
  Shown: (props: { record: R }) => VNode;
  /** The cell for a person who may edit: `stored` is null for a definition the change set creates. */
  Edited: (props: { stored: R | null; current: R; edit: (...ops: EditOp[]) => void }) => VNode;
}

export interface DefinitionKind<C extends DefinitionCollection> {
  collection: C;
  /** The page's heading and the table's accessible name: "Namespaces". */
  title: string;
  /** The header of the id column: "Namespace". */
  idHeader: string;
  /** One of them in a sentence, in the names of controls: "namespace", "role binding". */
  noun: string;
  /** What a person can look at instead in read-only mode. */
  readOnlyHint: string;
  /** A new definition with this id, as the create form puts it in the change set. */
  make: (id: string) => RecordsByCollection[C];
  columns: DefinitionColumn<RecordsByCollection[C]>[];
}
