// GET /api/v2/gitops/revisions: the revisions this replica judged, newest first
// (store/revision-history.ts), `?cluster=<id>` for those that changed that cluster's answers,
// `?rollout=<id>` for those that created, changed or removed that rollout's record (both: each),
// in pages of `?limit=` entries (default 50, at most 1,000) and at most about 1 MiB, each
// answer naming in `next` the revision to pass as `?before=` for the page after it.
// Fleet-wide: a caller that reads everything (a cluster credential gets 403). Among replicas
// each judges the same revisions of the one store, so a replica's own list is the list:
// nothing is gathered from peers, and a page's `next` goes on at any replica.
import { Router } from 'express';
import { ID_RULE, isValidId } from '../../domain/ids.ts';
import { REVISIONS_KEPT } from '../../store/history/revision-history.ts';
import type { HistoryQuery } from '../../store/history/revision-history.ts';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { requireRole } from '../auth/authorize.ts';
import { ApiError, type ErrorDetail, invalidQuery, otherMethodsRefused } from '../errors.ts';
import { queryOf, REVISIONS_PATH } from '../paths.ts';
import { problemView } from './ready-view.ts';

export const DEFAULT_REVISIONS_LIMIT = 50;

export function revisionRoutes({
  auth,
  store,
}: {
  auth: Authenticator;
  store: Pick<StoreRunner, 'revisions'>;
}): Router {
  const router = Router();
  router.get(REVISIONS_PATH, requireRole(auth, 'read'), async (req, res) => {
    const query = parseRevisionsQuery(queryOf(req.originalUrl));
    const page = await store.revisions(query);
    if (!page) {
      throw new ApiError(
        'bad_request',
        `revision ${query.before} is not in this replica's history of revisions (it keeps the last ${REVISIONS_KEPT} ` +
          `judged); list from the newest again`,
        {
          details: [{ path: 'before', message: 'not a revision in the history' }],
        },
      );
    }
    const revisions = page.revisions.map((entry) => ({ ...entry, problems: entry.problems.map(problemView) }));
    res.set('cache-control', 'no-store').json({ revisions, next: page.next });
  });
  router.all(REVISIONS_PATH, otherMethodsRefused('GET, HEAD'));
  return router;
}

const QUERY_NAMES = ['cluster', 'rollout', 'limit', 'before'];

/** A revision id as the stores make them (a commit id, a marker of uncommitted edits, a counter, a hash). */
const REVISION_ID = /^[A-Za-z0-9._:+-]{1,200}$/;

/**
 * ?cluster=<id>, ?rollout=<id>, ?limit=<1..1000> and ?before=<revision>, each at most once; anything else is refused by
 * name.
 */
export function parseRevisionsQuery(query: string): HistoryQuery {
  const params = new URLSearchParams(query);
  const details: ErrorDetail[] = [];
  const parsed: HistoryQuery = { limit: DEFAULT_REVISIONS_LIMIT };
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    const value = values[0];
    if (!QUERY_NAMES.includes(name))
      details.push({ path: name, message: `unknown query parameter "${name}"; allowed: ${QUERY_NAMES.join(', ')}` });
    else if (values.length > 1) details.push({ path: name, message: 'must be given once' });
    else if (name === 'before') {
      if (REVISION_ID.test(value)) parsed.before = value;
      else details.push({ path: name, message: 'must be a revision id, as "next" gave it' });
    } else if (name === 'cluster' || name === 'rollout') {
      if (isValidId(value)) parsed[name] = value;
      else details.push({ path: name, message: `must be a ${name} id: ${ID_RULE}` });
    } else if (/^\d{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= REVISIONS_KEPT)
      parsed.limit = Number(value);
    else details.push({ path: name, message: `must be a whole number from 1 to ${REVISIONS_KEPT}` });
  }
  if (details.length > 0) {
    throw invalidQuery(details);
  }
  return parsed;
}
