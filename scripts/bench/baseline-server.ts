// The yardstick for the read benchmarks: a minimal node:http server that answers each path
// with bytes it holds in memory. Input on stdin: {"plain": {"<path>": "<body>"}, "gzip":
// {"<path>": "<base64 of the gzip bytes>"}} (gzip optional: sent when the client accepts it,
// as the service does). Prints its port.
import { createServer } from 'node:http';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const input = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
  plain: Record<string, string>;
  gzip?: Record<string, string>;
};
const plain = new Map(Object.entries(input.plain).map(([k, v]) => [k, Buffer.from(v)]));
const gzip = new Map(Object.entries(input.gzip ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')]));

const server = createServer((req, res) => {
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
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
});
