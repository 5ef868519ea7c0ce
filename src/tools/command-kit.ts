// What every command's action is built with: the exit status left for run(), a wrong command
// line found by a command's own code, and the folder arguments checked before anything runs.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import type { CliIo } from './cli-io.ts';
import { EXIT_USAGE } from './exit-codes.ts';

/** A wrong command line found by the code of a command rather than by commander: exit 2. */
export class UsageError extends Error {}

/** Where a command's exit status is left for run(). */
export interface Outcome {
  exitCode: number;
}

/**
 * A command's action: its exit status goes to `outcome`, and a UsageError it throws is
 * reported by commander like its own usage errors (one line and where to find the usage).
 * Commander calls it with the arguments, the options and, last, the command itself.
 */
export function guarded<A extends unknown[]>(
  outcome: Outcome,
  action: (...args: A) => Promise<number>,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    try {
      outcome.exitCode = await action(...(args as A));
    } catch (error) {
      if (error instanceof UsageError)
        (args.at(-1) as Command).error(error.message, { exitCode: EXIT_USAGE, code: 'gitops-config.usage' });
      throw error;
    }
  };
}

export function existingDir(arg: string, io: CliIo): string {
  const dir = resolve(io.cwd, arg);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${arg} is not a directory`);
  return dir;
}
