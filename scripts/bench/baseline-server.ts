// The yardstick for the read benchmark: a minimal node:http server that answers each path
// with bytes it holds in memory. Input on stdin: {"<path>": "<body>", ...}; prints its port.
import { createServer } from 'node:http';

const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const bodies = new Map(Object.entries(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, string>).map(([k, v]) => [k, Buffer.from(v)]));

const server = createServer((req, res) => {
  const body = bodies.get(req.url ?? '');
  if (!body) {
    res.writeHead(404).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ port: (server.address() as { port: number }).port }));
});
