// Which body a request gets: gzip or identity, by the q-values of Accept-Encoding
// (RFC 9110 §12.5.3). Go's client, the fleet's poller, sends exactly "gzip", which is
// answered without parsing; everything else is weighed properly, so "*, gzip;q=0" (gzip
// refused by name, whatever the wildcard says) gets the plain body.

/** True when gzip is acceptable and the client did not prefer the plain body by name. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  if (header === 'gzip') return true;
  let gzip: number | undefined;
  let identity: number | undefined;
  let wildcard: number | undefined;
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';');
    const coding = name.trim().toLowerCase();
    if (coding === '') continue;
    const q = qValue(params);
    if (coding === 'gzip' || coding === 'x-gzip') gzip = Math.max(gzip ?? 0, q);
    else if (coding === 'identity') identity = q;
    else if (coding === '*') wildcard = q;
  }
  const gzipWeight = gzip ?? wildcard ?? 0;
  // Any accepted weight means gzip (as common servers do), unless the client named the plain
  // body and weighted it above gzip.
  return gzipWeight > 0 && (identity === undefined || gzipWeight >= identity);
}

/** The q parameter's weight: 1 when absent, 0 when malformed (a broken weight accepts nothing). */
function qValue(params: string[]): number {
  for (const param of params) {
    const [key, value] = param.split('=');
    if (key?.trim().toLowerCase() !== 'q') continue;
    const text = value?.trim() ?? '';
    if (!/^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/.test(text)) return 0;
    return Number(text);
  }
  return 1;
}
