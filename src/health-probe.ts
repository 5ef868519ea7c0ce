// `node src/health-probe.ts [path]`: asks the service running beside it (same container, same
// environment) for /health, or the path given (/ready), and exits 0 on a 2xx answer, 1
// otherwise. For the image's HEALTHCHECK and for Kubernetes exec probes: it speaks the
// transport the service serves — HTTPS when TLS_CERT_FILE is set, presenting the service's own
// certificate when TLS_CLIENT_CA_FILE requires one, which the kubelet's HTTP probes cannot.
//
// It imports nothing of the service: a probe runs every few seconds and must start fast.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

const TIMEOUT_MS = 3000;

/** The loopback address for a listen address; the service's own port. */
function target(listen: string): { host: string; port: number } {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:\s]*)):(\d{1,5})$/.exec(listen);
  if (!match) throw new Error(`LISTEN_ADDR=${listen} is not host:port`);
  const host = match[1] ?? match[2] ?? '';
  const wildcard = host === '' || host === '0.0.0.0' || host === '::';
  return { host: wildcard ? (host === '::' ? '::1' : '127.0.0.1') : host, port: Number(match[3]) };
}

function probe(path: string, env: NodeJS.ProcessEnv): Promise<number> {
  const { host, port } = target(env.LISTEN_ADDR || '0.0.0.0:8080');
  const tls = Boolean(env.TLS_CERT_FILE && env.TLS_KEY_FILE);
  const options = {
    host,
    port,
    path,
    timeout: TIMEOUT_MS,
    // The certificate names the service's public name, not the loopback address: what is
    // checked here is that this process answers, not who it is.
    ...(tls ? { rejectUnauthorized: false } : {}),
    ...(tls && env.TLS_CLIENT_CA_FILE
      ? { cert: readFileSync(env.TLS_CERT_FILE!), key: readFileSync(env.TLS_KEY_FILE!) }
      : {}),
  };
  return new Promise((resolve, reject) => {
    const req = (tls ? httpsRequest : httpRequest)(options, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end();
  });
}

const path = process.argv[2] ?? '/health';
probe(path, process.env).then(
  (status) => {
    if (status >= 200 && status < 300) process.exit(0);
    process.stderr.write(`health probe: ${path} answered ${status}\n`);
    process.exit(1);
  },
  (error: Error) => {
    process.stderr.write(`health probe: ${path}: ${error.message}\n`);
    process.exit(1);
  },
);
