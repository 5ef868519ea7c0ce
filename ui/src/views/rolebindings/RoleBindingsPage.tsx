// Role binding definitions: the role, its subjects, and the clusters that reference each.
import type { ApiClient } from '../../api/client.ts';
import { DefinitionsPage } from '../../components/common/DefinitionsPage.tsx';
import { UsedBy } from '../../components/common/UsedBy.tsx';

export function RoleBindingsPage({ client }: { client: ApiClient }) {
  return (
    <DefinitionsPage client={client} title="Role bindings" collection="rolebindings" readOnlyHint="Each cluster's page shows the role bindings it gets.">
      {(bindings, usage) => (
        <table class="records" aria-label="Role bindings">
          <thead>
            <tr>
              <th scope="col">Role binding</th>
              <th scope="col">Role</th>
              <th scope="col">Subjects</th>
              <th scope="col">Used by</th>
            </tr>
          </thead>
          <tbody>
            {bindings.map((binding) => (
              <tr>
                <th scope="row">{binding.id}</th>
                <td>{binding.role}</td>
                <td>
                  <ul class="pairs">
                    {binding.subjects.map((subject) => (
                      <li>
                        {subject.kind} <code>{subject.name}</code>
                      </li>
                    ))}
                  </ul>
                </td>
                <td>
                  <UsedBy clusters={usage.rolebindings.get(binding.id)} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </DefinitionsPage>
  );
}
