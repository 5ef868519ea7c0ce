// Every link between the project's documents leads somewhere: a relative link names a file
// or folder that exists, and an #anchor names a heading of the file it points into, spelled
// as GitHub makes anchors. The documents were split from one README into docs/ by subject;
// a section that moves, or a source file that is renamed, shows up here as a dead link.
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  anchors,
  fromRoot,
  isExternal,
  links,
  projectDocuments,
  REPO_ROOT,
  slug,
  type MarkdownFile,
} from '../helpers/markdown.ts';

const documents = projectDocuments();
const byPath = new Map(documents.map((doc) => [doc.path, doc]));

describe('GitHub heading anchors', () => {
  it('lowercase, spaces to -, punctuation dropped but - and _', () => {
    expect(slug('People: signing in with OIDC')).toBe('people-signing-in-with-oidc');
    expect(slug('Replicas (`npm run bench`)')).toBe('replicas-npm-run-bench');
    expect(slug('`API_MODE=crud`: writes')).toBe('api_modecrud-writes');
    expect(slug('What a platform-components item holds')).toBe('what-a-platform-components-item-holds');
    expect(slug('The `gitops-config` tool')).toBe('the-gitops-config-tool');
    expect(slug('ETag, 304 and gzip')).toBe('etag-304-and-gzip');
    expect(slug('Start → ready')).toBe('start--ready');
  });

  it('repeated headings get -1, -2', () => {
    const doc = { path: 'x.md', text: '# Examples\n\n## Examples\n\n```sh\n# Examples\n```\n\n### Examples\n' };
    expect([...anchors(doc)]).toEqual(['examples', 'examples-1', 'examples-2']);
  });
});

function problems(doc: MarkdownFile): string[] {
  const found: string[] = [];
  for (const { target, line } of links(doc)) {
    if (isExternal(target)) continue;
    const where = `${doc.path}:${line}: (${target})`;
    const hash = target.indexOf('#');
    const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
    const anchor = hash === -1 ? undefined : target.slice(hash + 1);
    if (pathPart === '') {
      if (anchor !== undefined && !anchors(doc).has(anchor))
        found.push(`${where}: ${doc.path} has no heading with the anchor #${anchor}`);
      continue;
    }
    const absolute = pathPart.startsWith('/')
      ? join(REPO_ROOT, pathPart)
      : join(REPO_ROOT, dirname(doc.path), pathPart);
    if (!absolute.startsWith(REPO_ROOT)) {
      found.push(`${where} leaves the repository`);
      continue;
    }
    if (!existsSync(absolute)) {
      found.push(`${where} names ${fromRoot(absolute)}, which does not exist`);
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(absolute).isDirectory() || !absolute.endsWith('.md')) {
      found.push(`${where} has an anchor, but ${fromRoot(absolute)} is not a Markdown file`);
      continue;
    }
    const linked = byPath.get(fromRoot(absolute));
    if (!linked) {
      found.push(`${where} points into ${fromRoot(absolute)}, which is not among the documents checked`);
      continue;
    }
    if (!anchors(linked).has(anchor)) found.push(`${where}: ${linked.path} has no heading with the anchor #${anchor}`);
  }
  return found;
}

describe('links between the documents', () => {
  it('checks README.md, ARCHITECTURE.md and every Markdown file under docs/', () => {
    const paths = documents.map((doc) => doc.path);
    expect(paths).toContain('README.md');
    expect(paths).toContain('ARCHITECTURE.md');
    expect(paths).toContain('docs/decisions/README.md');
    expect(paths.filter((path) => path.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it.each(documents.map((doc) => [doc.path, doc] as const))(
    '%s: every relative link and #anchor resolves',
    (_path, doc) => {
      expect(problems(doc)).toEqual([]);
    },
  );

  it('finds a dead file, a dead anchor and a live one', () => {
    const doc = {
      path: 'docs/x.md',
      text:
        '# Here\n\n[a](../README.md#quick-start) [b](nowhere.md) [c](../README.md#nowhere) [d](#here) ' +
        '`[e](no.md)` [f](https://example.com/x)\n',
    };
    const found = problems(doc);
    expect(found).toHaveLength(2);
    expect(found[0]).toContain('docs/nowhere.md, which does not exist');
    expect(found[1]).toContain('no heading with the anchor #nowhere');
  });
});
