// The one place where typed errors of the store and the domain become HTTP answers: which
// status, which error code, which details and headers. Also what Express's body parsing and
// Node's HTTP parser throw: a client's broken request is a 4xx with a JSON body like any other.
import { maxHeaderSize } from 'node:http';
import { formatLocation, type Problem, type RecordKey, recordName } from '../domain/problem.ts';
import type { WriteRefusal } from '../domain/writes/write-request.ts';
import { EventsRateLimited } from '../serving/event-rate-limit.ts';
import { type StoreFaultReason, StoreUnavailable, WriteRefused } from '../store/errors.ts';
import { IssuerUnavailable, PersonTokenInvalid } from './auth/caller.ts';
import { ApiError, type ErrorDetail, unauthorized } from './errors.ts';

/**
 * Seconds a client should wait before trying again, per store fault. None for a fault that
 * waiting does not mend: credentials refused, a change the remote refused (its content or
 * its update), a repository a person must repair.
 */
const RETRY_AFTER: Partial<Record<StoreFaultReason, number>> = {
  not_loaded: 5,
  locked: 1,
  kept_moving: 1,
  remote_unreachable: 5,
  disk_full: 30,
};

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof WriteRefused)
    return error.index === undefined ? fromRefusal(error.refusal) : fromSetRefusal(error.refusal, error.index);
  if (error instanceof StoreUnavailable) return fromStoreFault(error);
  // A cluster over its allowance of events: what it sent is not kept; it may send again after the pause.
  if (error instanceof EventsRateLimited) {
    const headers = { 'retry-after': String(error.retryAfterSeconds) };
    return new ApiError('too_many_requests', error.message, { headers });
  }
  // The verifier's messages say what is wrong with the token, and name the issuer when it is away.
  if (error instanceof PersonTokenInvalid) return unauthorized(error.message);
  // No person's token can be checked while the issuer is away; the other credentials still work.
  if (error instanceof IssuerUnavailable)
    return new ApiError('unavailable', error.message, { headers: { 'retry-after': '5' } });
  return (
    fromBodyParser(error) ?? new ApiError('internal_error', 'the request failed on the server; see the service logs')
  );
}

function fromRefusal(refusal: WriteRefusal): ApiError {
  switch (refusal.reason) {
    case 'invalid':
      return new ApiError('validation_error', refusal.message, {
        details: problemDetails(refusal.problems, refusal.subject),
      });
    case 'conflict':
      return new ApiError(
        'conflict',
        refusal.message,
        refusal.problems.length > 0 ? { details: problemDetails(refusal.problems, refusal.subject) } : {},
      );
    case 'not_found':
      return new ApiError('not_found', refusal.message);
    case 'precondition_failed':
      return new ApiError('precondition_failed', refusal.message);
  }
}

/**
 * A change set refused for one of its writes: the status that write alone would get, the
 * message saying which write, and every detail naming it by its index (404, 412 and a
 * conflict without problems get one detail, so that `details` always says which write).
 */
function fromSetRefusal(refusal: WriteRefusal, index: number): ApiError {
  const single = fromRefusal(refusal);
  const details: ErrorDetail[] = (single.details ?? [{ path: '', message: refusal.message }]).map((d) => ({
    index,
    path: d.path,
    message: d.message,
  }));
  return new ApiError(single.code, `write ${index}: ${refusal.message}`, { details, headers: single.headers });
}

function fromStoreFault(fault: StoreUnavailable): ApiError {
  const retry = RETRY_AFTER[fault.reason];
  const headers: Record<string, string> = retry === undefined ? {} : { 'retry-after': String(retry) };
  const code = fault.reason === 'not_loaded' ? 'unavailable' : 'store_error';
  const details = fault.problems.length > 0 ? storedProblemDetails(fault.problems) : undefined;
  return new ApiError(code, fault.message, { headers, ...(details ? { details } : {}) });
}

/** Paths inside the written record stay JSON pointers ("/platform_components/2/id"); other records are named. */
export function problemDetails(problems: readonly Problem[], subject: RecordKey | undefined): ErrorDetail[] {
  return problems.map((p) => {
    const own =
      !p.at.record ||
      (subject !== undefined && p.at.record.collection === subject.collection && p.at.record.id === subject.id);
    return { path: own ? p.at.field : `${recordName(p.at.record!)}${p.at.field}`, message: p.message };
  });
}

/** Problems of a stored revision: where they are (a file when there is one) and what. */
function storedProblemDetails(problems: readonly Problem[]): ErrorDetail[] {
  return problems.slice(0, 20).map((p) => ({
    path: p.at.file ?? formatLocation(p.at),
    message: p.at.file && p.at.field ? `${p.at.field}: ${p.message}` : p.message,
  }));
}

/** What Express's body parsing throws. */
function fromBodyParser(error: unknown): ApiError | undefined {
  const e = error as { type?: string; status?: number; message?: string; limit?: number };
  switch (e.type) {
    case 'entity.parse.failed':
      return new ApiError('bad_request', `the body is not valid JSON: ${e.message}`);
    case 'entity.too.large':
      return new ApiError('payload_too_large', `the body is larger than the limit of ${e.limit} bytes`);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError('unsupported_media_type', e.message ?? 'unsupported body encoding');
    case 'request.aborted':
      return new ApiError('bad_request', 'the request body ended before it was complete');
    case 'request.size.invalid':
      return new ApiError('bad_request', 'the body is not as long as its Content-Length says');
  }
  if (e.status === 400) return new ApiError('bad_request', e.message ?? 'bad request');
  return undefined;
}

/**
 * A request Node's HTTP parser refused ('clientError'): headers over Node's limit, a broken
 * chunked body, a request that is not HTTP, one that took too long to arrive.
 */
export function fromClientError(error: NodeJS.ErrnoException & { reason?: string }): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(
        'headers_too_large',
        `the request headers are larger than the limit of ${maxHeaderSize} bytes`,
      );
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError('payload_too_large', 'the chunk extensions of the request body are too large');
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'the request did not arrive in time');
  }
  const reason = error.reason ?? error.message;
  const chunked = error.code?.includes('CHUNK') ? ' (a malformed chunked body)' : '';
  return new ApiError('bad_request', `the request is not valid HTTP/1.1${chunked}: ${reason}`);
}
