// `gitops-config rollout ...`: list and status read a service; advance, approve, pause,
// resume, rollback and complete act on one rollout — in a checkout of the config repo by
// default (the files edited for a pull request: ./rollout-checkout.ts), or, with --server, on
// a service in crud mode as a change set (./rollout-remote.ts), previewed with --preview.
import { Command, Option } from 'commander';
import type { RolloutAction } from '../domain/rollouts/rollout-actions.ts';
import type { CliIo } from './cli-io.ts';
import { existingDir, guarded, type Outcome, UsageError } from './command-kit.ts';
import { defaultConfigDir } from './config-folder.ts';
import { type DiffFormat } from './diff-render.ts';
import { EXIT_STATUS_HELP } from './exit-codes.ts';
import { actInCheckout } from './rollout-checkout.ts';
import { actOnServer } from './rollout-remote.ts';
import { ROLLOUT_FORMATS, type RolloutFormat } from './rollout-render.ts';
import { showRollouts } from './rollout-status.ts';
import { ClientUsage, TOKEN_VARIABLE } from './service-client.ts';
import type { Palette } from './terminal-colours.ts';

const REPO = 'the config repo to edit (default: the current folder, or the nearest one above it that holds one)';
const SERVER = "the service's address, e.g. https://gitops-config.example.com";
const TOKEN_FILE = `a file holding the token (instead of ${TOKEN_VARIABLE})`;

interface ActionOptions {
  repo?: string;
  server?: string;
  tokenFile?: string;
  preview?: boolean;
  dryRun?: boolean;
  format: DiffFormat;
  force?: boolean;
  to?: string;
}

/** Adds `rollout` and its commands to the program, which they take their settings from. */
export function addRolloutCommand(program: Command, io: CliIo, outcome: Outcome, palette: Palette): void {
  const rollout = program
    .command('rollout')
    .summary('watch and move rollouts')
    .description(
      'Shows where the rollouts of a service stand (list, status), and moves one: advance, approve, pause, resume, ' +
        'rollback, complete. Without --server an action edits rollouts/<id>.yaml in the checkout for a pull request ' +
        '(read-only deployments); with --server it sends the change set to a service in crud mode.',
    )
    .addHelpText('after', `\n${EXIT_STATUS_HELP.rollout}`);

  const show = (name: string, summary: string, withId: boolean) => {
    const command = rollout.command(name).summary(summary).description(summary);
    if (withId) command.argument('<id>', "the rollout's id");
    command
      .requiredOption('--server <url>', SERVER)
      .option('--token-file <file>', TOKEN_FILE)
      .addOption(formatOption('text; markdown; json, exactly as the service answers', ROLLOUT_FORMATS))
      .showHelpAfterError(`Run gitops-config rollout ${name} --help for its usage.`)
      .addHelpText('after', `\n${EXIT_STATUS_HELP.rollout}`)
      .action(
        guarded(outcome, async (...args: unknown[]) => {
          const id = withId ? (args[0] as string) : undefined;
          const options = args[withId ? 1 : 0] as { server: string; tokenFile?: string; format: RolloutFormat };
          return clientUsage(() => showRollouts(id, options, io, palette));
        }),
      );
  };
  show('list', 'every rollout a service serves: its state, the reason, the step reached, its clusters by state', false);
  show('status', 'one rollout: its state and the reason, and each step with its times and its clusters by state', true);

  type Build = (args: string[], options: ActionOptions) => RolloutAction;
  const act = (name: string, summary: string, build: Build, extra: (c: Command) => void = () => {}) => {
    const command = rollout.command(name).summary(summary).description(summary).argument('<id>', "the rollout's id");
    extra(command);
    command
      .option('--repo <dir>', REPO)
      .option('--server <url>', `act on this service in crud mode rather than on the checkout: ${SERVER}`)
      .option('--token-file <file>', TOKEN_FILE)
      .addOption(new Option('--preview', 'with --server: print what it would do; store nothing').conflicts('dryRun'))
      .addOption(new Option('--dry-run', 'with --server: ask whether it would be stored').conflicts('preview'))
      .addOption(formatOption('of --preview: text; markdown; json', ROLLOUT_FORMATS))
      .showHelpAfterError(`Run gitops-config rollout ${name} --help for its usage.`)
      .addHelpText('after', `\n${EXIT_STATUS_HELP.rollout}`)
      .action(
        guarded(outcome, async (...args: unknown[]) => {
          const isOptions = (a: unknown) => typeof a === 'object' && a !== null && !(a instanceof Command);
          const options = args.find(isOptions) as ActionOptions;
          const positional = args.filter((a): a is string => typeof a === 'string');
          const action = build(positional, options);
          const force = options.force === true;
          if (options.server === undefined) {
            if (options.preview || options.dryRun || options.tokenFile) {
              throw new UsageError('--preview, --dry-run and --token-file go with --server (in a checkout: git diff)');
            }
            const dir = options.repo === undefined ? defaultConfigDir(io.cwd) : existingDir(options.repo, io);
            return actInCheckout(dir, positional[0], action, force, io);
          }
          if (options.repo !== undefined) {
            throw new UsageError('--repo and --server name two places to act on; give one');
          }
          const server = { ...options, server: options.server };
          return clientUsage(() => actOnServer(positional[0], action, force, server, io, palette));
        }),
      );
  };
  const advance = 'release the next step (refused while its gates have not passed, unless --force)';
  act(
    'advance',
    advance,
    () => ({ kind: 'advance' }),
    (c) => c.option('--force', 'release it although the gates have not passed (a person may; the service never does)'),
  );
  act(
    'approve',
    'approve a wave that waits for approval',
    (args) => ({ kind: 'approve', wave: args[1] }),
    (c) => c.argument('<wave>', 'the name of the wave'),
  );
  act('pause', 'stop the rollout advancing', () => ({ kind: 'pause' }));
  act('resume', 'let a paused rollout advance again', () => ({ kind: 'resume' }));
  act(
    'rollback',
    'lower released to --to (default 0: every cluster back to the catalog entry as it is), and pause',
    (_args, options) => ({ kind: 'rollback', step: stepNumber(options.to ?? '0') }),
    (c) => c.option('--to <step>', 'the steps that stay released: 0 to one below the released step'),
  );
  const complete = 'fold set into the catalog entry and remove the rollout, in one change';
  act(
    'complete',
    complete,
    (_a, o) => ({ kind: 'complete', force: o.force === true }),
    (c) => c.option('--force', 'complete it although steps are not released (their clusters change at once)'),
  );
}

function formatOption(description: string, formats: readonly string[]): Option {
  return new Option('--format <format>', description).choices(formats).default('text');
}

function stepNumber(text: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`--to ${text} is not a step number (0, 1, 2, ...)`);
  return Number(text);
}

async function clientUsage(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ClientUsage) throw new UsageError(error.message);
    throw error;
  }
}
