// Reading a JSON request body (the REST writes): a body is there, it says it is JSON in
// UTF-8, it fits MAX_BODY_SIZE, it parses, it does not nest too deep, and no object in it
// gives a key twice. Every refusal is a 4xx with the JSON error body.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError } from '../errors.ts';
import { findDuplicateKey } from './json-duplicate-keys.ts';

/** Media types read as JSON: application/json, application/merge-patch+json, any other +json. */
export const JSON_TYPES = ['application/json', 'application/merge-patch+json', '+json'];

/**
 * Deepest nesting of arrays and objects a request body may have. No record comes near it;
 * the limit is there so that nothing that walks a body (the merge patch, the schema check,
 * cloning) can be made to recurse until the stack overflows.
 */
export const MAX_BODY_DEPTH = 32;

/** The body's bytes as the parser read them, kept for the duplicate-key scan. */
const RAW_BODY = Symbol('raw JSON body');

// JSON between systems is UTF-8 (RFC 8259); the bytes are read back as the parser read them,
// a byte order mark dropped.
const UTF8 = new TextDecoder('utf-8');

export function parseJsonBody(limitBytes: number): RequestHandler {
  const parseJson = express.json({
    limit: limitBytes,
    type: JSON_TYPES,
    strict: true,
    verify: (req, _res, bytes) => {
      (req as Request & { [RAW_BODY]?: Buffer })[RAW_BODY] = bytes;
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    const length = req.headers['content-length'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody) throw new ApiError('validation_error', 'the request needs a JSON body');
    if (!req.is(JSON_TYPES)) {
      const got = req.headers['content-type'] ?? 'no Content-Type';
      throw new ApiError(
        'unsupported_media_type',
        `the body must be JSON: send Content-Type: application/json${req.method === 'PATCH' ? ' or application/merge-patch+json' : ''} (got ${got})`,
      );
    }
    const charset = charsetOf(req.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError('unsupported_media_type', `a JSON body is UTF-8; got charset=${charset}`);
    }
    parseJson(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(error);
        return;
      }
      if (nestedDeeperThan(req.body, MAX_BODY_DEPTH)) {
        next(new ApiError('bad_request', `the body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep`));
        return;
      }
      const bytes = (req as Request & { [RAW_BODY]?: Buffer })[RAW_BODY];
      const duplicate = bytes && bytes.length > 0 ? findDuplicateKey(UTF8.decode(bytes)) : undefined;
      if (duplicate) {
        next(
          new ApiError('bad_request', `the body gives the key ${JSON.stringify(duplicate.key)} twice in one object (at ${duplicate.path}); give each key once`, {
            details: [{ path: duplicate.path, message: `duplicate key ${JSON.stringify(duplicate.key)}` }],
          }),
        );
        return;
      }
      next();
    });
  };
}

/** The charset parameter of a Content-Type, in lower case; undefined when there is none. */
function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? '').toLowerCase() : undefined;
}

/**
 * Whether arrays and objects nest more than `max` levels deep in a parsed JSON value (the
 * value itself, if an array or object, is level 1). Walks with its own stack, never by
 * recursion, so a body 100,000 levels deep is answered like one 33 levels deep; it stops at
 * the first value found too deep.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > max) return true;
    for (const child of Object.values(item.value)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: item.depth + 1 });
    }
  }
  return false;
}
