// GET /api/v2/gitops/whoami: who the service takes the caller for, and what it may do, for
// any valid credential (a cluster's too): a person checks which token a tool holds, an
// operator which cluster a certificate names. 401 without one.
import { Router } from 'express';
import type { Authenticator } from '../auth/authenticator.ts';
import { authenticated } from '../auth/authorize.ts';
import type { Caller } from '../auth/caller.ts';
import type { Role } from '../../domain/writes/write-request.ts';
import { otherMethodsRefused } from '../errors.ts';
import { WHOAMI_PATH } from '../paths.ts';

const ROLE_ORDER: readonly Role[] = ['read', 'write'];

/** The answer's body: every key present, null where the kind has no such thing. */
export function whoamiBody(caller: Caller): {
  kind: string;
  name: string;
  email: string | null;
  roles: Role[];
  clusters: string[] | null;
} {
  return {
    kind: caller.kind,
    name: caller.name,
    email: caller.email ?? null,
    roles: ROLE_ORDER.filter((role) => caller.roles.has(role)),
    clusters: caller.clusters === undefined ? null : [...caller.clusters],
  };
}

export function whoamiRoutes(auth: Authenticator): Router {
  const router = Router();
  router.get(WHOAMI_PATH, async (req, res) => {
    const caller = await authenticated(auth, req, res);
    res.set('cache-control', 'no-store').json(whoamiBody(caller));
  });
  router.all(WHOAMI_PATH, otherMethodsRefused('GET, HEAD'));
  return router;
}
