// The command line of gitops-config as commander parses it: the commands, their
// arguments and options, their --help, and what each runs. Output goes through `io`; commander
// is told not to exit (run() in ./cli.ts turns what it throws into an exit status).
import { parseReceiverHosts, type ReceiverHosts } from '../domain/receiver-hosts.ts';
import { existsSync, realpathSync } from 'node:fs';
import { Argument, Command, Option } from 'commander';
import { byteSize } from '../shared/byte-size.ts';
import { clusterTokenKeysFrom, ConfigError } from '../shared/secret-settings.ts';
import { locateInGitRepository } from '../store/git/repository-root.ts';
import { VERSION } from '../shared/version.ts';
import { ApplyUsage, applyChanges, type ApplyOptions, TOKEN_VARIABLE } from './apply.ts';
import type { CliIo } from './cli-io.ts';
import { clusterToken, ClusterTokenUsage } from './cluster-token.ts';
import { existingDir, guarded, type Outcome, UsageError } from './command-kit.ts';
import { defaultConfigDir } from './config-folder.ts';
import { diffRevisions, readRevisions } from './diff.ts';
import { type DiffFormat, renderDiff } from './diff-render.ts';
import { EXIT_OK, EXIT_PROBLEMS, EXIT_STATUS_HELP } from './exit-codes.ts';
import { ENDPOINTS, previewInputs } from './inputs.ts';
import { addRolloutCommand } from './rollout-commands.ts';
import { paletteFor, PLAIN } from './terminal-colours.ts';
import { validateRepo } from './validate.ts';
import { annotationPaths, problemLine, renderValidation, type ValidateFormat } from './validate-render.ts';

export { type Outcome, UsageError } from './command-kit.ts';

const VALIDATE_FORMATS: readonly ValidateFormat[] = ['text', 'json', 'github'];
const DIFF_FORMATS: readonly DiffFormat[] = ['text', 'markdown', 'json'];

const REPO_DIR =
  'the config repo: the folder that holds clusters/, platform_components/, namespaces/ and rolebindings/, anywhere ' +
  'in a Git repository';

export function buildProgram(io: CliIo, outcome: Outcome): Command {
  const palette = paletteFor(io.env, io.stdoutIsTerminal ?? false);
  const program = new Command('gitops-config')
    .description("Checks a config repo with the server's own rules and shows what each cluster will receive.")
    .version(VERSION, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print this help')
    .helpCommand('help [command]', 'print the help of a command')
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // "error: unknown option '--colour'\n(Did you mean --color?)" -> one line, named after the tool.
      outputError: (text, write) => write(`gitops-config: ${text.replace(/^error: /, '').replace(/\n(?=.)/g, ' ')}`),
      getOutHelpWidth: () => io.columns ?? 80,
      getErrHelpWidth: () => 80,
      getOutHasColors: () => palette !== PLAIN,
      getErrHasColors: () => false,
    })
    .configureHelp({
      styleTitle: (title) => palette.heading(title),
      // "inputs <repo-dir> <cluster_dns> [endpoint]" without "[options]": the list stays within 80 columns.
      subcommandTerm: (command) => [command.name(), ...command.registeredArguments.map(argumentTerm)].join(' '),
    })
    .showHelpAfterError('Run gitops-config --help for the commands and their options.')
    .addHelpText('after', `\n${EXIT_STATUS_HELP.program}`);

  program
    .command('validate')
    .summary('judge the working tree')
    .description(
      "Judges the working tree with the server's rules and prints one line per problem " +
        '(file:line:col: error|warning: message), then a summary. Without --base, every dangling reference ' +
        '(a deleted folder, a typo) is an error. With --base, as the server would publish it after <rev>: a ' +
        'dangling reference <rev> already had is a warning, a new one an error, and the shrink guard applies.',
    )
    .argument('[repo-dir]', `${REPO_DIR} (default: the current folder, or the nearest one above it that holds them)`)
    .option('--base <rev>', 'the revision the change is judged against: a branch, tag, commit, HEAD~1, origin/main')
    .addOption(
      new Option('--format <format>', 'text; json for programs; github for annotations on a pull request')
        .choices(VALIDATE_FORMATS)
        .default('text'),
    )
    .option('--strict', 'count warnings as errors')
    .showHelpAfterError('Run gitops-config validate --help for its usage.')
    .addHelpText('after', `\n${EXIT_STATUS_HELP.validate}`)
    .action(
      guarded(
        outcome,
        async (dirArg: string | undefined, options: { base?: string; format: ValidateFormat; strict?: boolean }) => {
          const dir = dirArg === undefined ? defaultConfigDir(io.cwd) : existingDir(dirArg, io);
          const report = await validateRepo(dir, {
            strict: options.strict ?? false,
            base: options.base,
            maxRecordBytes: maxRecordBytes(io),
            receiverHosts: receiverHostsOf(io),
          });
          io.stdout(
            renderValidation(
              report,
              options.format,
              annotationPaths(realpathSync(dir), annotationRoot(dir, io)),
              palette,
            ),
          );
          return report.errors > 0 ? EXIT_PROBLEMS : EXIT_OK;
        },
      ),
    );

  program
    .command('inputs')
    .summary("print a cluster's response body")
    .description(
      'Prints the response body the server would send for the working tree, byte for byte ' +
        '(inputs <repo-dir> clusters: the clusters listing).',
    )
    .argument('<repo-dir>', REPO_DIR)
    .argument('<cluster_dns>', "the cluster's DNS name, as a cluster asks for it (any case), or clusters")
    .addArgument(new Argument('[endpoint]', 'the endpoint').choices(ENDPOINTS).default('platform-components'))
    .option('--pretty', 'indent the JSON for reading (then it is no longer the same bytes)')
    .showHelpAfterError('Run gitops-config inputs --help for its usage.')
    .addHelpText('after', `\n${EXIT_STATUS_HELP.inputs}`)
    .action(
      guarded(outcome, async (dirArg: string, dnsArg: string, endpointArg: string, options: { pretty?: boolean }) => {
        const dir = existingDir(dirArg, io);
        const endpoint = dnsArg === 'clusters' ? 'clusters' : endpointArg;
        const result = await previewInputs(dir, endpoint, endpoint === 'clusters' ? undefined : dnsArg);
        if (!result.ok) {
          io.stderr(`gitops-config: ${result.message}\n`);
          if (result.status === 'invalid') for (const p of result.problems) io.stderr(`  ${problemLine(p)}\n`);
          return EXIT_PROBLEMS;
        }
        io.stdout(
          options.pretty ? `${JSON.stringify(JSON.parse(result.body.toString('utf8')), null, 2)}\n` : result.body,
        );
        return EXIT_OK;
      }),
    );

  program
    .command('diff')
    .summary('the changes between two revisions')
    .description(
      'Lists, per cluster and endpoint, the inputs that change between two revisions, old → new, computed with the ' +
        "server's " +
        'merge code. Flags decommissions, removed clusters, ' +
        'cluster_dns changes and responses over 900 KiB first, and ' +
        'starts with REFUSED when the server, serving the base, would refuse the head.',
    )
    .argument('<repo-dir>', REPO_DIR)
    .argument('<base-rev>', 'the revision before: a branch, tag, commit, HEAD~1, origin/main')
    .argument('[head-rev]', 'the revision after (default: the working tree)')
    .addOption(
      new Option('--format <format>', 'text; markdown for a pull-request comment; json for programs')
        .choices(DIFF_FORMATS)
        .default('text'),
    )
    .showHelpAfterError('Run gitops-config diff --help for its usage.')
    .addHelpText('after', `\n${EXIT_STATUS_HELP.diff}`)
    .action(
      guarded(
        outcome,
        async (dirArg: string, baseRev: string, headRev: string | undefined, options: { format: DiffFormat }) => {
          const dir = existingDir(dirArg, io);
          const report = await diffRevisions(await readRevisions(dir, baseRev, headRev), receiverHostsOf(io));
          if (!report.verdict.publish) {
            io.stderr(
              `gitops-config: the server, serving ${report.base.label}, would refuse ${report.head.label} ` +
                `(${report.verdict.problems.length} problem(s)) ` +
                'and keep serving the base; fix them (gitops-config validate --base) before it is merged:\n',
            );
            for (const p of report.verdict.problems.slice(0, 50)) io.stderr(`${problemLine(p)}\n`);
          }
          io.stdout(renderDiff(report, options.format, palette));
          return report.verdict.publish ? EXIT_OK : EXIT_PROBLEMS;
        },
      ),
    );

  program
    .command('apply')
    .summary('send a change set to a service')
    .description(
      `Sends a change set — a JSON file {"message": ..., "writes": [...]}, the body of POST /api/v2/gitops/changes — ` +
        `to a service in crud mode, ` +
        `with the token in ${TOKEN_VARIABLE} (or the file --token-file names). --preview prints what it would do, as ` +
        `diff prints it; ` +
        '--dry-run whether it would be stored; without either it is committed and the new revision printed.',
    )
    .argument('<changes-file>', 'the change set, a JSON file')
    .requiredOption('--server <url>', "the service's address, e.g. https://gitops-config.example.com")
    .option('--token-file <file>', `a file holding the token (instead of ${TOKEN_VARIABLE})`)
    .addOption(new Option('--preview', 'print what the change set would do; store nothing').conflicts('dryRun'))
    .addOption(
      new Option('--dry-run', 'ask whether the change set would be stored; store nothing').conflicts('preview'),
    )
    .addOption(
      new Option('--format <format>', 'of --preview: text; markdown; json, as the service answers')
        .choices(DIFF_FORMATS)
        .default('text'),
    )
    .showHelpAfterError('Run gitops-config apply --help for its usage.')
    .addHelpText('after', `\n${EXIT_STATUS_HELP.apply}`)
    .action(
      guarded(outcome, async (file: string, options: ApplyOptions) => {
        try {
          return await applyChanges(file, options, io, palette);
        } catch (error) {
          if (error instanceof ApplyUsage) throw new UsageError(error.message);
          throw error;
        }
      }),
    );

  program
    .command('cluster-token')
    .summary("print a cluster's own token")
    .description(
      'Prints the token a cluster reads its own three endpoints with (put it in the Flux Secret as token, or as ' +
        'password with the ' +
        'cluster id as username): signed with the first key of CLUSTER_TOKEN_KEYS (or the file ' +
        'CLUSTER_TOKEN_KEYS_FILE names) ' +
        'over the cluster id and the credential_generation of its record in the working tree. Raising ' +
        'credential_generation revokes it.',
    )
    .argument('<cluster-id>', "the cluster's id (its file name in clusters/, without .yaml)")
    .option('--repo <dir>', `${REPO_DIR} (default: the current folder, or the nearest one above it that holds them)`)
    .showHelpAfterError('Run gitops-config cluster-token --help for its usage.')
    .addHelpText('after', `\n${EXIT_STATUS_HELP['cluster-token']}`)
    .action(
      guarded(outcome, async (clusterId: string, options: { repo?: string }) => {
        const dir = options.repo === undefined ? defaultConfigDir(io.cwd) : existingDir(options.repo, io);
        let result;
        try {
          result = await clusterToken(dir, clusterId, clusterTokenKeysFrom(io.env));
        } catch (error) {
          if (error instanceof ClusterTokenUsage || error instanceof ConfigError) throw new UsageError(error.message);
          throw error;
        }
        if (!result.ok) {
          io.stderr(`gitops-config: ${result.message}\n`);
          for (const p of result.problems) io.stderr(`  ${problemLine(p)}\n`);
          return EXIT_PROBLEMS;
        }
        io.stdout(`${result.token}\n`);
        return EXIT_OK;
      }),
    );

  addRolloutCommand(program, io, outcome, palette);

  return program;
}

function argumentTerm(argument: Argument): string {
  return argument.required ? `<${argument.name()}>` : `[${argument.name()}]`;
}

/**
 * What annotation paths are relative to: GitHub's workspace in a workflow, else the top of the
 * Git repository (where GitHub's would be), else the current folder.
 */
function annotationRoot(dir: string, io: CliIo): string {
  const workspace = io.env.GITHUB_WORKSPACE;
  if (workspace) return existsSync(workspace) ? realpathSync(workspace) : workspace;
  return locateInGitRepository(dir)?.root ?? realpathSync(io.cwd);
}

/** RECEIVER_HOSTS, as the server reads it: a tool judges receiver_url as the service does. */
function receiverHostsOf(io: CliIo): ReceiverHosts | undefined {
  const parsed = parseReceiverHosts(io.env.RECEIVER_HOSTS);
  if (parsed !== undefined && 'error' in parsed) throw new UsageError(parsed.error);
  return parsed;
}

/** MAX_RECORD_BYTES, as the server reads it. */
function maxRecordBytes(io: CliIo): number | undefined {
  const value = io.env.MAX_RECORD_BYTES;
  if (value === undefined || value === '') return undefined;
  const bytes = byteSize(value);
  if (bytes === undefined)
    throw new UsageError(`MAX_RECORD_BYTES=${value} is not a size; use e.g. 1mb, 512kb or plain bytes`);
  return bytes;
}
