// Golden cases (test/golden/<case>/): for each input repo, the exact bytes of every read
// endpoint and of every config-repo tool command, compared with the expected files. A change
// of output is made on purpose with `npm run golden:update` and read in review.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GOLDEN_ROOT, goldenCases, produceCase, readExpected } from '../helpers/golden.ts';

describe.each(goldenCases())('golden case %s', (name) => {
  it('produces exactly the expected bytes, file for file', async () => {
    const caseDir = join(GOLDEN_ROOT, name);
    const expected = readExpected(caseDir);
    const produced = await produceCase(caseDir);
    expect([...produced.keys()].sort(), 'the files produced (npm run golden:update writes them)').toEqual([...expected.keys()].sort());
    for (const [path, bytes] of produced) {
      expect(bytes.toString('utf8'), `${name}/expected/${path}`).toBe(expected.get(path)!.toString('utf8'));
    }
  });
});
