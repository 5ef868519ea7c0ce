// gitops-config: the config-repo tool (validate, inputs, diff). `npm run validate -- <dir>` and
// the package's `gitops-config` bin both land here. run() returns the exit status rather than
// exiting, and writes through `io`, so that tests call it in-process.
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { GitDirectoryError } from '../store/git/git-directory.ts';
import { UnsupportedRepositoryForm } from '../store/git/repository-format.ts';
import type { CliIo } from './cli-io.ts';
import { buildProgram, type Outcome } from './cli-program.ts';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.ts';
import { RevisionError } from './revisions.ts';
import { NotAConfigRepoError } from './validate.ts';

export { EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE } from './exit-codes.ts';

export type { CliIo } from './cli-io.ts';

export async function run(argv: string[], io: CliIo = processIo()): Promise<number> {
  if (argv.length === 0) {
    io.stderr('gitops-config: no command given\nRun gitops-config --help for the commands and their options.\n');
    return EXIT_USAGE;
  }
  const outcome: Outcome = { exitCode: EXIT_OK };
  try {
    await buildProgram(io, outcome).parseAsync(argv, { from: 'user' });
    return outcome.exitCode;
  } catch (error) {
    // Commander has written its message (or the help, or the version) already.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    // What the command line names cannot be read: nothing was judged.
    if (
      error instanceof RevisionError ||
      error instanceof NotAConfigRepoError ||
      error instanceof UnsupportedRepositoryForm ||
      error instanceof GitDirectoryError
    ) {
      io.stderr(`gitops-config: ${error.message}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

/** Under `npm run validate -- <dir>`, npm runs in the package root; INIT_CWD is where the person typed. */
function processIo(): CliIo {
  const viaNpmScript = ['validate', 'inputs', 'diff'].includes(process.env.npm_lifecycle_event ?? '');
  // `gitops-config diff ... | head`: once the reader has gone, the rest of the report is
  // dropped quietly rather than ending in an EPIPE stack trace.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  return {
    stdout: (text) => void (process.stdout.destroyed || process.stdout.write(text)),
    stderr: (text) => void process.stderr.write(text),
    cwd: (viaNpmScript && process.env.INIT_CWD) || process.cwd(),
    env: process.env,
    stdoutIsTerminal: process.stdout.isTTY === true,
    columns: process.stdout.isTTY ? process.stdout.columns : undefined,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await run(process.argv.slice(2));
}
