// Namespace definitions: labels, annotations, and the clusters that reference each.
import type { ApiClient } from '../../api/client.ts';
import { DefinitionsPage } from '../../components/common/DefinitionsPage.tsx';
import { UsedBy } from '../../components/common/UsedBy.tsx';

export function NamespacesPage({ client }: { client: ApiClient }) {
  return (
    <DefinitionsPage client={client} title="Namespaces" collection="namespaces" readOnlyHint="Each cluster's page shows the namespaces it gets.">
      {(namespaces, usage) => (
        <table class="records" aria-label="Namespaces">
          <thead>
            <tr>
              <th scope="col">Namespace</th>
              <th scope="col">Labels</th>
              <th scope="col">Annotations</th>
              <th scope="col">Used by</th>
            </tr>
          </thead>
          <tbody>
            {namespaces.map((namespace) => (
              <tr>
                <th scope="row">{namespace.id}</th>
                <td>
                  <Pairs map={namespace.labels} />
                </td>
                <td>
                  <Pairs map={namespace.annotations} />
                </td>
                <td>
                  <UsedBy clusters={usage.namespaces.get(namespace.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </DefinitionsPage>
  );
}

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
