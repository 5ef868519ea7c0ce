// POST /hooks/git: a Git host's push webhook wakes the remote sync at once instead of at the
// next interval. GitHub signs the raw body (X-Hub-Signature-256: HMAC-SHA256 with the shared
// secret); GitLab sends the secret itself (X-Gitlab-Token). Both are compared in constant time.
//
// The route is open to anyone who can reach the port, so it does what it can before reading
// a byte of the body: a wrong or missing GitLab token, a missing or malformed GitHub
// signature, a malformed event name or a Content-Length larger than any webhook are answered
// at once, and the connection is closed after the answer, the body unread. A body is hashed
// as it arrives and only its head kept (./webhook-body.ts). A delivery seen lately is
// answered 202 without a sync (./webhook-deliveries.ts), and syncs never pile up: the store
// runs one load at a time, and every call that comes while one runs shares the one queued
// after it.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type Response, Router } from 'express';
import type { Logger } from 'pino';
import { tokenEquals } from '../auth/credentials.ts';
import { ApiError } from '../errors.ts';
import { checkDeclaredLength, pushedRef, readWebhookBody } from './webhook-body.ts';
import { deliveryKeys, RecentDeliveries } from './webhook-deliveries.ts';

export interface WebhookTarget {
  /** The branch served, or undefined before the first clone. */
  branch(): string | undefined;
  /** Looks at the remote now. */
  sync(reason: string): Promise<void>;
}

/** GitHub's format: `sha256=` and 64 hex digits. */
const GITHUB_SIGNATURE = /^sha256=[0-9a-f]{64}$/i;
/** GitHub's event names (push, ping, pull_request...); GitLab's (Push Hook, System Hook...). */
const GITHUB_EVENT = /^[a-z_]{1,64}$/;
const GITLAB_EVENT = /^[A-Za-z ]{1,64}$/;
/** The GitLab events that may carry a push: a project's push hook, and an instance's system hook. */
const GITLAB_PUSH_EVENTS = new Set(['Push Hook', 'System Hook']);

type Sender = { host: 'github'; signature: string; event: string } | { host: 'gitlab' };

export function webhookRoutes(deps: { secret: string; target: WebhookTarget; log: Logger }): Router {
  const router = Router();
  const deliveries = new RecentDeliveries();
  router.post('/hooks/git', async (req, res) => {
    const sender = checkHeaders(req.headers, deps.secret);
    if (sender.host === 'github' ? sender.event !== 'push' && sender.event !== 'ping' : !isGitlabPush(req.headers)) {
      // Not a push: nothing to do, so nothing to read.
      answerUnread(res, 202, { status: 'ignored', message: 'not a push event' });
      return;
    }
    checkDeclaredLength(req);
    const body = await readWebhookBody(req, sender.host === 'github' ? deps.secret : undefined);
    if (sender.host === 'github' && !sameSignature(body.signature!, sender.signature)) {
      throw unauthorized('the webhook signature (X-Hub-Signature-256) does not match the body');
    }
    if (sender.host === 'github' && sender.event === 'ping') {
      res.status(200).json({ status: 'pong' });
      return;
    }
    const ref = pushedRef(body);
    if (deliveries.seenBefore(deliveryKeys(req.headers))) {
      deps.log.info(
        { source: sender.host, delivery: deliveryId(req.headers) },
        'webhook: a delivery handled before; no sync',
      );
      res.status(202).json({ status: 'ignored', message: 'this delivery was handled before' });
      return;
    }
    const branch = deps.target.branch();
    if (ref !== undefined && branch !== undefined && ref !== `refs/heads/${branch}`) {
      res
        .status(202)
        .json({ status: 'ignored', message: `a push to ${ref}; this service serves refs/heads/${branch}` });
      return;
    }
    deps.log.info(
      { source: sender.host, ref: ref ?? null, delivery: deliveryId(req.headers) },
      'webhook: syncing the config repo now',
    );
    void deps.target.sync('webhook');
    res.status(202).json({ status: 'accepted' });
  });
  return router;
}

/** Who sent the request, judged from its headers alone; throws 401 or 400 before the body is read. */
function checkHeaders(headers: IncomingHttpHeaders, secret: string): Sender {
  const signature = headers['x-hub-signature-256'];
  if (signature !== undefined) {
    if (typeof signature !== 'string' || !GITHUB_SIGNATURE.test(signature)) {
      throw unauthorized('the webhook signature (X-Hub-Signature-256) is not sha256=<64 hex digits>');
    }
    const event = headers['x-github-event'] ?? 'push';
    if (typeof event !== 'string' || !GITHUB_EVENT.test(event))
      throw unread('bad_request', 'X-GitHub-Event is not an event name');
    return { host: 'github', signature: signature.toLowerCase(), event };
  }
  const token = headers['x-gitlab-token'];
  if (typeof token === 'string') {
    if (!tokenEquals(token, secret)) throw unauthorized('the webhook token (X-Gitlab-Token) is wrong');
    return { host: 'gitlab' };
  }
  throw unauthorized('the webhook signature (X-Hub-Signature-256) or token (X-Gitlab-Token) is missing');
}

/** X-Gitlab-Event names a push (or is absent: a sender that does not name its events). */
function isGitlabPush(headers: IncomingHttpHeaders): boolean {
  const event = headers['x-gitlab-event'];
  if (event === undefined) return true;
  if (typeof event !== 'string' || !GITLAB_EVENT.test(event))
    throw unread('bad_request', 'X-Gitlab-Event is not an event name');
  return GITLAB_PUSH_EVENTS.has(event);
}

/** Both are `sha256=` and 64 lower-case hex digits: equal lengths, compared in constant time. */
function sameSignature(computed: string, given: string): boolean {
  return timingSafeEqual(Buffer.from(computed), Buffer.from(given));
}

function deliveryId(headers: IncomingHttpHeaders): string | null {
  const id = headers['x-github-delivery'] ?? headers['x-gitlab-event-uuid'] ?? headers['idempotency-key'];
  return typeof id === 'string' ? id.slice(0, 200) : null;
}

/** An answer given before the body was read: the connection closes after it, and the body is never read. */
function answerUnread(res: Response, status: number, body: object): void {
  res.set('connection', 'close').status(status).json(body);
}

function unread(code: 'bad_request' | 'unauthorized', message: string): ApiError {
  return new ApiError(code, message, { headers: { connection: 'close' } });
}

function unauthorized(message: string): ApiError {
  return unread('unauthorized', message);
}
