// Conditional GETs: whether the copy a client holds is the one it would get. One matcher for
// every answer with an ETag: the read path's prepared responses, a REST record, the web UI's
// files.

/**
 * The tag of a body's gzip copy: the same hash, marked, since a different coding is a different
 * representation (the read path's bodies are tagged alike by serving/encoded-body.ts).
 */
const GZIP_MARK = '-gzip';

export function gzipEtag(etag: string): string {
  return `${etag.slice(0, -1)}${GZIP_MARK}"`;
}

/**
 * Whether an If-None-Match header names the representation tagged `etag` (`"<hash>"`): `*`,
 * or any tag of its list, weak or strong (If-None-Match compares weakly, RFC 9110 §13.1.2).
 * A body served plain and gzipped is tagged `"<hash>"` and `"<hash>-gzip"`, and either tag
 * revalidates either: both hold the same document. The quotes may be left out.
 */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  // What a client sends back almost always: the tag exactly as it got it.
  if (header === etag) return true;
  if (header.trim() === '*') return true;
  const hash = etag.slice(1, -1);
  return header.split(',').some((candidate) => {
    const tag = candidate.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
    return tag === hash || tag === `${hash}${GZIP_MARK}`;
  });
}
