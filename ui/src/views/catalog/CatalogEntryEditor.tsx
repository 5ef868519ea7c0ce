// A catalog entry's fields as a form, in its row of the catalog: the version and the tag (the
// usual change: a new release for every cluster that does not pin another tag, or, through the
// wave builder, for those clusters a step at a time), and folded
// away under them the artifact's URL and path, whether the path gets the environment appended,
// and what it depends on.
import type { ApiClient } from '../../api/client.ts';
import type { PlatformComponentRecord } from '../../api/types.ts';
import { EditError } from '../../components/edits/EditError.tsx';
import { TextEdit } from '../../components/edits/TextEdit.tsx';
import { useEdit } from '../../components/edits/use-edit.ts';
import { href } from '../../router/router.ts';

interface EntryProps {
  client: ApiClient;
  stored: PlatformComponentRecord;
  current: PlatformComponentRecord;
}

/**
 * The Version and Artifact cells. Next to the version, the way to roll a new one out in waves
 * instead (`canRollOut`: no rollout of the entry is under way).
 */
export function CatalogVersionFields({ client, stored, current, canRollOut }: EntryProps & { canRollOut: boolean }) {
  const { edit, error } = useEdit(client, 'platform_components', stored.id);
  const set = (field: keyof PlatformComponentRecord) => (value: string) =>
    edit({ kind: 'field', field, value: value.trim() });
  return (
    <>
      <td>
        <TextEdit
          label={`Version of ${stored.id}`}
          value={current.component_version}
          changed={current.component_version !== stored.component_version}
          onCommit={set('component_version')}
        />
        <EditError error={error} />
        {canRollOut && (
          <a class="start-rollout" href={href('catalog', stored.id, 'rollout')}>
            Roll out <span class="visually-hidden">{stored.id} </span>in waves
          </a>
        )}
      </td>
      <td>
        <code class="artifact-url muted">{current.oci_url}:</code>
        <TextEdit
          label={`Tag of ${stored.id}`}
          value={current.oci_tag}
          changed={current.oci_tag !== stored.oci_tag}
          onCommit={set('oci_tag')}
        />
        <CatalogEntryFields client={client} stored={stored} current={current} />
      </td>
    </>
  );
}

/** The other fields, folded away under the tag in the (wide) Artifact cell. */
function CatalogEntryFields({ client, stored, current }: EntryProps) {
  const { edit } = useEdit(client, 'platform_components', stored.id);
  const dependsOn = current.depends_on.join(', ');
  return (
    <>
      <details class="entry-fields">
        <summary>
          Other fields <span class="visually-hidden">of {stored.id}</span>
        </summary>
        <div class="field">
          <span class="field-label">Artifact URL</span>
          <TextEdit
            label={`Artifact URL of ${stored.id}`}
            value={current.oci_url}
            changed={current.oci_url !== stored.oci_url}
            onCommit={(value) => edit({ kind: 'field', field: 'oci_url', value: value.trim() })}
          />
        </div>
        <div class="field">
          <span class="field-label">Path</span>
          <TextEdit
            label={`Path of ${stored.id}`}
            value={current.component_path}
            changed={current.component_path !== stored.component_path}
            onCommit={(value) => edit({ kind: 'field', field: 'component_path', value: value.trim() })}
          />
        </div>
        <label class="check">
          <input
            type="checkbox"
            checked={current.cluster_env_enabled}
            onChange={(event) =>
              edit({ kind: 'field', field: 'cluster_env_enabled', value: (event.target as HTMLInputElement).checked })
            }
          />
          Environment appended to the path
        </label>
        <div class="field">
          <span class="field-label">Depends on (comma-separated)</span>
          <TextEdit
            label={`Depends on of ${stored.id}`}
            value={dependsOn}
            changed={dependsOn !== stored.depends_on.join(', ')}
            onCommit={(value) =>
              edit({
                kind: 'field',
                field: 'depends_on',
                value: value
                  .split(',')
                  .map((part) => part.trim())
                  .filter((part) => part !== ''),
              })
            }
          />
        </div>
      </details>
    </>
  );
}
