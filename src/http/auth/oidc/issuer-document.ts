// The issuer's documents — its discovery document and its keys (JWKS) — read within a limit.
// They are a few kilobytes; read whole, an issuer that answers with megabytes (misconfigured,
// or not the issuer at all) would make the service hold them all, once per attempt. The body
// is read as it arrives and given up at the limit, so that what is held stays under it
// whatever the issuer sends (a Content-Length over it is refused before anything is read; a
// compressed body is counted once inflated).

/** The most of one issuer document that is read: 1 MiB, some hundred times a large JWKS. */
export const ISSUER_DOCUMENT_MAX_BYTES = 1024 * 1024;

/** The body of the answer from `url`, read up to `limit` bytes; past them an Error naming the limit. */
export async function issuerDocumentBytes(
  response: Response,
  url: string,
  limit = ISSUER_DOCUMENT_MAX_BYTES,
): Promise<Uint8Array> {
  const tooLarge = () =>
    new Error(
      `${url} answered a document larger than ${limit} bytes (1 MiB), the limit for an issuer's document; the rest ` +
        `was not read`,
    );
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > limit) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = response.body?.getReader();
  if (reader === undefined) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/** The document as JSON; an Error naming the limit, or saying it is not JSON. */
export async function issuerDocumentJson(response: Response, url: string): Promise<unknown> {
  const bytes = await issuerDocumentBytes(response, url);
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw new Error(`${url} did not answer a JSON document`);
  }
}
