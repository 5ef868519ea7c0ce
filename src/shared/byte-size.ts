/** "1mb", "512kb", "1MiB", or plain bytes; undefined when the text is none of these. */
export function byteSize(value: string): number | undefined {
  const match = /^(\d+)\s*(b|kb|kib|mb|mib)?$/i.exec(value.trim());
  if (!match) return undefined;
  const unit = (match[2] ?? 'b').toLowerCase();
  const factor = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 * 1024 : 1;
  return Number(match[1]) * factor;
}
