// POST /api/v2/gitops/changes/preview (crud mode, write role): what a change set would do,
// before it is committed. The same body as POST /api/v2/gitops/changes; 200 with the report
// of the change — publishable, problems, the shrink guard's verdict, per cluster and endpoint
// the inputs added, removed and changed — in the shape `gitops-config diff --format json`
// prints. A write of the set that cannot apply gets the status the commit would get. It is
// part of editing, so it takes the write role, as the commit does: a reader's look at a
// change that may never be made is not a read of the fleet.
import { type NextFunction, type Request, type Response, Router } from 'express';
import { previewChange } from '../../store/writes/change-preview.ts';
import type { StoreRunner } from '../../store/runner/store-runner.ts';
import type { Authenticator } from '../auth/authenticator.ts';
import { requireRole } from '../auth/authorize.ts';
import { changeSetRequest } from './change-set-routes.ts';
import { otherMethodsRefused } from '../errors.ts';
import { jsonInSlices } from './json-in-slices.ts';
import { parseJsonBody } from './json-body.ts';
import { CHANGES_PREVIEW_PATH } from '../paths.ts';
import { writeAuthor } from './write-options.ts';
import { knownQuery } from './write-query.ts';

export interface ChangePreviewRouteDeps {
  store: Pick<StoreRunner, 'write' | 'receiverHosts'>;
  auth: Authenticator;
  /** Largest accepted request body, in bytes (MAX_BODY_SIZE). */
  maxBodyBytes: number;
}

export function changePreviewRoutes(deps: ChangePreviewRouteDeps): Router {
  const router = Router();
  // A preview stores nothing anyway; a parameter sent to it was still meant for something.
  const noQuery = (req: Request, _res: Response, next: NextFunction): void => {
    knownQuery(req.originalUrl, [], 'a preview');
    next();
  };
  router.post(
    CHANGES_PREVIEW_PATH,
    requireRole(deps.auth, 'write'),
    noQuery,
    parseJsonBody(deps.maxBodyBytes),
    async (req, res) => {
      const report = await previewChange(deps.store, changeSetRequest(req.body, writeAuthor(res)));
      const body = await jsonInSlices(report, 'clusters');
      res
        .set({
          'x-config-revision': report.base.commit ?? '',
          'cache-control': 'no-store',
          'content-type': 'application/json; charset=utf-8',
        })
        .send(body);
    },
  );
  router.all(CHANGES_PREVIEW_PATH, otherMethodsRefused('POST'));
  return router;
}
