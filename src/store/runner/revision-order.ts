// What a replica asks the store of a revision another replica announced (PEERS, ../peers/):
// whether the revision served is it or newer, and which revision the store's source holds as
// its newest now. Both answer false or nothing when the store cannot tell: a replica then
// takes the announcement as news, or as nothing to catch up with, and never fails on it.
import type { Logger } from 'pino';
import type { Backend } from '../backend.ts';

/** Whether `served` is `revision` or, as far as the store can tell, newer than it. */
export async function servedAtLeast(
  backend: Backend,
  served: string | undefined,
  revision: string,
  log: Logger,
): Promise<boolean> {
  if (served === undefined) return false;
  if (served === revision) return true;
  try {
    return (await backend.isOlder?.(revision, served)) ?? false;
  } catch (error) {
    log.debug({ err: error, revision, served }, 'cannot tell whether a revision is older than the one served');
    return false;
  }
}

/** The revision the store's source holds as its newest now (Backend.newestRevision); undefined if it cannot say. */
export async function newestInStore(backend: Backend, log: Logger): Promise<string | undefined> {
  try {
    return await backend.newestRevision?.();
  } catch (error) {
    log.debug({ err: error }, "cannot ask the store's source for its newest revision");
    return undefined;
  }
}
