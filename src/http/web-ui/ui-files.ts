// The web UI's built files (`npm run build` writes them to dist/ui/ from ui/), read once at
// start and kept in memory with their gzip copies: a few files, tens of KiB in all, so a
// request costs a map lookup and a write, never a disk read or a compression.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { PACKAGE_ROOT } from '../../shared/package-root.ts';

/** Where the build puts the UI, in a checkout and in an installed package alike. */
export const UI_BUILD_DIR = fileURLToPath(new URL('dist/ui/', PACKAGE_ROOT));

/** Files whose names carry a hash of their content: a new build gives them new names. */
const HASHED_FOLDER = 'assets/';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};
/** Formats that are compressed already: gzip would only cost time. */
const COMPRESSED = new Set(['.png', '.ico', '.woff2']);

export interface UiFile {
  readonly body: Buffer;
  /** The gzip copy, when it is smaller than the body. */
  readonly gzip: Buffer | undefined;
  readonly contentType: string;
  /** A strong ETag of the body; the gzip copy's is the same with `-gzip` added. */
  readonly etag: string;
  /** True for hashed file names: cached for a year, never revalidated. */
  readonly immutable: boolean;
}

export class UiFiles {
  readonly #files: ReadonlyMap<string, UiFile>;

  private constructor(files: Map<string, UiFile>) {
    this.#files = files;
  }

  /** The files of `dir`, or undefined when the UI was not built there (no index.html). */
  static load(dir: string = UI_BUILD_DIR): UiFiles | undefined {
    if (!existsSync(join(dir, 'index.html'))) return undefined;
    const files = new Map<string, UiFile>();
    for (const path of filesUnder(dir)) {
      const name = relative(dir, path).split(sep).join('/');
      const type = CONTENT_TYPES[extname(name)];
      // A file of a type the UI does not use (a stray editor backup) is not served.
      if (type === undefined) continue;
      files.set(name, uiFile(readFileSync(path), type, name.startsWith(HASHED_FOLDER), !COMPRESSED.has(extname(name))));
    }
    return new UiFiles(files);
  }

  /**
   * The same files and one more made by the service: the page's settings (config.json), which
   * tell it what this service offers before it asks, so that it never has to learn it from an
   * error.
   */
  withGenerated(name: string, body: Buffer, contentType: string): UiFiles {
    const files = new Map(this.#files);
    files.set(name, uiFile(body, contentType, false, true));
    return new UiFiles(files);
  }

  /** The file at `name` (relative to /ui/, no leading slash), if the build holds it. */
  file(name: string): UiFile | undefined {
    return this.#files.get(name);
  }

  /** True when `name` is in the folder of hashed files: a missing one is a 404, not the page. */
  static isAsset(name: string): boolean {
    return name.startsWith(HASHED_FOLDER);
  }

  get names(): string[] {
    return [...this.#files.keys()];
  }
}

function uiFile(body: Buffer, contentType: string, immutable: boolean, compressible: boolean): UiFile {
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  const gzip = compressible ? gzipSync(body, { level: 9 }) : undefined;
  return {
    body,
    gzip: gzip !== undefined && gzip.length < body.length ? gzip : undefined,
    contentType,
    etag: `"${hash}"`,
    immutable,
  };
}

function filesUnder(dir: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = statSync(path);
    if (stat.isDirectory()) found.push(...filesUnder(path));
    else if (stat.isFile()) found.push(path);
  }
  return found;
}
