// The one step a publication waits for before a new revision is served. The store knows
// nothing of what it does (the replicas announce the revision to each other there, so that
// none answers older than another already did); it only bounds the wait, so that a step that
// hangs or fails never keeps a revision from being published.
import type { Logger } from 'pino';
import { withTimeout } from '../../shared/with-timeout.ts';

/** Called with a revision about to be published; the publication waits for it, bounded. */
export type BeforePublish = (revision: string) => Promise<void>;

/** The longest a publication waits for the step, whatever the step does. */
export const BEFORE_PUBLISH_LIMIT_MS = 1500;

export async function waitBeforePublish(step: BeforePublish | undefined, revision: string, log: Logger): Promise<void> {
  if (!step) return;
  try {
    await withTimeout(step(revision), BEFORE_PUBLISH_LIMIT_MS, undefined);
  } catch (error) {
    log.warn({ err: error, revision }, 'the step before publishing failed; publishing anyway');
  }
}
