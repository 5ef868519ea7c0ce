// One notice to a cluster's Flux Receiver, as notification-controller's generic-hmac Receiver
// verifies it: a POST whose body is any bytes (here a small JSON document naming the cluster and
// the revision) with `X-Signature: sha256=<hex HMAC-SHA256 of the body>`, keyed by the Receiver
// Secret's `token` — the cluster's own token. Sent to the address chosen beforehand
// (./receiver-address.ts), within a deadline; a redirect is never followed.
import { createHmac } from 'node:crypto';
import { request } from 'node:https';
import { rootCertificates } from 'node:tls';
import type { ReceiverHosts } from '../../domain/receiver-hosts.ts';
import { receiverUrlRefusal } from '../../domain/rules/receiver-url.ts';
import { chooseAddress } from './receiver-address.ts';

export interface Notice {
  clusterId: string;
  url: string;
  /** The cluster's token: the Receiver's Secret holds it as `token`. */
  token: string;
  revision: string;
}

export type SkipReason = 'url_refused' | 'own_address' | 'redirect';
export type FailReason = 'unresolved' | 'timeout' | 'connection' | 'status';

export type NoticeOutcome =
  | { result: 'sent' }
  | { result: 'skipped'; reason: SkipReason; detail: string }
  | { result: 'failed'; reason: FailReason; detail: string };

export interface PostOptions {
  hosts: ReceiverHosts;
  timeoutMs: number;
  /** PEM text of CAs trusted beside the system's (RECEIVER_CA_FILE). */
  extraCa?: string;
}

/** The header value notification-controller checks for a generic-hmac Receiver. */
export function noticeSignature(body: Buffer, token: string): string {
  return `sha256=${createHmac('sha256', token).update(body).digest('hex')}`;
}

export function noticeBody(notice: Pick<Notice, 'clusterId' | 'revision'>): Buffer {
  return Buffer.from(JSON.stringify({ cluster: notice.clusterId, revision: notice.revision }));
}

export async function postNotice(notice: Notice, options: PostOptions): Promise<NoticeOutcome> {
  // Checked again here: a value the rules let stay as a warning, or RECEIVER_HOSTS narrowed since.
  const refusal = receiverUrlRefusal(notice.url, options.hosts);
  if (refusal) return { result: 'skipped', reason: 'url_refused', detail: `receiver_url ${refusal}` };
  const url = new URL(notice.url);
  const chosen = await chooseAddress(url.hostname, options.hosts);
  if (!chosen.ok) {
    const { reason, detail } = chosen;
    return reason === 'unresolved' ? { result: 'failed', reason, detail } : { result: 'skipped', reason, detail };
  }
  const body = noticeBody(notice);
  return new Promise<NoticeOutcome>((resolve) => {
    const req = request(url, {
      method: 'POST',
      agent: false,
      ca: options.extraCa ? [...rootCertificates, options.extraCa] : undefined,
      // The name is checked once, above: the connection goes to that address, whatever DNS says now.
      lookup: (_host, opts, callback) => {
        type One = (e: null, a: string, f: number) => void;
        type All = (e: null, a: { address: string; family: number }[]) => void;
        if ((opts as { all?: boolean }).all) (callback as All)(null, [chosen]);
        else (callback as One)(null, chosen.address, chosen.family);
      },
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        'user-agent': 'gitops-config-api',
        'x-signature': noticeSignature(body, notice.token),
      },
    });
    const timer = setTimeout(() => req.destroy(new Error('timeout')), options.timeoutMs);
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      const status = res.statusCode ?? 0;
      if (status >= 200 && status < 300) resolve({ result: 'sent' });
      else if (status >= 300 && status < 400) {
        const detail = `${status} to ${res.headers.location ?? '(no location)'}, not followed`;
        resolve({ result: 'skipped', reason: 'redirect', detail });
      } else resolve({ result: 'failed', reason: 'status', detail: `answered ${status}` });
      req.destroy();
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      const timedOut = error.message === 'timeout';
      const detail = timedOut ? `no answer within ${options.timeoutMs} ms` : error.message;
      resolve({ result: 'failed', reason: timedOut ? 'timeout' : 'connection', detail });
    });
    req.end(body);
  });
}
