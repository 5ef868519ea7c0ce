// A stand-in for a cluster's Flux Receiver over HTTPS on loopback: it records every request
// (path, headers, body) and answers by the path's first segment — /hook/ 200, /fail/ 500,
// /redirect/ 302 to another URL, /hang/ never (until released). It verifies a notice as
// notification-controller verifies a generic-hmac Receiver's: the X-Signature header is
// `sha256=` and the hex HMAC-SHA256 of the body keyed by the Secret's `token`.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CertificateFiles } from './tls-certificates.ts';

export interface ReceivedNotice {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface FakeReceiver {
  port: number;
  received: ReceivedNotice[];
  /** Resolves once `count` requests have come in total. */
  until(count: number, timeoutMs?: number): Promise<void>;
  /** Answers every hanging request 200. */
  release(): void;
  close(): Promise<void>;
}

/** Whether `notice` verifies under `token`, as a generic-hmac Receiver checks it. */
export function verifiesAsGenericHmac(notice: ReceivedNotice, token: string): boolean {
  const header = notice.headers['x-signature'];
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = createHmac('sha256', token).update(notice.body).digest();
  const given = Buffer.from(header.slice('sha256='.length), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export async function startFakeReceiver(certificate: CertificateFiles): Promise<FakeReceiver> {
  const received: ReceivedNotice[] = [];
  const hanging: ServerResponse[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer(
    { cert: readFileSync(certificate.cert), key: readFileSync(certificate.key) },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
        for (const wake of waiters) wake();
        const kind = (req.url ?? '').split('/')[1];
        if (kind === 'hang') return void hanging.push(res);
        if (kind === 'fail') return void res.writeHead(500).end();
        if (kind === 'redirect') return void res.writeHead(302, { location: 'https://127.0.0.1:1/elsewhere' }).end();
        res.writeHead(200).end();
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    until: (count, timeoutMs = 10_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${received.length} of ${count} notices within ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    release: () => {
      for (const res of hanging.splice(0)) res.writeHead(200).end();
    },
    close: () => {
      for (const res of hanging.splice(0)) res.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
