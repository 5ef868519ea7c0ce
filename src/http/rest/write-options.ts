// What every write request may say besides its records, read the same way by the REST writes
// and POST /api/v2/gitops/changes: who writes (the caller, as the store takes it), whether it
// is a dry run (?dryRun=All, Kubernetes' spelling: the same answer, nothing stored), and the
// commit message a REST write gives in a header.
import type { NextFunction, Request, Response } from 'express';
import type { Role, WriteAuthor } from '../../domain/writes/write-request.ts';
import { callerOf } from '../auth/authorize.ts';
import type { Caller } from '../auth/caller.ts';
import { ApiError } from '../errors.ts';
import { knownQuery } from './write-query.ts';

/** Set on every answer to a dry run, whatever its status. */
export const DRY_RUN_HEADER = 'gitops-dry-run';
/** A REST write's commit message: percent-encoded UTF-8, so that it may hold a body after a blank line. */
export const COMMIT_MESSAGE_HEADER = 'gitops-commit-message';

const HEADER_NAME = 'Gitops-Commit-Message';

/** The only value of dryRun Kubernetes accepts, and so the only one here. */
const DRY_RUN_ALL = 'All';

/**
 * Middleware after authentication: a request with ?dryRun=All is marked (res.locals.dryRun,
 * and the header on whatever it is answered); another value of dryRun is a 400, and so is any
 * other query parameter, or dryRun given twice (./write-query.ts).
 */
export function readDryRun(req: Request, res: Response, next: NextFunction): void {
  const value = knownQuery(req.originalUrl, ['dryRun'], 'a write').get('dryRun');
  if (value !== undefined) {
    if (value !== DRY_RUN_ALL) {
      throw new ApiError(
        'validation_error',
        `dryRun must be "${DRY_RUN_ALL}" (the only value Kubernetes' dryRun takes), or left out`,
        {
          details: [{ path: 'dryRun', message: `must be "${DRY_RUN_ALL}"` }],
        },
      );
    }
    res.locals.dryRun = true;
    res.set(DRY_RUN_HEADER, 'true');
  }
  next();
}

/** Whether readDryRun marked the request as a dry run. */
export function isDryRun(res: Response): boolean {
  return res.locals.dryRun === true;
}

/**
 * The Gitops-Commit-Message header, decoded: undefined without one. A header carries ASCII
 * only, so the message is percent-encoded UTF-8 (a newline is %0A, a "%" is %25); decoded, it
 * may hold no control character but a newline or a tab.
 */
export function commitMessageHeader(req: Request): string | undefined {
  const raw = req.headers[COMMIT_MESSAGE_HEADER];
  if (raw === undefined) return undefined;
  const refuse = (why: string) =>
    new ApiError('validation_error', `the ${HEADER_NAME} header ${why}`, {
      details: [{ path: HEADER_NAME, message: why }],
    });
  // Node joins a header it does not know, given twice, into one value ("first, second"): only
  // the raw list tells that two messages were sent.
  if (Array.isArray(raw) || timesGiven(req.rawHeaders, COMMIT_MESSAGE_HEADER) > 1)
    throw refuse('is given more than once');
  if (/[^\x20-\x7e]/.test(raw)) throw refuse('must be ASCII: percent-encode anything else as UTF-8 (a newline as %0A)');
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw refuse('is not valid percent-encoded UTF-8 (write a "%" as %25)');
  }
  const why = messageProblem(decoded);
  if (why) throw refuse(why);
  return decoded;
}

/**
 * Why a commit message cannot be used, or undefined: a control character other than newline
 * and tab (C0, DEL, C1: they reach the terminal of whoever runs `git log`), a bidirectional
 * control (it makes text read otherwise than it is stored), a line or paragraph separator
 * (a line break to some readers and none to git).
 */
export function messageProblem(message: string): string | undefined {
  const found = (match: RegExpExecArray) =>
    `found U+${match[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const control = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/.exec(message);
  if (control) return `must not hold control characters other than newline and tab (${found(control)})`;
  const bidi = /\p{Bidi_Control}/u.exec(message);
  if (bidi) {
    return (
      `must not hold bidirectional control characters, which make text read otherwise than it is stored ` +
      `(${found(bidi)})`
    );
  }
  const separator = /[\u2028\u2029]/.exec(message);
  if (separator) return `must not hold line or paragraph separators; break lines with a newline (${found(separator)})`;
  return undefined;
}

/** How many times the request names `header` (lower case) in its raw headers. */
function timesGiven(rawHeaders: readonly string[], header: string): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i].toLowerCase() === header) count++;
  return count;
}

/** A write's caller as the domain takes it: plain data, no credential. */
export function writeAuthor(res: Response): { role: Role; who: WriteAuthor } {
  const caller: Caller | undefined = callerOf(res);
  // The writer middleware lets no request without a credential through to a write.
  if (caller === undefined || caller.kind === 'anonymous')
    throw new ApiError('unauthorized', 'a write needs a credential');
  const { kind, name, email } = caller;
  return {
    role: caller.roles.has('write') ? 'write' : 'read',
    who: { kind, name, ...(email === undefined ? {} : { email }) },
  };
}
