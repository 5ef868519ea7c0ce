// The credential check of the Express routes: who the caller is (401 without a valid
// credential), kept on the response for the request log and the metrics, and whether it may
// use a fleet-wide path with the role asked for (403 otherwise).
import type { Request, Response } from 'express';
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

/** Authenticates the request and requires a caller that may use fleet-wide paths with `role`. */
export async function fleetWideCaller(auth: Authenticator, req: Request, res: Response, role: Role): Promise<Caller> {
  const caller = await authenticated(auth, req, res);
  requireFleetWide(caller, role, auth.served());
  return caller;
}
