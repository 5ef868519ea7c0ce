// The body of an event (POST /api/v2/gitops/events): at most EVENT_MAX_BODY_BYTES, read whole —
// a generic-hmac signature covers every byte of it. A Content-Length over the bound is refused
// before a byte is read, and a body that grows past it while it streams is refused there; in
// both cases the connection is closed after the answer.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.ts';
import { readBoundedBody } from '../transport/bounded-body.ts';

/** 64 KiB: notification-controller's events are a few KiB; a message it sends is at most 39,000 characters. */
export const EVENT_MAX_BODY_BYTES = 64 * 1024;

export async function readEventBody(req: IncomingMessage): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > EVENT_MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  const length = await readBoundedBody(req, EVENT_MAX_BODY_BYTES, tooLarge, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks, length);
}

/** The body as JSON: a 400 saying where it breaks. */
export function eventJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (error) {
    throw new ApiError('bad_request', `the event is not valid JSON: ${(error as Error).message}`);
  }
}

function tooLarge(): ApiError {
  return new ApiError(
    'payload_too_large',
    `an event is at most ${EVENT_MAX_BODY_BYTES} bytes (64 KiB); this one is larger and is not kept`,
    {
      headers: { connection: 'close' },
    },
  );
}
