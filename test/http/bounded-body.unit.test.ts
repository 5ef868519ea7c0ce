// The one reader of bodies the service does not hand to Express (events, push webhooks), on a
// stream standing in for a request: every chunk seen and the length told, the bound enforced
// as the body streams, and a body cut off before its end refused.
import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/http/errors.ts';
import { readBoundedBody } from '../../src/http/transport/bounded-body.ts';

const tooLarge = () => new ApiError('payload_too_large', 'too large');

function body(): PassThrough & { complete: boolean } {
  return Object.assign(new PassThrough(), { complete: false });
}

const read = (req: PassThrough, max: number, take: (chunk: Buffer) => void) =>
  readBoundedBody(req as unknown as IncomingMessage, max, tooLarge, take);

describe('readBoundedBody', () => {
  it('hands every chunk over in order and resolves with the length', async () => {
    const req = body();
    const seen: string[] = [];
    const length = read(req, 10, (c) => seen.push(c.toString()));
    req.write('abc');
    req.write('defg');
    req.complete = true;
    req.end('hij');
    expect(await length).toBe(10);
    expect(seen.join('')).toBe('abcdefghij');
  });

  it('stops at the first chunk past the bound: that chunk is not taken, the stream is paused', async () => {
    const req = body();
    const seen: string[] = [];
    const length = read(req, 5, (c) => seen.push(c.toString()));
    req.write('abc');
    req.write('def');
    await expect(length).rejects.toMatchObject({ code: 'payload_too_large' });
    expect(seen).toEqual(['abc']);
    expect(req.isPaused()).toBe(true);
    expect(req.listenerCount('data')).toBe(0);
  });

  it('refuses a body whose connection closed before its end', async () => {
    const req = body();
    const length = read(req, 100, () => undefined);
    req.write('abc');
    req.destroy();
    await expect(length).rejects.toMatchObject({ code: 'bad_request', message: /ended before it was complete/ });
  });
});
