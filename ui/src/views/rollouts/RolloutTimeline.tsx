// The commits that moved a rollout, newest first: its creation, releases (a person's or the
// service's own), approvals, pauses, resumptions and roll-backs — the revisions that changed
// its record (GET /api/v2/gitops/revisions?rollout=<id>), each with its author, time and
// message. Asked again with the rollout, in place.
import type { ApiClient } from '../../api/client.ts';
import { fetchRevisions } from '../../api/changes.ts';
import type { RevisionEntry } from '../../api/types.ts';
import { Loaded } from '../../components/common/Async.tsx';
import { Time, utc } from '../../components/common/Time.tsx';
import { usePolled } from '../../hooks/use-polled.ts';
import { REFRESH_MS } from './rollout-facts.tsx';

export function RolloutTimeline({ client, id, refreshKey }: { client: ApiClient; id: string; refreshKey: number }) {
  const answer = usePolled(
    (signal) => fetchRevisions(client, { rollout: id, limit: 100, signal }),
    [client, id],
    REFRESH_MS,
    refreshKey,
  );
  return (
    <section aria-labelledby="rollout-timeline">
      <h2 id="rollout-timeline">Timeline</h2>
      <Loaded value={answer} what="the rollout's commits">
        {(history) =>
          history.kind === 'not-kept' ? (
            <p class="muted">The service keeps no history of revisions: {history.message}.</p>
          ) : history.revisions.length === 0 ? (
            <p class="muted">No commit of this rollout is in the history the service keeps.</p>
          ) : (
            <ol class="timeline" aria-label="Commits of the rollout">
              {history.revisions.map((entry) => (
                <TimelineEntry key={entry.revision} entry={entry} />
              ))}
            </ol>
          )
        }
      </Loaded>
    </section>
  );
}

function TimelineEntry({ entry }: { entry: RevisionEntry }) {
  const [subject, ...body] = (entry.message ?? '').split('\n');
  const when = entry.time ?? entry.judged_at;
  return (
    <li>
      <p class="timeline-subject">{subject || <span class="muted">(no message known)</span>}</p>
      <p class="muted">
        <span class="timeline-author">{entry.author ? entry.author.name : 'author not known'}</span> ·{' '}
        <Time iso={when} /> ({utc(when)}) ·{' '}
        <code class="revision" title={entry.revision}>
          {entry.revision.slice(0, 12)}
        </code>
        {entry.result === 'refused' && <strong> · refused: never served</strong>}
      </p>
      {body.join('\n').trim() && <pre class="timeline-body">{body.join('\n').trim()}</pre>}
    </li>
  );
}
