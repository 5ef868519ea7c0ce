// The REST endpoints of crud mode: list, create, get, replace (PUT), merge-patch (PATCH)
// and delete for /clusters, /platform_components, /namespaces, /rolebindings and /rollouts.
//
// This layer turns a request into a WriteRequest (domain/writes/write-request.ts: what the
// client asked for), a change set of one with the Gitops-Commit-Message header as its
// message; the store runner applies it to the served revision inside its write lock, stores
// it and writes the audit line — or, with ?dryRun=All, answers the same and stores nothing
// (./write-options.ts). Every path is fleet-wide: GETs take a caller that reads everything,
// writes one that may write; a cluster credential gets 403.
import { type Request, type Response, Router } from 'express';
import type { Logger } from 'pino';
import { dnsKey } from '../../domain/cluster-dns.ts';
import { ID_RULE, isValidId } from '../../domain/ids.ts';
import { recordEtag } from '../../domain/writes/record-etag.ts';
import { messageLengthProblem, singleWrite } from '../../domain/writes/change-set.ts';
import { type AnyRecord, type Collection, COLLECTIONS, ENVIRONMENTS } from '../../domain/records.ts';
import type { Snapshot } from '../../domain/snapshot.ts';
import type { WriteRequest } from '../../domain/writes/write-request.ts';
import { WriteRefused } from '../../store/errors.ts';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { WriteResult } from '../../store/writes/write-path.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { requireRole } from '../auth/authorize.ts';
import { ApiError, invalidQuery, notLoaded, otherMethodsRefused } from '../errors.ts';
import { etagMatches } from '../etag-match.ts';
import { parseJsonBody } from './json-body.ts';
import { commitMessageHeader, isDryRun, readDryRun, writeAuthor } from './write-options.ts';

export interface RestDeps {
  store: StoreRunner;
  auth: Authenticator;
  log: Logger;
  /** Largest accepted request body, in bytes (MAX_BODY_SIZE). */
  maxBodyBytes: number;
}

export const MAX_LIMIT = 10_000;

const FILTERS: Record<Collection, string[]> = {
  clusters: ['environment', 'cluster_dns'],
  platform_components: [],
  namespaces: [],
  rolebindings: [],
  rollouts: [],
};

export function restRoutes(deps: RestDeps): Router {
  const router = Router();
  const jsonBody = parseJsonBody(deps.maxBodyBytes);
  // The caller is kept on res.locals for the request log, the metrics and the write's author.
  const writer = requireRole(deps.auth, 'write');
  const reader = requireRole(deps.auth, 'read');

  const current = (): Snapshot => {
    const published = deps.store.published();
    if (!published) throw notLoaded();
    return published.snapshot;
  };

  /** Who writes, for the store: the role the request carried and the caller as plain data. */
  const by = writeAuthor;

  /**
   * One REST write: a change set of one, with the header's message. Its refusal is the
   * write's own: no index names it, as no other write is in its set.
   */
  const store = async (req: Request, res: Response, write: WriteRequest): Promise<WriteResult> => {
    const message = commitMessageHeader(req);
    const tooLong = message === undefined ? undefined : messageLengthProblem(message);
    if (tooLong)
      throw new ApiError('validation_error', `the Gitops-Commit-Message header ${tooLong}`, {
        details: [{ path: 'Gitops-Commit-Message', message: tooLong }],
      });
    const request = { writes: [write], ...by(res), ...(message === undefined ? {} : { message }) };
    try {
      return await deps.store.write(request, { dryRun: isDryRun(res) });
    } catch (error) {
      throw error instanceof WriteRefused ? new WriteRefused(error.refusal) : error;
    }
  };
  /** The written record, and the revision to name: the new one, or in a dry run the one served (nothing changed). */
  const written = ({ applied, revisionBefore, revisionAfter }: WriteResult) => ({
    record: singleWrite(applied).record,
    revision: revisionAfter ?? revisionBefore,
  });

  for (const collection of COLLECTIONS) {
    const base = `/${collection}`;
    const item = `/${collection}/:id`;

    router.get(base, reader, (req, res) => {
      const snapshot = current();
      const query = parseListQuery(collection, req.query);
      let records = [...(snapshot[collection] as ReadonlyMap<string, AnyRecord>).values()];
      if (collection === 'clusters') {
        const dns = query.cluster_dns === undefined ? undefined : dnsKey(query.cluster_dns);
        records = records.filter((r) => {
          const c = r as { environment: string; cluster_dns: string };
          return (
            (query.environment === undefined || c.environment === query.environment) &&
            (dns === undefined || dnsKey(c.cluster_dns) === dns)
          );
        });
      }
      const page = records.slice(query.offset, query.limit === undefined ? undefined : query.offset + query.limit);
      res
        .set({
          'x-total-count': String(records.length),
          'x-config-revision': snapshot.revision,
          'cache-control': 'no-cache',
        })
        .json(page);
    });

    router.post(base, writer, readDryRun, jsonBody, async (req, res) => {
      const body = bodyObject(req.body, 'the record');
      const { record, revision } = written(await store(req, res, { kind: 'create', collection, ...by(res), body }));
      sendRecord(res, 201, record!, revision, { location: `/${collection}/${encodeURIComponent(record!.id)}` });
    });

    router.all(base, otherMethodsRefused('GET, HEAD, POST'));

    router.get(item, reader, (req, res) => {
      const id = pathId(req);
      const snapshot = current();
      const record = (snapshot[collection] as ReadonlyMap<string, AnyRecord>).get(id);
      if (!record) throw notFound(collection, id);
      const etag = recordEtag(record);
      res.set({ etag, 'x-config-revision': snapshot.revision, 'cache-control': 'no-cache' });
      if (etagMatches(req.headers['if-none-match'], etag)) {
        res.status(304).end();
        return;
      }
      res.json(record);
    });

    router.put(item, writer, readDryRun, jsonBody, async (req, res) => {
      const request = {
        kind: 'replace' as const,
        collection,
        ...by(res),
        id: pathId(req),
        body: bodyObject(req.body, 'the whole record'),
      };
      const { record, revision } = written(await store(req, res, { ...request, ...ifMatch(req) }));
      sendRecord(res, 200, record!, revision);
    });
    router.patch(item, writer, readDryRun, jsonBody, async (req, res) => {
      const request = {
        kind: 'merge-patch' as const,
        collection,
        ...by(res),
        id: pathId(req),
        patch: bodyObject(req.body, 'a JSON Merge Patch'),
      };
      const { record, revision } = written(await store(req, res, { ...request, ...ifMatch(req) }));
      sendRecord(res, 200, record!, revision);
    });
    router.delete(item, writer, readDryRun, async (req, res) => {
      const { revision } = written(
        await store(req, res, { kind: 'delete', collection, ...by(res), id: pathId(req), ...ifMatch(req) }),
      );
      res.status(204).set({ 'x-config-revision': revision, 'cache-control': 'no-store' }).end();
    });

    router.all(item, otherMethodsRefused('GET, HEAD, PUT, PATCH, DELETE'));
  }
  return router;
}

function sendRecord(
  res: Response,
  status: number,
  record: AnyRecord,
  revision: string,
  extra: Record<string, string> = {},
): void {
  res
    .status(status)
    .set({ ...extra, etag: recordEtag(record), 'x-config-revision': revision, 'cache-control': 'no-store' })
    .json(record);
}

function notFound(collection: Collection, id: string): ApiError {
  return new ApiError('not_found', `${collection}/${id} not found`);
}

/** The id of the path; anything that is not a safe file name is refused before it reaches a store. */
function pathId(req: Request): string {
  const id = req.params.id as string;
  if (!isValidId(id)) {
    throw new ApiError('validation_error', `"${id}" is not a valid id: an id is ${ID_RULE}`, {
      details: [{ path: 'id', message: `must be ${ID_RULE}` }],
    });
  }
  return id;
}

function bodyObject(body: unknown, what: string): Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ApiError('validation_error', `the body must be a JSON object (${what})`, {
      details: [{ path: '', message: 'must be an object' }],
    });
  }
  return body as Record<string, unknown>;
}

function ifMatch(req: Request): { ifMatch?: string } {
  const header = req.headers['if-match'];
  return header === undefined ? {} : { ifMatch: header };
}

interface ListQuery {
  limit: number | undefined;
  offset: number;
  environment?: string;
  cluster_dns?: string;
}

/** ?limit= (1..10000), ?offset= (0..), and the collection's filters; anything else is refused by name. */
export function parseListQuery(collection: Collection, query: Record<string, unknown>): ListQuery {
  const details: { path: string; message: string }[] = [];
  const allowed = ['limit', 'offset', ...FILTERS[collection]];
  const single = (name: string): string | undefined => {
    const value = query[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'string') {
      details.push({ path: name, message: 'must be given once' });
      return undefined;
    }
    return value;
  };
  for (const name of Object.keys(query)) {
    if (!allowed.includes(name))
      details.push({ path: name, message: `unknown query parameter "${name}"; allowed: ${allowed.join(', ')}` });
  }
  const integer = (name: string, min: number, max: number): number | undefined => {
    const raw = single(name);
    if (raw === undefined) return undefined;
    const value = /^\d{1,16}$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= min && value <= max)) {
      details.push({
        path: name,
        message: `must be a whole number from ${min} to ${max === Number.MAX_SAFE_INTEGER ? 'up' : max}`,
      });
      return undefined;
    }
    return value;
  };
  const result: ListQuery = {
    limit: integer('limit', 1, MAX_LIMIT),
    offset: integer('offset', 0, Number.MAX_SAFE_INTEGER) ?? 0,
  };
  if (collection === 'clusters') {
    const environment = single('environment');
    if (environment !== undefined && !(ENVIRONMENTS as readonly string[]).includes(environment)) {
      details.push({ path: 'environment', message: `must be one of: ${ENVIRONMENTS.join(', ')}` });
    }
    const dns = single('cluster_dns');
    if (dns === '') details.push({ path: 'cluster_dns', message: 'must not be empty' });
    if (environment !== undefined) result.environment = environment;
    if (dns) result.cluster_dns = dns;
  }
  if (details.length > 0) {
    throw invalidQuery(details, 'validation_error');
  }
  return result;
}
