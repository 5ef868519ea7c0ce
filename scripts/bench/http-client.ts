// A small keep-alive HTTP client on node:http for the benchmarks. Unlike fetch it hands back
// the bytes as sent (a gzip body stays compressed, so its size is what went over the wire)
// and costs little per request, so a tight loop of them measures the server, not the client.
import { Agent, type IncomingHttpHeaders, request } from 'node:http';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** performance.now() when the request was sent, and how long the answer took, ms. */
  sentAt: number;
  ms: number;
}

export class HttpClient {
  readonly port: number;
  readonly #agent: Agent;
  readonly #headers: Record<string, string>;

  /** `maxSockets` connections at most; `headers` go with every request (e.g. authorization). */
  constructor(port: number, maxSockets: number, headers: Record<string, string> = {}) {
    this.port = port;
    this.#agent = new Agent({ keepAlive: true, maxSockets });
    this.#headers = headers;
  }

  request(method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
    const sentAt = performance.now();
    return new Promise((resolve, reject) => {
      const req = request(
        {
          host: '127.0.0.1',
          port: this.port,
          method,
          path,
          agent: this.#agent,
          headers: { ...this.#headers, ...headers },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode!,
              headers: res.headers,
              body: Buffer.concat(chunks),
              sentAt,
              ms: performance.now() - sentAt,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
    return this.request('GET', path, headers);
  }

  close(): void {
    this.#agent.destroy();
  }
}

/** Runs `fn` over `items` with at most `limit` calls in flight, in order of the items. */
export async function forEachLimit<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await fn(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** One answer of a loop: when it was sent, how long it took, its status (no body kept). */
export interface Sample {
  sentAt: number;
  ms: number;
  status: number;
}

/**
 * Calls `fn` back to back until `stop()` says so, keeping only when each call was sent and
 * how long it took, so a caller can pick the calls that overlap a window.
 */
export async function loopUntil(fn: () => Promise<Answer>, stop: () => boolean): Promise<Sample[]> {
  const samples: Sample[] = [];
  while (!stop()) {
    const { sentAt, ms, status } = await fn();
    samples.push({ sentAt, ms, status });
  }
  return samples;
}
