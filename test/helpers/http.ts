// A raw HTTP client: unlike fetch it neither adds Accept-Encoding nor decodes bodies, so tests
// see exactly the bytes the service sends.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
  json(): any;
}

export function request(
  baseUrl: string,
  path: string,
  options: { method?: string; token?: string; headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  return new Promise((resolve, reject) => {
    const req = httpRequest(new URL(path, baseUrl), { method: options.method ?? 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          text: body.toString('utf8'),
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/**
 * Polls `check` until it returns true or `timeoutMs` passes: for a condition with no event to
 * await (an answer over HTTP, a file another process writes). What has an event is awaited
 * instead: the store's loads and publications (./store-events.ts), a service's log lines
 * (untilLogged in ./service.ts, waitForOutput in ./process.ts).
 */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 3000,
  stepMs = 25,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}
