// Which body a request gets: gzip or identity, by Accept-Encoding and its q-values
// (RFC 9110 §12.5.3), so "*, gzip;q=0" (gzip refused by name, whatever the wildcard says)
// gets the plain body. Go's client, the fleet's poller, sends exactly "gzip", which is
// answered without parsing; any other header is weighed by negotiator (the parser Express
// uses for the same header).
import Negotiator from 'negotiator';

const AVAILABLE = ['gzip', 'identity'];

/** True when gzip is the coding the client prefers among gzip and the plain body. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  if (header === 'gzip') return true;
  return new Negotiator({ headers: { 'accept-encoding': header } }).encoding(AVAILABLE) === 'gzip';
}
