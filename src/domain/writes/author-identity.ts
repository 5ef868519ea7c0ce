// A person's name and e-mail as the service writes them down: a Git commit's author line,
// the audit line, SQLite's audit_log, the history of revisions. They come from an issuer's
// claims, which whoever has an account there may set. A control character would corrupt a
// commit header (a NUL is `nulInHeader` to `git fsck`, and a host that checks objects
// refuses the push) or reach the terminal of whoever runs `git log` as an escape sequence;
// a bidirectional control makes a name read as another one. So a name is cleaned once,
// before the write is made, and every record of the write shows the same name; an e-mail
// that is not plainly an address is left out rather than mended.

/** Characters that break a line or a field: each becomes a space. */
const SPACING = /[\t\n\v\f\r\u0085\u2028\u2029]/gu;
/** Control characters (C0, DEL, C1), bidirectional controls, and the brackets that end git's name field: removed. */
const UNSEEN = /[\p{Cc}\p{Bidi_Control}<>]/gu;

/** The name with no control character, no bidirectional control, no angle bracket, single spaces, trimmed. */
export function cleanPersonName(text: string): string {
  return text.replace(SPACING, ' ').replace(UNSEEN, '').replace(/\s+/gu, ' ').trim();
}

/**
 * What neither part of an address may hold: spaces, controls, format characters (bidi
 * controls among them), the specials of RFC 5322.
 */
const ADDRESS_PART = String.raw`[^\s\p{Cc}\p{Cf}@<>()[\]\\,;:"]+`;
const ADDRESS = new RegExp(`^${ADDRESS_PART}@${ADDRESS_PART}$`, 'u');
/** The longest address SMTP carries (RFC 5321's path limit, less its brackets). */
const MAX_ADDRESS_LENGTH = 254;

/**
 * The address when `text` is one — `local@domain`, nothing a header could not carry, the
 * domain's labels not empty — else undefined. Blanks at the ends are not part of it.
 */
export function emailAddress(text: string): string | undefined {
  const address = text.trim();
  if (address.length > MAX_ADDRESS_LENGTH || !ADDRESS.test(address)) return undefined;
  const domain = address.slice(address.indexOf('@') + 1);
  return domain.split('.').includes('') ? undefined : address;
}
