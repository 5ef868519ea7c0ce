// Revisions the service judged, newest first: the revision, whether it was published or
// refused, when, the commit's author and message, the clusters whose answers it changed, and
// a refused revision's problems at file:line. The Revisions view and a cluster's page share it.
import type { RevisionEntry } from '../../api/types.ts';
import { Time } from '../../components/common/Time.tsx';
import { UsedBy } from '../../components/common/UsedBy.tsx';
import { ProblemList } from '../changes/ProblemList.tsx';

export function RevisionTable({
  revisions,
  label,
  showClusters = true,
}: {
  revisions: readonly RevisionEntry[];
  label: string;
  showClusters?: boolean;
}) {
  return (
    <div class="table-scroll">
      <table class="records revisions" aria-label={label}>
        <thead>
          <tr>
            <th scope="col">Revision</th>
            <th scope="col">Result</th>
            <th scope="col">Commit</th>
            {showClusters && <th scope="col">Clusters changed</th>}
          </tr>
        </thead>
        <tbody>
          {revisions.map((entry) => (
            <tr key={entry.revision}>
              <th scope="row">
                <code class="revision" title={entry.revision}>
                  {short(entry.revision)}
                </code>
                <div class="muted">
                  judged <Time iso={entry.judged_at} />
                </div>
              </th>
              <td>
                <span class={`pill pill-${entry.result}`}>
                  {entry.result === 'published' ? 'Published' : 'Refused'}
                </span>
                {entry.result === 'refused' && (
                  <ProblemList problems={entry.problems ?? []} label={`Problems of ${short(entry.revision)}`} />
                )}
              </td>
              <td>
                {entry.message ? (
                  <span class="commit-message">{entry.message.split('\n')[0]}</span>
                ) : (
                  <span class="muted">no commit message</span>
                )}
                <div class="muted">
                  {authorOf(entry) || 'unknown author'}
                  {entry.time && (
                    <>
                      {', '}
                      <Time iso={entry.time} />
                    </>
                  )}
                </div>
              </td>
              {showClusters && (
                <td>
                  {entry.clusters_changed === null ? (
                    <span class="muted">not known</span>
                  ) : entry.clusters_changed === 0 ? (
                    <span class="muted">none</span>
                  ) : (
                    <UsedBy clusters={entry.clusters ?? []} />
                  )}
                  {entry.clusters_changed !== null && entry.clusters_changed > (entry.clusters?.length ?? 0) && (
                    <div class="muted">{entry.clusters_changed.toLocaleString()} in all</div>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The commit's author as Git writes one: `Name <email>`, or the name alone. */
function authorOf(entry: RevisionEntry): string {
  const author = entry.author;
  if (!author) return '';
  return author.email ? `${author.name} <${author.email}>` : author.name;
}

/**
 * A Git commit id to its first 12 characters; other revision ids (a database counter, a hash) as they are when short.
 */
export function short(revision: string): string {
  return /^[0-9a-f]{40}/.test(revision) ? revision.slice(0, 12) + revision.slice(40) : revision;
}
