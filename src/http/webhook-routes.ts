// POST /hooks/git: a Git host's push webhook wakes the remote sync at once instead of at the
// next interval. GitHub signs the raw body (X-Hub-Signature-256: HMAC-SHA256 with the shared
// secret); GitLab sends the secret itself (X-Gitlab-Token). Both are checked in constant time.
import { createHmac, timingSafeEqual } from 'node:crypto';
import express, { Router } from 'express';
import type { Logger } from 'pino';
import { tokenEquals } from './auth.ts';
import { ApiError } from './errors.ts';

export interface WebhookTarget {
  /** The branch served, or undefined before the first clone. */
  branch(): string | undefined;
  /** Looks at the remote now. */
  sync(reason: string): Promise<void>;
}

export function webhookRoutes(deps: { secret: string; target: WebhookTarget; log: Logger }): Router {
  const router = Router();
  router.post('/hooks/git', express.raw({ type: () => true, limit: '5mb' }), (req, res) => {
    const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const source = verify(req.headers, body, deps.secret);
    if (!source) throw new ApiError('unauthorized', 'the webhook signature (X-Hub-Signature-256) or token (X-Gitlab-Token) is missing or wrong');
    if (req.headers['x-github-event'] === 'ping') {
      res.status(200).json({ status: 'pong' });
      return;
    }
    let ref: unknown;
    try {
      ref = body.length ? (JSON.parse(body.toString('utf8')) as { ref?: unknown }).ref : undefined;
    } catch {
      throw new ApiError('bad_request', 'the webhook body is not JSON');
    }
    const branch = deps.target.branch();
    if (typeof ref === 'string' && branch !== undefined && ref !== `refs/heads/${branch}`) {
      res.status(202).json({ status: 'ignored', message: `a push to ${ref}; this service serves refs/heads/${branch}` });
      return;
    }
    deps.log.info({ source, ref: ref ?? null }, 'webhook: syncing the config repo now');
    void deps.target.sync('webhook');
    res.status(202).json({ status: 'accepted' });
  });
  return router;
}

function verify(headers: express.Request['headers'], body: Buffer, secret: string): 'github' | 'gitlab' | undefined {
  const signature = headers['x-hub-signature-256'];
  if (typeof signature === 'string') {
    const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected) ? 'github' : undefined;
  }
  const token = headers['x-gitlab-token'];
  if (typeof token === 'string') return tokenEquals(token, secret) ? 'gitlab' : undefined;
  return undefined;
}
