// The yardstick for the read benchmarks: a minimal node:http server that answers each path
// with bytes it holds in memory, after the check any served endpoint needs: the request's
// Bearer token compared with the expected one in constant time (a loop over every character,
// as the service compares its tokens), 401 without it. Input on stdin: {"token": "<token>",
// "plain": {"<path>": "<body>"}, "gzip": {"<path>": "<base64 of the gzip bytes>"}} (gzip
// optional: sent when the client accepts it, as the service does). Prints its port.
import { createServer } from 'node:http';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
  token: string;
  plain: Record<string, string>;
  gzip?: Record<string, string>;
};
const token = input.token;
const plain = new Map(Object.entries(input.plain).map(([k, v]) => [k, Buffer.from(v)]));
const gzip = new Map(Object.entries(input.gzip ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')]));
const BEARER = 'Bearer ';

/** Time that depends on the expected token's length only. */
function bearerMatches(header: string | undefined): boolean {
  if (header === undefined || !header.startsWith(BEARER)) return false;
  const presented = header.slice(BEARER.length);
  let difference = presented.length ^ token.length;
  for (let i = 0; i < token.length; i++) difference |= (presented.charCodeAt(i) | 0) ^ token.charCodeAt(i);
  return difference === 0;
}

const server = createServer((req, res) => {
  if (!bearerMatches(req.headers.authorization)) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
    return;
  }
  const zipped = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '') ? gzip.get(req.url ?? '') : undefined;
  const body = zipped ?? plain.get(req.url ?? '');
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  const encoding = zipped ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {};
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length, ...encoding });
  res.end(body);
});
// A stop ends the process normally, so that a CPU profile asked for (--cpu-prof) is written.
process.once('SIGTERM', () => process.exit(0));
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
});
