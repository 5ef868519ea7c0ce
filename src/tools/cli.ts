// gitops-config: the config-repo tool (validate, inputs, diff). `npm run validate -- <dir>` and
// the package's `gitops-config` bin both land here.
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { byteSize } from '../byte-size.ts';
import { diffRevisions, readRevisions } from './diff.ts';
import { type DiffFormat, renderDiff } from './diff-render.ts';
import { ENDPOINTS, previewInputs } from './inputs.ts';
import { RevisionError } from './revisions.ts';
import { NotAConfigRepoError, validateRepo } from './validate.ts';
import { annotationPaths, problemLine, renderValidation, type ValidateFormat } from './validate-render.ts';

export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;

export const USAGE = `Usage: gitops-config <command> [options]

Commands:
  validate <repo-dir> [--base <rev>] [--format text|json|github] [--strict]
      Judges the working tree with the server's rules, as the server would publish it:
      after <rev> with --base (a new dangling reference is an error, one <rev> already
      had a warning; the shrink guard applies), else as a first revision.
      Exit 0: no errors (warnings allowed); 1: errors; 2: usage.
  inputs <repo-dir> <cluster_dns> [platform-components|namespaces|rolebindings]
  inputs <repo-dir> clusters
      Prints the exact response body the server would send for the working tree.
      --pretty indents it for reading (then it is no longer the same bytes).
  diff <repo-dir> <base-rev> [<head-rev>] [--format text|markdown|json]
      Which clusters' responses change between two revisions (head: the working tree
      when left out). Revisions: branches, tags, commit ids, HEAD~1, HEAD^2...
`;

export interface CliIo {
  stdout: (text: string | Buffer) => void;
  stderr: (text: string) => void;
  /** The directory relative paths are given from. */
  cwd: string;
  env: Record<string, string | undefined>;
}

class UsageError extends Error {}

export async function run(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'validate':
        return await validateCommand(rest, io);
      case 'inputs':
        return await inputsCommand(rest, io);
      case 'diff':
        return await diffCommand(rest, io);
      case 'help':
      case '--help':
      case '-h':
        io.stdout(USAGE);
        return EXIT_OK;
      default:
        throw new UsageError(command === undefined ? 'no command given' : `unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError || error instanceof RevisionError || error instanceof NotAConfigRepoError || isParseArgsError(error)) {
      io.stderr(`gitops-config: ${(error as Error).message}\n`);
      if (error instanceof UsageError || isParseArgsError(error)) io.stderr(`\n${USAGE}`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

function isParseArgsError(error: unknown): boolean {
  return typeof (error as { code?: unknown })?.code === 'string' && (error as { code: string }).code.startsWith('ERR_PARSE_ARGS');
}

function oneOf<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of: ${allowed.join(', ')}`);
  return value as T;
}

function repoDir(arg: string | undefined, io: CliIo): string {
  if (arg === undefined) throw new UsageError('the config repo directory is missing');
  const dir = resolve(io.cwd, arg);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UsageError(`${arg} is not a directory`);
  return dir;
}

async function validateCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { format: { type: 'string' }, strict: { type: 'boolean' }, base: { type: 'string' } },
  });
  const format = oneOf<ValidateFormat>('format', values.format, ['text', 'json', 'github'], 'text');
  if (positionals.length !== 1) throw new UsageError('validate takes exactly one directory');
  const dir = repoDir(positionals[0], io);
  const report = await validateRepo(dir, { strict: values.strict ?? false, base: values.base, maxRecordBytes: maxRecordBytes(io) });
  const workspace = io.env.GITHUB_WORKSPACE || io.cwd;
  io.stdout(renderValidation(report, format, annotationPaths(dir, workspace)));
  return report.errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
}

async function inputsCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { pretty: { type: 'boolean' } } });
  if (positionals.length < 2 || positionals.length > 3) throw new UsageError('inputs takes a directory, a cluster_dns and optionally an endpoint');
  const dir = repoDir(positionals[0], io);
  let endpoint: string;
  let dns: string | undefined;
  if (positionals.length === 2 && positionals[1] === 'clusters') {
    endpoint = 'clusters';
  } else {
    dns = positionals[1];
    endpoint = positionals[2] ?? 'platform-components';
  }
  if (!(ENDPOINTS as readonly string[]).includes(endpoint)) throw new UsageError(`the endpoint must be one of: ${ENDPOINTS.join(', ')}`);
  const outcome = await previewInputs(dir, endpoint, endpoint === 'clusters' ? undefined : dns);
  if (!outcome.ok) {
    io.stderr(`gitops-config: ${outcome.message}\n`);
    if (outcome.status === 'invalid') for (const p of outcome.problems) io.stderr(`  ${problemLine(p)}\n`);
    return EXIT_PROBLEMS;
  }
  io.stdout(values.pretty ? `${JSON.stringify(JSON.parse(outcome.body.toString('utf8')), null, 2)}\n` : outcome.body);
  return EXIT_OK;
}

async function diffCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { format: { type: 'string' } } });
  const format = oneOf<DiffFormat>('format', values.format, ['text', 'markdown', 'json'], 'text');
  if (positionals.length < 2 || positionals.length > 3) throw new UsageError('diff takes a directory, a base revision and optionally a head revision');
  const dir = repoDir(positionals[0], io);
  const report = await diffRevisions(await readRevisions(dir, positionals[1]!, positionals[2]));
  if (!report.verdict.publish) {
    io.stderr(
      `gitops-config: the server, serving ${report.base.label}, would refuse ${report.head.label} (${report.verdict.problems.length} problem(s)) ` +
        'and keep serving the base; fix them (gitops-config validate --base) before it is merged:\n',
    );
    for (const p of report.verdict.problems.slice(0, 50)) io.stderr(`${problemLine(p)}\n`);
  }
  io.stdout(renderDiff(report, format));
  return report.verdict.publish ? EXIT_OK : EXIT_PROBLEMS;
}

/** MAX_RECORD_BYTES, as the server reads it. */
function maxRecordBytes(io: CliIo): number | undefined {
  const value = io.env.MAX_RECORD_BYTES;
  if (value === undefined || value === '') return undefined;
  const bytes = byteSize(value);
  if (bytes === undefined) throw new UsageError(`MAX_RECORD_BYTES=${value} is not a size; use e.g. 1mb, 512kb or plain bytes`);
  return bytes;
}

/** Under `npm run validate -- <dir>`, npm runs in the package root; INIT_CWD is where the person typed. */
function processIo(): CliIo {
  const viaNpmScript = ['validate', 'inputs', 'diff'].includes(process.env.npm_lifecycle_event ?? '');
  return {
    stdout: (text) => void process.stdout.write(text),
    stderr: (text) => void process.stderr.write(text),
    cwd: (viaNpmScript && process.env.INIT_CWD) || process.cwd(),
    env: process.env,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await run(process.argv.slice(2));
}
