// POST /api/v2/gitops/changes (crud mode, write role): several writes in one request,
// applied in order to the served revision, judged once as a whole and stored as one commit
// with the request's message, or refused all together with the failing write's index
// (domain/writes/change-set.ts). ?dryRun=All answers the same and stores nothing.
//
// This layer checks the body's shape — each write's op, collection, id, record or patch,
// if_match — naming the write by its index, and turns it into a ChangeSetRequest; the store
// runner does the rest, exactly as for a single REST write.
import { Router } from 'express';
import { ID_RULE, isValidId } from '../../domain/ids.ts';
import { type AnyRecord, type Collection, COLLECTIONS } from '../../domain/records.ts';
import type { Steps } from '../../domain/steps.ts';
import {
  type AppliedChangeSet,
  type ChangeSetRequest,
  MAX_CHANGE_SET_WRITES,
  messageLengthProblem,
} from '../../domain/writes/change-set.ts';
import { recordEtag } from '../../domain/writes/record-etag.ts';
import type { Role, WriteAuthor, WriteRequest } from '../../domain/writes/write-request.ts';
import { TextBytes } from './json-in-slices.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { requireRole } from '../auth/authorize.ts';
import { ApiError, type ErrorDetail, otherMethodsRefused } from '../errors.ts';
import { parseJsonBody } from './json-body.ts';
import { CHANGES_PATH } from '../paths.ts';
import { isDryRun, messageProblem, readDryRun, writeAuthor } from './write-options.ts';

export interface ChangeSetRouteDeps {
  store: StoreRunner;
  auth: Authenticator;
  /** Largest accepted request body, in bytes (MAX_BODY_SIZE). */
  maxBodyBytes: number;
}

const OPS = ['create', 'replace', 'patch', 'delete'] as const;
type Op = (typeof OPS)[number];
/** The fields each op takes besides op, collection and id. */
const FIELDS: Record<Op, readonly string[]> = {
  create: ['record'],
  replace: ['record', 'if_match'],
  patch: ['patch', 'if_match'],
  delete: ['if_match'],
};

/** One record as the answer names it: as stored after the set, or null when it is gone. */
interface StoredRecord {
  collection: Collection;
  id: string;
  record: AnyRecord | null;
  etag: string | null;
}

export function changeSetRoutes(deps: ChangeSetRouteDeps): Router {
  const router = Router();
  router.post(
    CHANGES_PATH,
    requireRole(deps.auth, 'write'),
    readDryRun,
    parseJsonBody(deps.maxBodyBytes),
    async (req, res) => {
      const request = changeSetRequest(req.body, writeAuthor(res));
      const dryRun = isDryRun(res);
      const { applied, revisionBefore, revisionAfter } = await deps.store.write(request, { dryRun });
      // Up to 1,000 records of up to a megabyte: written out in slices, polls let in between.
      const body = await runInSlices(answerText(applied, revisionAfter));
      res
        .status(201)
        .set({
          'x-config-revision': revisionAfter ?? revisionBefore,
          'cache-control': 'no-store',
          'content-type': 'application/json; charset=utf-8',
        })
        .send(body);
    },
  );
  router.all(CHANGES_PATH, otherMethodsRefused('POST'));
  return router;
}

/** The answer: the new revision, whether anything changed, and every record the writes named, as stored. */
function* answerText(applied: AppliedChangeSet, revision: string | null): Steps<Buffer> {
  const out = new TextBytes();
  out.add(`{"revision":${JSON.stringify(revision)},"unchanged":${applied.unchanged},"records":[`);
  for (const [i, { collection, id }] of applied.touched.entries()) {
    const record = applied.snapshot[collection].get(id) ?? null;
    const stored: StoredRecord = { collection, id, record, etag: record === null ? null : recordEtag(record) };
    out.add(`${i === 0 ? '' : ','}${JSON.stringify(stored)}`);
    yield;
  }
  out.add(']}');
  return out.bytes();
}

/** The body as a change set, or a 400 naming every problem of its shape (each write's by its index). */
export function changeSetRequest(body: unknown, by: { role: Role; who: WriteAuthor }): ChangeSetRequest {
  const details: ErrorDetail[] = [];
  const refuse = (): never => {
    const summary = details
      .slice(0, 3)
      .map((d) => `${d.index === undefined ? '' : `write ${d.index}: `}${d.path}: ${d.message}`)
      .join('; ');
    throw new ApiError(
      'validation_error',
      `the change set is malformed: ${summary}${details.length > 3 ? '; ...' : ''}`,
      { details },
    );
  };
  if (!isObject(body)) {
    details.push({ path: '', message: 'must be an object with "writes" (and "message")' });
    return refuse();
  }
  for (const key of Object.keys(body))
    if (key !== 'message' && key !== 'writes')
      details.push({ path: key, message: 'unknown field; a change set has "message" and "writes"' });
  const { message, writes } = body;
  if (message !== undefined && typeof message !== 'string')
    details.push({ path: 'message', message: 'must be a string' });
  else if (typeof message === 'string') {
    const why = messageProblem(message) ?? messageLengthProblem(message);
    if (why) details.push({ path: 'message', message: why });
  }
  if (!Array.isArray(writes) || writes.length === 0 || writes.length > MAX_CHANGE_SET_WRITES) {
    details.push({ path: 'writes', message: `must be an array of 1 to ${MAX_CHANGE_SET_WRITES} writes` });
    return refuse();
  }
  const requests = writes.map((write, index) => writeRequest(write, index, by, details));
  if (details.length > 0) return refuse();
  return { writes: requests as WriteRequest[], ...by, ...(typeof message === 'string' ? { message } : {}) };
}

/** One write of the body, or undefined with its problems added to `details`. */
function writeRequest(
  write: unknown,
  index: number,
  by: { role: Role; who: WriteAuthor },
  details: ErrorDetail[],
): WriteRequest | undefined {
  const problem = (path: string, message: string): undefined => {
    details.push({ index, path, message });
    return undefined;
  };
  if (!isObject(write)) return problem('', 'must be an object with "op", "collection" and "id"');
  const { op, collection, id } = write;
  if (typeof op !== 'string' || !(OPS as readonly string[]).includes(op))
    return problem('op', `must be one of: ${OPS.join(', ')}`);
  const known = ['op', 'collection', 'id', ...FIELDS[op as Op]];
  const before = details.length;
  for (const key of Object.keys(write))
    if (!known.includes(key)) problem(key, `unknown field for "${op}"; it takes: ${known.join(', ')}`);
  if (typeof collection !== 'string' || !(COLLECTIONS as readonly string[]).includes(collection))
    problem('collection', `must be one of: ${COLLECTIONS.join(', ')}`);
  if (typeof id !== 'string' || !isValidId(id)) problem('id', `must be ${ID_RULE}`);
  const field = op === 'patch' ? 'patch' : op === 'delete' ? undefined : 'record';
  const content = field === undefined ? undefined : write[field];
  if (field !== undefined && !isObject(content)) problem(field, 'must be a JSON object');
  if (op === 'create' && isObject(content) && 'id' in content && content.id !== id)
    problem('record/id', `must be "${String(id)}" (the write's id) or left out`);
  const ifMatch = write.if_match;
  const ifMatchWrong = ifMatch === undefined ? undefined : ifMatchProblem(ifMatch);
  if (ifMatchWrong !== undefined) problem('if_match', ifMatchWrong);
  if (details.length > before) return undefined;
  const common = { collection: collection as Collection, ...by };
  const precondition = ifMatch === undefined ? {} : { ifMatch: ifMatch as string };
  switch (op as Op) {
    case 'create':
      return { kind: 'create', ...common, body: { id, ...(content as Record<string, unknown>) } };
    case 'replace':
      return {
        kind: 'replace',
        ...common,
        id: id as string,
        body: content as Record<string, unknown>,
        ...precondition,
      };
    case 'patch':
      return {
        kind: 'merge-patch',
        ...common,
        id: id as string,
        patch: content as Record<string, unknown>,
        ...precondition,
      };
    case 'delete':
      return { kind: 'delete', ...common, id: id as string, ...precondition };
  }
}

/** One strong entity-tag (RFC 9110): a quoted string of visible ASCII but the quote. */
const ONE_STRONG_ETAG = /^"[\x21\x23-\x7e]*"$/;

/**
 * Why a write's if_match is not one ETag, or undefined. Unlike the If-Match header of a REST
 * write, a change set's if_match names the one version of the record the write was made on:
 * a list would let the write apply to any of several versions, `*` says nothing a write to an
 * existing record does not (leave if_match out to write whatever the record holds), and a
 * weak tag never matches.
 */
function ifMatchProblem(ifMatch: unknown): string | undefined {
  if (typeof ifMatch !== 'string') return 'must be a string: the ETag as GET returned it';
  const given = ifMatch.trim();
  if (ONE_STRONG_ETAG.test(given)) return undefined;
  if (given === '*') {
    return 'must be the ETag the write was made on, not *; leave if_match out to write whatever the record holds';
  }
  if (given.startsWith('W/')) return 'must be a strong ETag: a weak one (W/"…") never matches';
  if (given.includes(',')) return 'must be one ETag, not a list: a write is made on one version of the record';
  return 'must be an ETag as GET returned it, in its quotes ("…")';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
