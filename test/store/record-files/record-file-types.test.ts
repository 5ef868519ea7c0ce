// Only regular files are read: a record file replaced by a symbolic link, a link to
// /dev/zero, a FIFO and a 54 MB file are each refused with a clear problem, without being
// followed, opened or read whole; the service keeps answering its probes at once meanwhile,
// the fix is published, and SIGTERM stops the process even with a FIFO in a record folder.
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { asRepoFiles } from '../../helpers/fixture-data.ts';
import { makeConfigRepo, writeFiles } from '../../helpers/git-fixture.ts';
import { eventually, request } from '../../helpers/http.ts';
import { type ServiceProcess, startServiceProcess } from '../../helpers/process.ts';
import { runTool } from '../../helpers/run-tool.ts';

let service: ServiceProcess | undefined;
afterAll(async () => {
  if (service?.child.exitCode === null) await service.stop('SIGKILL');
});

async function readyProblems(url: string): Promise<{ code: string; file: string; message: string }[] | undefined> {
  const ready = (await request(url, '/ready', { token: 'process-token' })).json();
  return ready.stale ? ready.last_load.problems : undefined;
}

/** Asks /health again and again while `until` is not met; returns the slowest answer. */
async function slowestHealthWhile(url: string, until: () => Promise<boolean>): Promise<number> {
  let slowest = 0;
  for (;;) {
    const started = performance.now();
    const res = await request(url, '/health');
    slowest = Math.max(slowest, performance.now() - started);
    expect(res.status).toBe(200);
    if (await until()) return slowest;
  }
}

const CASES: [string, (dir: string) => void, string, RegExp][] = [
  [
    'a record file replaced by a symbolic link',
    (dir) => {
      rmSync(join(dir, 'namespaces/team-b.yaml'));
      symlinkSync('team-a.yaml', join(dir, 'namespaces/team-b.yaml'));
    },
    'namespaces/team-b.yaml',
    /is a symbolic link; record files must be regular files/,
  ],
  [
    'a symbolic link to /dev/zero',
    (dir) => symlinkSync('/dev/zero', join(dir, 'clusters/zero.yaml')),
    'clusters/zero.yaml',
    /is a symbolic link/,
  ],
  [
    'a FIFO',
    (dir) => execFileSync('mkfifo', [join(dir, 'clusters/pipe.yaml')]),
    'clusters/pipe.yaml',
    /is a FIFO \(named pipe\)/,
  ],
  [
    'a 54 MB file',
    (dir) => writeFileSync(join(dir, 'clusters/huge.yaml'), `# ${'x'.repeat(1000)}\n`.repeat(54_000)),
    'clusters/huge.yaml',
    /is \d+ bytes, over MAX_RECORD_BYTES \(1048576\); it is not read/,
  ],
];

it(
  'refuses links, FIFOs, devices and oversized files with a clear problem, answers /health at once, serves the fix, ' +
    'and stops on SIGTERM',
  async () => {
    const files = asRepoFiles();
    const dir = makeConfigRepo(files);
    service = await startServiceProcess({ CONFIG_REPO: dir });
    const url = service.url;
    const good = (await request(url, '/ready', { token: 'process-token' })).json().revision;

    for (const [name, make, file, message] of CASES) {
      make(dir);
      const slowest = await slowestHealthWhile(
        url,
        async () => (await readyProblems(url))?.some((p) => p.file === file) === true,
      );
      expect(slowest, `${name}: the slowest /health`).toBeLessThan(100);
      // Only the file's own problem: the FIFO of an earlier case may still be there.
      const problems = (await readyProblems(url))!.filter(
        (p) => p.file !== 'clusters/pipe.yaml' || file === 'clusters/pipe.yaml',
      );
      expect(problems, name).toEqual([expect.objectContaining({ file, message: expect.stringMatching(message) })]);
      expect(['not_regular_file', 'file_too_large']).toContain(problems[0].code);
      expect((await request(url, '/ready', { token: 'process-token' })).json().revision).toBe(good);

      // validate reads the same tree the same way.
      const validate = await runTool(['validate', dir]);
      expect(validate.status, name).toBe(1);
      expect(validate.stdout, name).toMatch(new RegExp(`^${file.replace('.', '\\.')}:1:1: error: `, 'm'));

      // The fix: the file as it was, or gone; the FIFO stays until the end, for SIGTERM.
      if (file === 'clusters/pipe.yaml') continue;
      rmSync(join(dir, file));
      if (file === 'namespaces/team-b.yaml') writeFiles(dir, { [file]: files[file] });
      await eventually(async () => (await readyProblems(url))?.some((p) => p.file === file) !== true, 5000);
    }

    const { code, ms } = await service.stop('SIGTERM');
    expect(code).toBe(0);
    expect(ms).toBeLessThan(5000);
  },
);
