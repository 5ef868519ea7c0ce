// The body of a push webhook, read so that its size costs no memory. GitHub signs the whole
// body, so all of it must pass through the HMAC; but of its content the service needs one
// field, `ref`, which both GitHub and GitLab put among the first of the payload. So the body
// is hashed as it streams in and only its first WEBHOOK_KEPT_BYTES are kept: a push of
// thousands of commits (megabytes of payload) is verified and acted on like a small one,
// and a hundred bodies arriving at once hold a few megabytes, not a hundred times the limit.
import { createHmac, type Hmac } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.ts';
import { readBoundedBody } from '../transport/bounded-body.ts';

/**
 * The largest body taken: GitHub and GitLab deliver no payload above 25 MB, so a larger one
 * is from neither. It only bounds how long a body is read; memory is WEBHOOK_KEPT_BYTES.
 */
export const WEBHOOK_MAX_BODY_BYTES = 25 * 1024 * 1024;

/**
 * How much of the body is kept to read `ref` from. A push of one commit is 5–10 KB of JSON
 * (most of it the repository's description); one of up to about twenty commits fits whole
 * and is parsed as JSON. Of a larger one the leading fields are read (see pushedRef).
 */
export const WEBHOOK_KEPT_BYTES = 64 * 1024;

export interface WebhookBody {
  /** The first WEBHOOK_KEPT_BYTES of the body (all of it when `whole`). */
  head: Buffer;
  /** The whole body is in `head`. */
  whole: boolean;
  /** `sha256=<hex HMAC-SHA256 of the whole body>`, when a key was given. */
  signature: string | undefined;
}

/** The Content-Length is larger than any webhook: answered before a byte of the body is read. */
export function checkDeclaredLength(req: IncomingMessage): void {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > WEBHOOK_MAX_BODY_BYTES) throw tooLarge();
}

/** Reads the body to its end, hashing it with `hmacKey` (GitHub) and keeping only its head. */
export async function readWebhookBody(req: IncomingMessage, hmacKey: string | undefined): Promise<WebhookBody> {
  const hmac: Hmac | undefined = hmacKey === undefined ? undefined : createHmac('sha256', hmacKey);
  const kept: Buffer[] = [];
  let keptBytes = 0;
  const length = await readBoundedBody(req, WEBHOOK_MAX_BODY_BYTES, tooLarge, (chunk) => {
    hmac?.update(chunk);
    if (keptBytes < WEBHOOK_KEPT_BYTES) {
      const part = chunk.subarray(0, WEBHOOK_KEPT_BYTES - keptBytes);
      // A copy: a slice would keep the whole chunk's memory alive.
      kept.push(Buffer.from(part));
      keptBytes += part.length;
    }
  });
  return {
    head: Buffer.concat(kept),
    whole: length === keptBytes,
    signature: hmac ? `sha256=${hmac.digest('hex')}` : undefined,
  };
}

/**
 * The `ref` a push names (`refs/heads/main`), or undefined when the payload names none. A
 * body kept whole must be JSON. Of a longer one, `ref` is read from the leading fields of the
 * top-level object: GitHub sends it first, GitLab after a few short fields (object_kind,
 * event_name, before, after), so it is among the first bytes; a `ref` not found there leaves
 * the push's branch unknown, and the sync runs (a sync that finds nothing new costs one
 * fetch).
 */
export function pushedRef(body: WebhookBody): string | undefined {
  const text = body.head.toString('utf8');
  if (body.whole) {
    if (text.trim() === '') return undefined;
    let payload: unknown;
    try {
      payload = JSON.parse(text);
    } catch {
      throw new ApiError('bad_request', 'the webhook body is not JSON');
    }
    const ref = (payload as { ref?: unknown } | null)?.ref;
    return typeof ref === 'string' ? ref : undefined;
  }
  const match = LEADING_REF.exec(text);
  if (!match) return undefined;
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    return undefined;
  }
}

/** A JSON string's body (escapes included), and a scalar that is not a string. */
const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const SCALAR = String.raw`[-+.\w]+`;
/** `{`, then any number of `"key": <string or scalar>,` (no nested value), then `"ref": "<...>"`. */
const LEADING_REF = new RegExp(
  String.raw`^\s*\{(?:\s*${STRING}\s*:\s*(?:${STRING}|${SCALAR})\s*,)*?\s*"ref"\s*:\s*"((?:[^"\\]|\\.)*)"`,
);

function tooLarge(): ApiError {
  return new ApiError(
    'payload_too_large',
    `the webhook body is larger than ${WEBHOOK_MAX_BODY_BYTES} bytes (25 MiB, the most a Git host sends)`,
    {
      headers: { connection: 'close' },
    },
  );
}
