// A request body read to its end through `take`, at most `maxBytes` of it: the one way the
// service reads a body it does not hand to Express (events, push webhooks). Past the bound the
// reading stops and `tooLarge()` is the error; a body cut off before its end is a 400.
import type { IncomingMessage } from 'node:http';
import { ApiError } from '../errors.ts';

/** Resolves with the body's length once `take` has seen every chunk of it. */
export function readBoundedBody(
  req: IncomingMessage,
  maxBytes: number,
  tooLarge: () => ApiError,
  take: (chunk: Buffer) => void,
): Promise<number> {
  let length = 0;
  return new Promise((resolve, reject) => {
    const stop = (error: ApiError) => {
      req.off('data', onData);
      // Paused, not destroyed: the answer still has to be written on this connection.
      req.pause();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      length += chunk.length;
      if (length > maxBytes) return stop(tooLarge());
      take(chunk);
    };
    req.on('data', onData);
    req.once('end', () => resolve(length));
    const broken = () => stop(new ApiError('bad_request', 'the request body ended before it was complete'));
    req.once('error', broken);
    req.once('close', () => {
      if (!req.complete) broken();
    });
  });
}
