// The package's `gitops-config` bin: from a source checkout, and from a packed package placed
// in another project's node_modules, where Node refuses to strip TypeScript types and the
// compiled dist/ must be used.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/git-fixture.ts';
import { BIN, cleanEnv, runCli } from '../helpers/tools.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'config-repo-example');
const dirs: string[] = [];
const uiBuiltAt = () => statSync(join(ROOT, 'dist', 'ui', 'index.html'), { throwIfNoEntry: false })?.mtimeMs;
afterAll(() => dirs.forEach(removeDir));

describe('the gitops-config bin', () => {
  it('runs the tool from a source checkout', () => {
    const viaBin = runCli(['validate', EXAMPLE], { script: BIN });
    expect(viaBin.status).toBe(0);
    expect(viaBin.stdout).toBe(runCli(['validate', EXAMPLE]).stdout);
  });

  it('works from a packed package installed in another project (compiled dist/, plain JavaScript)', () => {
    const work = tempDir('packed-');
    dirs.push(work);
    // `npm pack` runs the prepare script (the build) and packs only the "files" of package.json.
    // It packs a copy of the checkout: the build empties dist/ui/ before writing it again, and
    // the services other test files start meanwhile read the UI from there.
    const uiBefore = uiBuiltAt();
    const checkout = join(work, 'checkout');
    const NOT_COPIED = new Set(['node_modules', '.git', 'dist', 'test-results', 'bench-results', 'data']);
    cpSync(ROOT, checkout, { recursive: true, filter: (path) => !NOT_COPIED.has(relative(ROOT, path)) });
    symlinkSync(join(ROOT, 'node_modules'), join(checkout, 'node_modules'));
    const output = execFileSync('npm', ['pack', '--silent', '--pack-destination', work], {
      cwd: checkout,
      env: cleanEnv(),
      encoding: 'utf8',
    });
    const tarball = join(work, output.trim().split('\n').pop()!);
    expect(uiBuiltAt(), "the checkout's own dist/ui/, left alone").toBe(uiBefore);
    // What `npm install <tarball>` lays out, without the network: the package in
    // node_modules, its dependencies next to it, and the bin link.
    const consumer = join(work, 'consumer');
    const installed = join(consumer, 'node_modules', 'gitops-config-api');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['xzf', tarball, '-C', installed, '--strip-components=1']);
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name.startsWith('.')) continue;
      symlinkSync(join(ROOT, 'node_modules', name), join(consumer, 'node_modules', name));
    }
    mkdirSync(join(consumer, 'node_modules', '.bin'));
    symlinkSync('../gitops-config-api/bin/gitops-config.js', join(consumer, 'node_modules', '.bin', 'gitops-config'));

    const files = readdirSync(installed, { recursive: true }).map(String);
    expect(files).toContain('bin/gitops-config.js');
    expect(files).toContain(join('dist', 'src', 'tools', 'cli.js'));
    expect(files).not.toContain(join('src', 'tools', 'cli.ts'));
    for (const kind of ['cluster', 'platform_component', 'namespace', 'rolebinding'])
      expect(files).toContain(join('schemas', `${kind}.schema.json`));
    // The web UI, built by the same prepare script, ships in the package for the service to serve.
    expect(files).toContain(join('dist', 'ui', 'index.html'));
    expect(files.some((file) => /^dist\/ui\/assets\/index-[\w-]+\.js$/.test(file))).toBe(true);
    expect(files.some((file) => file.startsWith(`ui${sep}`))).toBe(false);

    const result = runCli(['validate', EXAMPLE], {
      script: join(consumer, 'node_modules', '.bin', 'gitops-config'),
      cwd: consumer,
    });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(runCli(['validate', EXAMPLE]).stdout);
    const inputs = runCli(['inputs', EXAMPLE, 'prod-eu-1.k8s.example.com'], {
      script: join(consumer, 'node_modules', '.bin', 'gitops-config'),
    });
    expect(inputs.status).toBe(0);
    expect(inputs.stdoutBytes.equals(runCli(['inputs', EXAMPLE, 'prod-eu-1.k8s.example.com']).stdoutBytes)).toBe(true);
  }, 120_000); // npm pack runs the whole build (the service, the tool and the UI): a minute on a busy machine
});

describe('npm run validate', () => {
  it('takes relative paths from where it is typed, not from the package root', () => {
    const work = tempDir('npm-run-');
    dirs.push(work);
    cpSync(EXAMPLE, join(work, 'my-config'), { recursive: true });
    const result = spawnSync('npm', ['--prefix', ROOT, 'run', '--silent', 'validate', '--', 'my-config'], {
      cwd: work,
      env: cleanEnv(),
      encoding: 'utf8',
    });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(runCli(['validate', EXAMPLE]).stdout);
  });
});
