// The examples of the README and of every document under docs/, run against the real service
// on the bundled example repo: every shell block is either run here (its commands as written,
// only the address changed) or named below with the reason it cannot run in a test, every
// console block's commands run and print exactly what it shows, and the JSON the documents
// show is compared with what is really served and logged. A new example without a check fails.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { cpSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { commitAll, git, removeDir, tempDir } from '../helpers/git-fixture.ts';
import { request } from '../helpers/http.ts';
import { codeBlocks, projectDocuments, REPO_ROOT, type CodeBlock } from '../helpers/markdown.ts';
import { expectMatchesOpenApi } from '../helpers/openapi.ts';
import { startTestService, type TestService } from '../helpers/service.ts';
import { runCommandText } from '../helpers/process-starter.ts';

const DOCUMENTS = projectDocuments();
const ALL_BLOCKS = DOCUMENTS.flatMap(codeBlocks);
const EXAMPLE_REPO = new URL('../../config-repo-example', import.meta.url).pathname;
const README_READ_TOKEN = 'change-me';
const README_WRITE_TOKEN = 'change-me-too';

/** The one block of a language under a heading, wherever the documents put it. */
function blockUnder(section: string, lang: string): CodeBlock {
  const found = ALL_BLOCKS.filter((b) => b.section === section && b.lang === lang);
  expect(
    found.map((b) => b.file),
    `one ${lang} block under "${section}"`,
  ).toHaveLength(1);
  return found[0];
}

/** Shell blocks that are examples of things a test cannot do, by their first line. */
const NOT_RUN: Record<string, string> = {
  '# 1. install, and serve the bundled example config repo on 0.0.0.0:8080':
    '.ci/run runs the Quick start commands on a fresh clone',
  '# a scratch Git copy of config-repo-example in data/crud-config-repo (made once; the':
    'the same server in crud mode is started here on a temporary copy; test/store/backends/git-local/writes.test.ts ' +
    'covers the script',
  '# from a checkout of this repository (relative paths are taken from where you are)':
    "paths of the reader's own config repo; the commands are tested in test/tools/",
  '# back up, while the service runs: a consistent copy in one file':
    "an operator's procedure with the sqlite3 shell and dated file names; that a database changed by another process " +
    'is published is tested in test/store/backends/sqlite/store.test.ts',
  'AUTH_TOKEN=... \\': 'needs a repository on a Git host',
  'kubectl -n flux-system create secret generic gitops-config-token \\':
    'needs a Kubernetes cluster; test/docs/flux.test.ts checks the manifests that read this Secret',
  "# on cluster dev-eu-1: the provider's Secret holds its own token, as `token` (sent as Bearer) …":
    'needs a Kubernetes cluster; the cluster-token command is run as a console example, and the token as Bearer and ' +
    'as Basic in test/http/cluster-tokens.test.ts',
  'export GITOPS_CONFIG_TOKEN=...   # a token that reads the fleet':
    "a read-only service and a clone of the reader's own; the same steps run in test/tools/rollout-read-only.test.ts",
  'kubectl create namespace gitops-config':
    'needs a Kubernetes cluster; test/deploy/manifests.test.ts checks the manifests that read these Secrets',
};

/** The commands of a shell block: comments dropped, continuation lines joined. */
function commands(block: string): string[] {
  return block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** Asynchronously: the server answering the command runs in this process. */
async function runShell(command: string, env: Record<string, string>, timeout = 20_000): Promise<string> {
  const { stdout } = await promisify(execFile)('bash', ['-c', command], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    timeout,
  });
  return stdout;
}

const HAS_JQ = spawnSync('jq', ['--version']).status === 0;

function gitOutIn(dir: string, ...args: string[]): string {
  return runCommandText('git', args, { cwd: dir }).trim();
}

/** Status lines of `curl -i` output (the last one when redirects or 100-continue add more). */
function statuses(output: string): number[] {
  return [...output.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
}

const shellBlocks = ALL_BLOCKS.filter((b) => b.lang === 'sh');

let reader: TestService;
let writer: TestService;
let crudDir: string;
beforeAll(async () => {
  reader = await startTestService({ AUTH_TOKEN: README_READ_TOKEN, STORE_BACKEND: 'git', CONFIG_REPO: EXAMPLE_REPO });
  crudDir = tempDir('readme-crud-');
  cpSync(EXAMPLE_REPO, crudDir, { recursive: true });
  git(crudDir, 'init', '-q', '-b', 'main');
  commitAll(crudDir, 'example');
  writer = await startTestService({
    AUTH_TOKEN: README_READ_TOKEN,
    CRUD_AUTH_TOKEN: README_WRITE_TOKEN,
    API_MODE: 'crud',
    STORE_BACKEND: 'git',
    CONFIG_REPO: crudDir,
    LOG_LEVEL: 'info',
  });
});
afterAll(async () => {
  await reader?.close();
  await writer?.close();
  if (crudDir) removeDir(crudDir);
});

describe('examples of the README and docs/', () => {
  it('has a check, or a stated reason, for every shell block', () => {
    const unknown = shellBlocks
      .map((b) => `${b.file}: ${b.text.split('\n')[0]}`)
      .filter((named) => {
        const first = named.slice(named.indexOf(': ') + 2);
        return !(first in NOT_RUN) && !RUN.some((r) => first === r.first);
      });
    expect(unknown).toEqual([]);
  });

  it('names no block that is gone', () => {
    const firsts = new Set(shellBlocks.map((b) => b.text.split('\n')[0]));
    expect([...Object.keys(NOT_RUN), ...RUN.map((r) => r.first)].filter((first) => !firsts.has(first))).toEqual([]);
  });

  it('Quick start and Endpoints: every read example answers 2xx (or 304) with what the comment says', async () => {
    for (const first of [
      "curl -s -H 'Authorization: Bearer change-me' \\",
      'curl -H "Authorization: Bearer $T" ' +
        'http://localhost:8080/api/v2/gitops/clusters/dev-eu-1.k8s.example.com/platform-components',
      "# the last revision that changed prod-eu-1's answers",
    ]) {
      const block = shellBlocks.find((b) => b.text.startsWith(first))!;
      expect(block, first).toBeDefined();
      for (const command of commands(block.text)) {
        const local = command.replaceAll('http://localhost:8080', reader.url).replace('"<etag from before>"', '"x"');
        const output = await runShell(
          `curl -sS -o /dev/stderr -w '%{http_code}' ${local.replace(/^curl /, '')} 2>/dev/null`,
          { T: README_READ_TOKEN },
        );
        expect([200, 304], command).toContain(Number(output.trim().slice(-3)));
      }
    }
  });

  it('Crud mode examples: each command gets the answer its comment names', async () => {
    // The block runs as one script, as a reader pastes it (ETAG= carries over); each comment
    // line becomes a marker, so the output is split by the comment that introduces it.
    const block = shellBlocks.find((b) => b.text.startsWith('# list: all clusters of one environment'))!;
    const script = block.text
      .split('\n')
      .map((line) => (line.startsWith('#') ? `echo; echo '@@@ ${line.slice(1).trim().replaceAll("'", '')}'` : line))
      .join('\n');
    const output = await runShell(`set -e\n${script}`, { W: README_WRITE_TOKEN, B: writer.url });
    const sections = new Map(
      output
        .split(/^@@@ /m)
        .filter(Boolean)
        .map((part) => [part.slice(0, part.indexOf('\n')), part.slice(part.indexOf('\n') + 1)] as const),
    );
    const after = (comment: string) => {
      const key = [...sections.keys()].find((k) => k.startsWith(comment));
      expect(key, comment).toBeDefined();
      return sections.get(key!)!;
    };
    const listed = after('list: all clusters of one environment');
    expect(statuses(listed)).toEqual([200]);
    expect(listed.toLowerCase()).toContain('x-total-count: 1');
    const found = JSON.parse(after('find a cluster by its DNS name'));
    expect(found.map((c: { id: string }) => c.id)).toEqual(['prod-eu-1']);
    const one = after('get one record');
    expect(statuses(one)).toEqual([200]);
    expect(one.toLowerCase()).toContain('etag: ');
    const created = after('create (201 Created');
    expect(statuses(created)).toEqual([201]);
    expect(created).toMatch(/^location: \/namespaces\/team-search\r?$/im);
    const patched = JSON.parse(after('merge patch'));
    expect(patched.patches.podinfo.replicaCount).toBe('3');
    expect(patched.patches.podinfo).not.toHaveProperty('ui.color');
    expect(statuses(after('replace the whole record'))).toEqual([200]);
    const deletes = after('delete (204)');
    expect(statuses(deletes)).toEqual([204, 409]);
    expect(deletes).toContain('dev-eu-1');
  });

  // Skipped only where jq is not installed: the worked example builds its change set with jq, as it says.
  it.skipIf(!HAS_JQ)(
    'Commit messages and the worked example: a message of its own, a preview, a dry run that stores nothing, one ' +
      'commit for every prod cluster, found in the history',
    async () => {
      /** A block run as one script, its output split by the comment that introduces each part. */
      const run = async (first: string) => {
        const block = shellBlocks.find((b) => b.text.startsWith(first))!;
        expect(block, first).toBeDefined();
        const script = block.text
          .replaceAll('data/crud-config-repo', crudDir)
          .split('\n')
          .map((line) => (line.startsWith('#') ? `echo; echo '@@@ ${line.slice(1).trim().replaceAll("'", '')}'` : line))
          .join('\n');
        const output = await runShell(`set -e -o pipefail\n${script}`, { W: README_WRITE_TOKEN, B: writer.url });
        return (comment: string) => {
          const part = output.split(/^@@@ /m).find((p) => p.startsWith(comment));
          expect(part, comment).toBeDefined();
          return part!.slice(part!.indexOf('\n') + 1);
        };
      };
      const message = await run('# a patch committed with a message of its own');
      expect(message('a patch committed')).toContain(
        'Scale podinfo on dev-eu-1 for the load test\n\nBack to 3 on Monday.\n',
      );

      const head = gitOutIn(crudDir, 'rev-parse', 'HEAD');
      const example = await run('# every prod cluster, as read (its ETag)');
      const preview = JSON.parse(example('preview: which clusters'));
      expect(preview).toEqual({
        publishable: true,
        guard: 'pass',
        // The crud examples above may have moved the catalog's podinfo to 6.7.2 already.
        clusters: [
          {
            id: 'prod-eu-1',
            changed: [{ id: 'podinfo', fields: [expect.stringMatching(/^source\.oci_tag: 6\.7\.[12] -> 6\.8\.0$/)] }],
          },
        ],
      });
      const trial = example('a dry run');
      expect(statuses(trial)).toEqual([201]);
      expect(trial.toLowerCase()).toContain('gitops-dry-run: true');
      expect(trial).toContain('"revision":null');
      const stored = example('store it');
      expect(statuses(stored)).toEqual([201]);
      expect(stored).toContain('Pin podinfo 6.8.0 on every prod cluster\n\nThe catalog follows in the next release.');
      expect(stored).toContain('clusters/prod-eu-1.yaml');
      expect(gitOutIn(crudDir, 'rev-list', '--count', `${head}..HEAD`)).toBe('1');
      const history = JSON.parse(example('find it in the history'));
      expect(history).toEqual({
        result: 'published',
        author: 'gitops-config-api',
        message: 'Pin podinfo 6.8.0 on every prod cluster\n\nThe catalog follows in the next release.',
        clusters: ['prod-eu-1'],
      });
      const served = await request(
        writer.url,
        '/api/v2/gitops/clusters/prod-eu-1.k8s.example.com/platform-components',
        { token: README_READ_TOKEN },
      );
      expect(served.json().inputs.find((i: { id: string }) => i.id === 'podinfo').source.oci_tag).toBe('6.8.0');
    },
  );

  // Skipped only where jq is not installed: the example builds its change sets with jq, as it says.
  it.skipIf(!HAS_JQ)(
    'Rollouts over REST: create, a previewed release of step 1 alone, a rollback, every step, a completion that ' +
      'changes no cluster',
    async () => {
      const block = shellBlocks.find((b) => b.text.startsWith('# create it: nothing changes for any cluster'))!;
      expect(block).toBeDefined();
      const script = block.text
        .split('\n')
        .map((line) => (line.startsWith('#') ? `echo; echo '@@@ ${line.slice(1).trim().replaceAll("'", '')}'` : line))
        .join('\n');
      const before = await request(writer.url, '/api/v2/gitops/clusters/dev-eu-1.k8s.example.com/platform-components', {
        token: README_READ_TOKEN,
      });
      const output = await runShell(`set -e -o pipefail\n${script}`, { W: README_WRITE_TOKEN, B: writer.url });
      const after = (comment: string) => {
        const part = output.split(/^@@@ /m).find((p) => p.startsWith(comment));
        expect(part, comment).toBeDefined();
        return part!.slice(part!.indexOf('\n') + 1).trim();
      };
      expect(statuses(after('create it'))).toEqual([201]);
      expect(after('release step 1').split('\n')).toEqual(['["dev-eu-1"]', '1']);
      expect(after('roll back')).toBe('{"released":0,"paused":true}');
      expect(after('release every step')).toBe('{"released":3,"paused":false}');
      expect(after('complete').split('\n')).toEqual([
        '0',
        '[{"collection":"platform_components","id":"podinfo","gone":false},' +
          '{"collection":"rollouts","id":"podinfo-6-8","gone":true}]',
      ]);
      const served = await request(writer.url, '/api/v2/gitops/clusters/dev-eu-1.k8s.example.com/platform-components', {
        token: README_READ_TOKEN,
      });
      const podinfo = (res: typeof served) => res.json().inputs.find((i: { id: string }) => i.id === 'podinfo');
      expect(podinfo(served)).toEqual({
        ...podinfo(before),
        component_version: '6.8.0',
        source: { ...podinfo(before).source, oci_tag: '6.8.0' },
      });
    },
  );

  // Skipped only where jq is not installed: the example reads every answer with jq, as it says.
  it.skipIf(!HAS_JQ)(
    'Rollouts, the worked example: prints what the document shows, and the service released the steps itself',
    async () => {
      const block = blockUnder('A worked example', 'sh');
      expect(block.file).toBe('docs/rollouts.md');
      const head = gitOutIn(crudDir, 'rev-parse', 'HEAD');
      // Its loops wait for the service's evaluations (a second apart) and a soak of 2 s.
      const output = await runShell(
        `set -e -o pipefail\n${block.text}`,
        { W: README_WRITE_TOKEN, B: writer.url },
        60_000,
      );
      expect(output.trimEnd()).toBe(blockUnder('A worked example', 'text').text.trimEnd());
      const history = gitOutIn(
        crudDir,
        'log',
        '--reverse',
        '--format=%an: %s',
        `${head}..HEAD`,
        '--',
        'rollouts/traefik-34.yaml',
      ).split('\n');
      expect(
        history.filter((line) => line.includes('release step')).map((line) => line.replace(/ \u2014 .*$/, '')),
      ).toEqual([
        'gitops-config-api: rollout traefik-34: release step 1 (wave canary, 1 cluster)',
        'gitops-config-api: rollout traefik-34: release step 2 (wave non-prod, 2 clusters)',
        'gitops-config-api: rollout traefik-34: release step 2 (wave non-prod, 2 clusters)',
        'gitops-config-api: rollout traefik-34: release step 3 (wave prod, 1 cluster)',
      ]);
      expect(history.at(-1)).toBe('gitops-config-api: traefik-34: complete');
      const served = await request(
        writer.url,
        '/api/v2/gitops/clusters/prod-eu-1.k8s.example.com/platform-components',
        { token: README_READ_TOKEN },
      );
      expect(served.json().inputs.find((i: { id: string }) => i.id === 'traefik').source.oci_tag).toBe('34.0.0');
    },
    90_000,
  );

  it('shows a platform-components item exactly as it is served', async () => {
    const block = blockUnder('Quick start', 'json');
    const shown = JSON.parse(block.text);
    const res = await request(reader.url, `/api/v2/gitops/clusters/${shown.cluster.dns}/platform-components`, {
      token: README_READ_TOKEN,
    });
    const served = res.json().inputs.find((item: { id: string }) => item.id === shown.id);
    expect(shown).toEqual(served);
    expect(Object.keys(shown)).toEqual(Object.keys(served));
  });

  it('shows the audit line with the fields a write really logs', async () => {
    const block = blockUnder('Audit log', 'json');
    const shown = JSON.parse(block.text);
    const audit = writer
      .logText()
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'audit' && line.action === 'update' && line.collection === 'clusters');
    expect(audit, 'the crud examples made an update').toBeDefined();
    expect(Object.keys(shown).sort()).toEqual(Object.keys(audit).sort());
  });

  it('People: every OIDC example is a set of settings the service starts with, as its comment says', () => {
    const block = shellBlocks.find((b) => b.text.startsWith('# Dex (https://dexidp.io)'))!;
    expect(block).toBeDefined();
    // An example is a run of comment lines and the settings under them.
    const examples: Record<string, string>[] = [];
    let previousWasSetting = true;
    for (const line of block.text.split('\n')) {
      if (line.startsWith('#')) {
        if (previousWasSetting) examples.push({});
        previousWasSetting = false;
      } else if (line.trim() !== '') {
        const [name, ...value] = line.split('=');
        examples[examples.length - 1][name] = value.join('=');
        previousWasSetting = true;
      }
    }
    expect(examples).toHaveLength(3);
    for (const env of examples) {
      const oidc = loadConfig({ AUTH_TOKEN: README_READ_TOKEN, ...env }).oidc;
      expect(oidc?.issuerUrl).toBe(env.OIDC_ISSUER_URL);
      expect(oidc?.audiences).toEqual(['gitops-config-api']);
      expect(oidc?.writeGroups.length).toBeGreaterThan(0);
    }
    expect(examples[2].OIDC_WRITE_GROUPS).toBe('acme:platform');
  });

  it(
    'The web UI at an identity provider: the Dex and Keycloak settings are settings the service starts with, the UI ' +
      'signing in as the client',
    () => {
      const blocks = ALL_BLOCKS.filter(
        (b) => b.section === 'Signing in with your identity provider' && b.lang === 'sh',
      );
      expect(blocks.map((b) => b.text.split('\n')[0])).toEqual([
        'OIDC_ISSUER_URL=https://dex.example.com',
        'OIDC_ISSUER_URL=https://keycloak.example.com/realms/platform',
      ]);
      const settings = blocks.map((block) =>
        Object.fromEntries(
          block.text
            .split('\n')
            .filter((line) => line.trim() !== '')
            .map((line) => {
              const [name, ...value] = line.replace(/\s+#.*$/, '').split('=');
              return [name, value.join('=').replace(/^"(.*)"$/, '$1')];
            }),
        ),
      );
      const [dex, keycloak] = settings.map((env) => loadConfig({ AUTH_TOKEN: README_READ_TOKEN, ...env }).oidc?.ui);
      expect(dex).toEqual({ clientId: 'gitops-config-api', scopes: ['openid', 'profile', 'email', 'groups'] });
      expect(keycloak).toEqual({ clientId: 'gitops-config-api', scopes: ['openid', 'profile', 'email'] });
    },
  );

  it('shows a fleet view of the shape the service answers', async () => {
    const block = blockUnder('The fleet view', 'json');
    await expectMatchesOpenApi('get', '/api/v2/gitops/fleet', 200, JSON.parse(block.text));
    expect((await request(reader.url, '/api/v2/gitops/fleet?state=behind', { token: README_READ_TOKEN })).status).toBe(
      200,
    );
  });

  it('shows whoami answers (one a line: a cluster, a person) of the shape the service answers', async () => {
    const block = blockUnder('Who the caller is: whoami', 'json');
    const shown = block.text
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line));
    expect(shown.map((answer) => answer.kind)).toEqual(['cluster', 'person']);
    const served = (await request(reader.url, '/api/v2/gitops/whoami', { token: README_READ_TOKEN })).json();
    for (const answer of shown) {
      await expectMatchesOpenApi('get', '/api/v2/gitops/whoami', 200, answer);
      expect(Object.keys(answer)).toEqual(Object.keys(served));
    }
  });

  it('documents /health as it answers', async () => {
    const health = (await request(reader.url, '/health')).text;
    expect(DOCUMENTS.filter((doc) => doc.text.includes(`\`${health}\``)).map((doc) => doc.path)).not.toEqual([]);
  });
});

describe('command-line examples of the README and docs/ (```console blocks)', () => {
  // `$ <command>` lines followed by the output the document shows; each command runs from the
  // top of this repository, as the documents say, and must print exactly that on stdout.
  const sessions = ALL_BLOCKS.filter((b) => b.lang === 'console').flatMap((b) =>
    b.text
      .split(/^\$ /m)
      .filter(Boolean)
      .map((part) => {
        const [command = '', ...output] = part.split('\n');
        return { command, output: output.join('\n').replace(/\n*$/, ''), file: b.file };
      }),
  );

  it('has examples to run', () => {
    expect(sessions.length).toBeGreaterThan(0);
  });

  it.each(sessions.map((s) => [s.file, s.command, s] as const))('%s: $ %s', async (_file, _command, session) => {
    const result = await promisify(execFile)('bash', ['-c', session.command], {
      cwd: REPO_ROOT,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '', GITHUB_ACTIONS: '' },
      encoding: 'utf8',
      timeout: 60_000,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
    expect(result.stdout.replace(/\n*$/, '')).toBe(session.output);
  });
});

/** The blocks run above, by their first line. */
const RUN = [
  { first: '# a patch committed with a message of its own: subject, blank line, body' },
  { first: '# every prod cluster, as read (its ETag), with podinfo pinned to 6.8.0: one change set' },
  {
    first:
      '# create it: nothing changes for any cluster until a step is released (released: 0); paused: the steps below ' +
      'are yours',
  },
  {
    first:
      "# watching: the rollout's state, reason, step and clusters by state; a cluster's traefik tag; a cluster's poll",
  },
  { first: "curl -s -H 'Authorization: Bearer change-me' \\" },
  { first: "# the last revision that changed prod-eu-1's answers" },
  {
    first:
      'curl -H "Authorization: Bearer $T" ' +
      'http://localhost:8080/api/v2/gitops/clusters/dev-eu-1.k8s.example.com/platform-components',
  },
  { first: '# list: all clusters of one environment, 50 at a time; the total is in X-Total-Count' },
  { first: '# Dex (https://dexidp.io): a static client "gitops-config-api"; the person asks for the' },
  { first: 'OIDC_ISSUER_URL=https://dex.example.com' },
  { first: 'OIDC_ISSUER_URL=https://keycloak.example.com/realms/platform' },
];
