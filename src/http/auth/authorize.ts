// The credential check of the Express routes: who the caller is (401 without a valid
// credential), kept on the response for the request log and the metrics, and whether it may
// use a fleet-wide path with the role asked for (403 otherwise).
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Authenticator } from './authenticator.ts';
import type { Caller } from './caller.ts';
import type { Role } from '../../domain/writes/write-request.ts';
import { requireFleetWide } from './scopes.ts';

/** The caller of an Express request, once authenticated; undefined before (or without) it. */
export function callerOf(res: Response): Caller | undefined {
  return res.locals.caller as Caller | undefined;
}

/** Authenticates the request; its caller is kept on `res` even when it is refused for its scope. */
export async function authenticated(auth: Authenticator, req: Request, res: Response): Promise<Caller> {
  const caller = await auth.authenticate(req);
  res.locals.caller = caller;
  return caller;
}

/**
 * The first handler of a fleet-wide route: the request goes on only with a caller that may
 * use fleet-wide paths with `role`. Express 5 passes the rejected promise on as the
 * request's error (401 or 403); the caller stays on `res` (callerOf) for the handlers after.
 */
export function requireRole(auth: Authenticator, role: Role): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const caller = await authenticated(auth, req, res);
    requireFleetWide(caller, role, auth.currentSnapshot());
    next();
  };
}
