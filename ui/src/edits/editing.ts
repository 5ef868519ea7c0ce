// Whether the person may edit, for every view: the service runs in crud mode and the person's
// roles (GET /api/v2/gitops/whoami) hold `write`. A reader, a service token that only reads,
// a service that does not say who the caller is, and read-only mode see no edit control. Also
// a counter the views reload their records on, raised after each commit.
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

export interface Editing {
  canEdit: boolean;
  /** Raised after a commit: views that show records read them again. */
  dataVersion: number;
  /** Tells every view that the store changed (after a commit). */
  reload: () => void;
}

export const EditingContext = createContext<Editing>({ canEdit: false, dataVersion: 0, reload: () => undefined });

export function useEditing(): Editing {
  return useContext(EditingContext);
}
