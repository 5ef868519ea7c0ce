// Positions of problems from the text of their files (domain/repo-layout/problem-positions.ts):
// which files are asked for, within the bounds the service keeps on a revision with thousands
// of broken files, and what a problem without its file's text becomes.
import { describe, expect, it } from 'vitest';
import { type Problem, problem } from '../../../src/domain/problem.ts';
import { filesToLocate, locateProblems } from '../../../src/domain/repo-layout/problem-positions.ts';

const at = (file: string, field: string): Problem['at'] => ({
  record: { collection: 'clusters', id: file.slice(9, -5) },
  field,
  file,
});
const unknownIn = (file: string) => problem('unknown_field', at(file, '/colour'), 'unknown field "colour"');
const TEXT = 'cluster_name: one\ncluster_dns: one.example.com\nenvironment: dev\ncolour: blue\n';

describe('filesToLocate', () => {
  it('asks for at most maxFiles files, named by the first maxProblems problems, in the order they come', () => {
    const problems = Array.from({ length: 50_000 }, (_, i) => unknownIn(`clusters/c${i}.yaml`));
    const files = filesToLocate(problems, { maxProblems: 200, maxFiles: 50 });
    expect(files).toEqual(problems.slice(0, 50).map((p) => p.at.file));
    const inTwoFiles = Array.from({ length: 1000 }, (_, i) => unknownIn(`clusters/c${i % 2}.yaml`));
    expect(filesToLocate(inTwoFiles, { maxProblems: 200, maxFiles: 50 })).toEqual([
      'clusters/c0.yaml',
      'clusters/c1.yaml',
    ]);
  });

  it('skips problems that carry a line already and problems without a file', () => {
    const syntax = problem('yaml_syntax', { ...at('clusters/a.yaml', ''), line: 3, column: 2 }, 'bad indentation');
    const noFile = problem('duplicate_id', { record: { collection: 'clusters', id: 'x' }, field: '' }, 'twice');
    expect(filesToLocate([syntax, noFile, unknownIn('clusters/b.yaml')])).toEqual(['clusters/b.yaml']);
  });
});

describe('locateProblems', () => {
  it(
    'puts each problem at its key or value, leaves those past maxProblems, and those without a text as the caller ' +
      'says',
    () => {
      const problems = [
        unknownIn('clusters/one.yaml'),
        unknownIn('clusters/other.yaml'),
        unknownIn('clusters/one.yaml'),
      ];
      const texts = new Map([['clusters/one.yaml', TEXT]]);
      const service = locateProblems(problems, texts, { maxProblems: 2, withoutText: 'unlocated' });
      expect(service.map((p) => [p.at.line, p.at.column])).toEqual([
        [4, 1],
        [undefined, undefined],
        [undefined, undefined],
      ]);
      const tool = locateProblems(problems, texts, { withoutText: 'first-line' });
      expect(tool.map((p) => [p.at.line, p.at.column])).toEqual([
        [4, 1],
        [1, 1],
        [4, 1],
      ]);
    },
  );
});
