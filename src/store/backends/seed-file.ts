// Reads SEED_FILE (the reference JSON shape) into checked records, for the memory backend and
// for seeding a new SQLite database. A seed that does not load stops the start with one line.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { formatProblem } from '../../domain/problem.ts';
import type { RecordSets } from '../../domain/records.ts';
import { parseSeed } from '../../domain/seed.ts';
import { createSnapshot, type Snapshot } from '../../domain/snapshot.ts';
import { StartupError } from '../../shared/startup-error.ts';

export interface SeedFile {
  records: RecordSets;
  snapshot: Snapshot;
  /** "seed-<hash of the file>": the same file gives the same revision. */
  contentRevision: string;
}

/** `whyNeeded` is added to the message of a file that cannot be read (what the seed is for). */
export function readSeedFile(path: string, whyNeeded = ''): SeedFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new StartupError(
      `SEED_FILE ${path} cannot be read: ` +
        `${(error as NodeJS.ErrnoException).code ?? (error as Error).message}${whyNeeded}`,
    );
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new StartupError(`SEED_FILE ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const contentRevision = `seed-${createHash('sha256').update(text).digest('hex').slice(0, 12)}`;
  const seed = parseSeed(document);
  const built = seed.ok ? createSnapshot(seed.records, contentRevision) : seed;
  if (!built.ok || !seed.ok)
    throw new StartupError(
      `SEED_FILE ${path} is invalid: ${(built.ok ? [] : built.problems).map(formatProblem).join('; ')}`,
    );
  return { records: seed.records, snapshot: built.snapshot, contentRevision };
}
