// Reading the project's Markdown as GitHub renders it, for the tests that hold the documents
// to the code: which files there are, their fenced code blocks, their links and the anchors
// their headings get.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const REPO_ROOT = new URL('../..', import.meta.url).pathname;

export interface MarkdownFile {
  /** Path from the top of the repository, with `/`. */
  path: string;
  text: string;
}

function markdownUnder(folder: string): string[] {
  return readdirSync(join(REPO_ROOT, folder), { withFileTypes: true })
    .flatMap((entry) => {
      const path = `${folder}/${entry.name}`;
      if (entry.isDirectory()) return markdownUnder(path);
      return entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}

/** README.md, ARCHITECTURE.md and every Markdown file under docs/: what a reader is sent to. */
export function projectDocuments(): MarkdownFile[] {
  return ['README.md', 'ARCHITECTURE.md', ...markdownUnder('docs')].map((path) => ({
    path,
    text: readFileSync(join(REPO_ROOT, path), 'utf8'),
  }));
}

export interface CodeBlock {
  lang: string;
  text: string;
  /** The heading the block sits under. */
  section: string;
  /** The file it is in (path from the top of the repository). */
  file: string;
}

/** The fenced blocks of a document (``` fences at the start of a line, indented ones too). */
export function codeBlocks(doc: MarkdownFile): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  let section = '';
  let open: { lang: string; indent: string; lines: string[] } | undefined;
  for (const line of doc.text.split('\n')) {
    const fence = /^(\s*)```(\S*)\s*$/.exec(line);
    if (open) {
      if (fence) {
        blocks.push({ lang: open.lang, text: open.lines.join('\n'), section, file: doc.path });
        open = undefined;
      } else open.lines.push(line.startsWith(open.indent) ? line.slice(open.indent.length) : line);
    } else if (fence) open = { lang: fence[2], indent: fence[1], lines: [] };
    else if (/^#{1,6} /.test(line)) section = line.replace(/^#+ /, '');
  }
  return blocks;
}

/** The text with fenced blocks blanked out (kept as empty lines, so line numbers hold). */
function outsideFences(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** A heading's text as rendered: inline code, links, images and emphasis reduced to their text. */
function headingText(markdown: string): string {
  return markdown
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`([^`]*)`/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim();
}

/**
 * GitHub's anchor for a heading's text: lowercased, every character that is not a letter, a
 * mark, a digit, a space, `-` or `_` removed, spaces turned into `-`.
 */
export function slug(text: string): string {
  return headingText(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors of a document's headings; a repeated one gets `-1`, `-2`, … as on GitHub. */
export function anchors(doc: MarkdownFile): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of outsideFences(doc.text)) {
    const heading = /^#{1,6} +(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

export interface Link {
  target: string;
  line: number;
}

/** Links and images outside code: `[text](target)` and `![alt](target "title")`. */
export function links(doc: MarkdownFile): Link[] {
  const found: Link[] = [];
  outsideFences(doc.text).forEach((line, index) => {
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      found.push({ target: match[1], line: index + 1 });
  });
  return found;
}

/** Whether a link leaves the repository (a URL with a scheme, or mail). */
export function isExternal(target: string): boolean {
  return /^[a-z][a-z0-9+.-]*:/i.test(target);
}

/** A path from the top of the repository, for messages. */
export function fromRoot(absolute: string): string {
  return relative(REPO_ROOT, absolute);
}
