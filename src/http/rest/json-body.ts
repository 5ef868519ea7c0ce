// Reading a JSON request body (the REST writes): a body is there, it says it is JSON in
// UTF-8, it fits MAX_BODY_SIZE, it parses, it does not nest too deep, and no object in it
// gives a key twice. Every refusal is a 4xx with the JSON error body.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { ApiError } from '../errors.ts';
import { runSteps, type Steps } from '../../domain/steps.ts';
import { runInSlices } from '../../store/runner/event-loop.ts';
import { duplicateKeySteps } from './json-duplicate-keys.ts';

/** Media types read as JSON: application/json, application/merge-patch+json, any other +json. */
export const JSON_TYPES = ['application/json', 'application/merge-patch+json', '+json'];

/**
 * Deepest nesting of arrays and objects a request body may have. No record comes near it;
 * the limit is there so that nothing that walks a body (the merge patch, the schema check,
 * cloning) can be made to recurse until the stack overflows.
 */
export const MAX_BODY_DEPTH = 32;

// JSON between systems is UTF-8 (RFC 8259): bytes that are not are refused rather than
// stored with replacement characters; a byte order mark is dropped.
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** JSON's whitespace, then the first character of the value. */
const FIRST_CHARACTER = /^[ \t\n\r]*([^ \t\n\r])/;

export function parseJsonBody(limitBytes: number): RequestHandler {
  // The bytes are read by Express (its limit, Content-Length and encoding checks), and the
  // text decoded once, for JSON.parse and the duplicate-key scan alike.
  const readBytes = express.raw({ limit: limitBytes, type: JSON_TYPES });
  return (req: Request, res: Response, next: NextFunction): void => {
    const length = req.headers['content-length'];
    const hasBody = req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
    if (!hasBody) throw new ApiError('validation_error', 'the request needs a JSON body');
    if (!req.is(JSON_TYPES)) {
      const got = req.headers['content-type'] ?? 'no Content-Type';
      throw new ApiError(
        'unsupported_media_type',
        `the body must be JSON: send Content-Type: ` +
          `application/json${req.method === 'PATCH' ? ' or application/merge-patch+json' : ''} (got ${got})`,
      );
    }
    const charset = charsetOf(req.headers['content-type']);
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      throw new ApiError('unsupported_media_type', `a JSON body is UTF-8; got charset=${charset}`);
    }
    readBytes(req, res, (error?: unknown) => {
      if (error !== undefined) {
        next(error);
        return;
      }
      parsedBody(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)).then((body) => {
        req.body = body;
        next();
      }, next);
    });
  };
}

/**
 * The body parsed, checked for depth and for keys given twice. The two checks run in slices
 * (a body of a megabyte is tens of milliseconds of walking and reading: polls are let in
 * meanwhile); JSON.parse of it is a few milliseconds in one piece.
 */
async function parsedBody(bytes: Buffer): Promise<unknown> {
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw new ApiError('bad_request', 'the body is not valid UTF-8; JSON is sent in UTF-8');
  }
  const first = FIRST_CHARACTER.exec(text)?.[1];
  if (first !== undefined && first !== '{' && first !== '[')
    throw new ApiError('bad_request', 'the body is not valid JSON: it must be an object or an array');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    throw new ApiError('bad_request', `the body is not valid JSON: ${(error as Error).message}`);
  }
  if (await runInSlices(nestedDeeperThanSteps(body, MAX_BODY_DEPTH))) {
    throw new ApiError('bad_request', `the body nests arrays and objects more than ${MAX_BODY_DEPTH} levels deep`);
  }
  const duplicate = await runInSlices(duplicateKeySteps(text));
  if (duplicate) {
    throw new ApiError(
      'bad_request',
      `the body gives the key ${JSON.stringify(duplicate.key)} twice in one object (at ${duplicate.path}); give each ` +
        `key once`,
      {
        details: [{ path: duplicate.path, message: `duplicate key ${JSON.stringify(duplicate.key)}` }],
      },
    );
  }
  return body;
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
  return runSteps(nestedDeeperThanSteps(value, max));
}

function* nestedDeeperThanSteps(value: unknown, max: number): Steps<boolean> {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  let walked = 0;
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    if (++walked % 4096 === 0) yield;
    if (item.value === null || typeof item.value !== 'object') continue;
    if (item.depth > max) return true;
    for (const child of Object.values(item.value)) {
      if (child !== null && typeof child === 'object') stack.push({ value: child, depth: item.depth + 1 });
    }
  }
  return false;
}
