// The tests' process starter (test/helpers/process-starter.ts) answers as spawnSync and
// execFileSync would, for the commands the helpers give it.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../helpers/git-fixture.ts';
import { CommandError, runCommand, runCommandText } from '../helpers/process-starter.ts';

/** The process id of whoever ran `sh -c 'echo $PPID'`. */
const parentOf = (result: { stdout: Buffer | string }) => Number(String(result.stdout).trim());

describe('the process starter', () => {
  it('gives the status, stdout and stderr spawnSync gives, byte for byte', () => {
    const script = 'printf "a\\0b\\377"; printf "warn\\n" >&2; exit 3';
    const started = runCommand('sh', ['-c', script]);
    const direct = spawnSync('sh', ['-c', script]);
    expect(started.status).toBe(3);
    expect(started.stdout.equals(direct.stdout)).toBe(true);
    expect(started.stderr.equals(direct.stderr)).toBe(true);
  });

  it('runs in the folder, with the environment and the input given', () => {
    const dir = tempDir();
    try {
      const text = runCommandText('sh', ['-c', 'pwd; echo "$ONLY_HERE"; cat'], {
        cwd: dir,
        env: { ...process.env, ONLY_HERE: 'yes' },
        input: 'from stdin\n',
      });
      expect(text).toBe(`${execFileSync('pwd', { cwd: dir, encoding: 'utf8' })}yes\nfrom stdin\n`);
    } finally {
      removeDir(dir);
    }
  });

  it('carries 8 MiB each way', () => {
    const input = 'x'.repeat(8 << 20);
    expect(runCommandText('cat', [], { input })).toBe(input);
  });

  it('throws for a failed command as execFileSync does: the command, its status and its stderr', () => {
    const failing = () => runCommandText('sh', ['-c', 'echo out; echo bad >&2; exit 2']);
    expect(failing).toThrow(CommandError);
    expect(failing).toThrow('Command failed: sh -c echo out; echo bad >&2; exit 2\nbad\n');
    try {
      failing();
    } catch (error) {
      expect(error).toMatchObject({ status: 2, stdout: 'out\n', stderr: 'bad\n' });
    }
  });

  it('says why a command could not start, and stops one past its timeout, as spawnSync does', () => {
    expect(runCommand('no-such-command-anywhere', []).error).toMatch(/ENOENT/);
    expect(() => runCommandText('no-such-command-anywhere', ['x'])).toThrow(/^no-such-command-anywhere x: .*ENOENT/);
    const stopped = runCommand('sleep', ['10'], { timeout: 200 });
    expect(stopped).toMatchObject({ status: null, signal: 'SIGTERM', error: expect.stringMatching(/ETIMEDOUT/) });
  });

  it('starts commands from one small process of its own, not from the test worker', () => {
    const first = parentOf(runCommand('sh', ['-c', 'echo $PPID']));
    const second = parentOf(runCommand('sh', ['-c', 'echo $PPID']));
    expect(first).toBe(second);
    expect(first).not.toBe(process.pid);
    const status = readFileSync(`/proc/${first}/status`, 'utf8');
    expect(Number(/^PPid:\s+(\d+)/m.exec(status)?.[1])).toBe(process.pid);
  });
});
