// The exit status of gitops-config: the contract with the CI that runs it.

export const EXIT_OK = 0;
/** validate found errors; inputs cannot answer; diff's head would be refused by the server; apply was refused. */
export const EXIT_PROBLEMS = 1;
/** The command line is wrong, or what it names cannot be read: nothing was judged. */
export const EXIT_USAGE = 2;

const USAGE_LINE =
  '  2  usage: an unknown command or option, a missing argument, a folder with no\n     record files, a revision ' +
  'that cannot be read, a Git repository in a form\n     that is not supported (sha256, reftable, an unknown ' +
  'extension)';

/** What --help says about them, for the program and for each command. */
export const EXIT_STATUS_HELP = {
  program: `Exit status:
  0  no problems (validate: warnings allowed, unless --strict)
  1  problems: validate found errors; inputs cannot answer; diff's head would be
     REFUSED by the server; apply was refused, or its --preview would be;
     rollout: no such rollout, an action that does not fit it, gates not passed
${USAGE_LINE}`,
  validate: `Exit status:
  0  no errors (warnings allowed, unless --strict)
  1  errors
${USAGE_LINE}`,
  inputs: `Exit status:
  0  the body is printed
  1  the server would not answer with it: no cluster has that name (404), it
     would be over 900 KiB (500), or the server would refuse the revision (its
     problems go to stderr)
${USAGE_LINE}`,
  'cluster-token': `Exit status:
  0  the token is printed
  1  the working tree has no valid record of that cluster
  2  usage: CLUSTER_TOKEN_KEYS is not set or not valid, a malformed cluster id,
     an unknown option, a missing argument`,
  apply: `Exit status:
  0  stored (or, with --dry-run, it would be); with --preview: the service would
     publish what the change set makes
  1  the service refused it (its message and, per write, the details go to
     stderr), could not be reached, or, with --preview, would not publish it
  2  usage: an unknown option, a missing argument or --server, no token, a file
     that cannot be read or is not JSON, --preview with --dry-run`,
  rollout: `Exit status:
  0  done: the status is printed, the file edited, the change stored (or, with
     --dry-run, it would be; with --preview, the service would publish it), or
     nothing to change (the rollout is that way already)
  1  no rollout has that id; the action does not fit it (every step released,
     a wave it does not have, a step out of range); an advance whose gates have
     not passed, without --force; the service refused it or cannot be reached
  2  usage: an unknown option, a missing argument, --server without a token,
     --to that is not a step number, --preview without --server`,
  diff: `Exit status:
  0  the server, serving the base, would publish the head
  1  REFUSED: it would refuse the head and keep serving the base (the problems
     go to stderr too)
${USAGE_LINE}`,
};
