// Every error answer has the body {"error": "<code>", "message": "<for a person>"} plus
// "details" for validation errors, whichever layer produced it. How the store's and the
// domain's typed errors become one of these is ./error-mapping.ts.
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Request } from 'express';
import { securityHeaderObject } from './transport/security-headers.ts';

export const ERROR_STATUS = {
  validation_error: 400,
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  unsupported_media_type: 415,
  response_too_large: 422,
  too_many_requests: 429,
  headers_too_large: 431,
  internal_error: 500,
  store_error: 503,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorDetail {
  /** The write of a change set the detail is about, counted from 0. */
  index?: number;
  path: string;
  message: string;
}

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { details?: ErrorDetail[]; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.code = code;
    this.details = options.details;
    this.headers = options.headers ?? {};
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  body(): { error: ErrorCode; message: string; details?: ErrorDetail[] } {
    return this.details
      ? { error: this.code, message: this.message, details: this.details }
      : { error: this.code, message: this.message };
  }
}

/** The challenge of every 401: the schemes a client may answer it with. */
export const WWW_AUTHENTICATE = 'Bearer realm="gitops-config-api", Basic realm="gitops-config-api", charset="UTF-8"';

/** No credential, or one that is not valid: 401 with the challenge. */
export function unauthorized(message: string): ApiError {
  return new ApiError('unauthorized', message, { headers: { 'www-authenticate': WWW_AUTHENTICATE } });
}

/** The challenge of a valid token whose scope is too small for the request (RFC 6750 §3.1). */
export const INSUFFICIENT_SCOPE = 'Bearer realm="gitops-config-api", error="insufficient_scope"';

/**
 * The shared read token on a write: 401, as the contract has it, but with a challenge that
 * tells a client the token itself is fine (another token, not the same one again, is needed).
 */
export function insufficientScope(message: string): ApiError {
  return new ApiError('unauthorized', message, { headers: { 'www-authenticate': INSUFFICIENT_SCOPE } });
}

/** A method the path does not take: 405, naming the methods it does take (in `Allow` too). */
export function methodNotAllowed(method: string, path: string, allow: string): ApiError {
  const message = `${method} is not allowed on ${path}; allowed: ${allow}`;
  return new ApiError('method_not_allowed', message, { headers: { allow } });
}

/** The last handler of an Express path: a method no handler before it answered gets the 405. */
export function otherMethodsRefused(allow: string): (req: Request) => never {
  return (req) => {
    throw methodNotAllowed(req.method, req.path, allow);
  };
}

/** Nothing is published yet (the first load has not finished, or was refused): 503, to be asked again soon. */
export function notLoaded(): ApiError {
  const message = 'no configuration has been loaded yet; see /ready';
  return new ApiError('unavailable', message, { headers: { 'retry-after': '5' } });
}

type QueryErrorCode = Extract<ErrorCode, 'bad_request' | 'validation_error'>;

/**
 * A query refused for what `details` names, each said in the message too: `bad_request`, or
 * `validation_error` on the REST paths, whose listing refused its query so from the start.
 */
export function invalidQuery(details: ErrorDetail[], code: QueryErrorCode = 'bad_request'): ApiError {
  const said = details.map((d) => `${d.path}: ${d.message}`).join('; ');
  return new ApiError(code, `invalid query: ${said}`, { details });
}

/** Writes an error answer on a plain Node response (the read path does not go through Express). */
export function writeError(res: ServerResponse, error: ApiError, head = false): void {
  const body = Buffer.from(JSON.stringify(error.body()));
  res.writeHead(error.status, {
    ...securityHeaderObject(res.socket),
    ...error.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
    'cache-control': 'no-store',
  });
  res.end(head ? undefined : body);
}

/**
 * A whole HTTP/1.1 error response as bytes, for a socket whose request never reached a
 * handler (the parser refused it): there is no ServerResponse to write it with. The
 * connection is closed after it, since the rest of what the client sent cannot be trusted to
 * be where the next request starts.
 */
export function rawErrorResponse(error: ApiError, extraHeaders: Readonly<Record<string, string>> = {}): Buffer {
  const body = JSON.stringify(error.body());
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
    ...Object.entries({ ...extraHeaders, ...error.headers }).map(([name, value]) => `${name}: ${value}`),
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    'cache-control: no-store',
    'connection: close',
  ];
  return Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`);
}
