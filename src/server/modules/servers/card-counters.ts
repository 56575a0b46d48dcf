import type { VoteCounters } from './cache-change';

/**
 * A card's JSON bytes with its vote counters set to `counters`, written from the bytes it had: a
 * vote changes a few digits of a card of ~900 bytes, and decoding, parsing, writing and encoding the
 * whole card took most of a vote's work on the cards (2–5 % of the app's thread while votes stream).
 * 'older' when the counters add up to less than the card shows (an older vote's news arriving late,
 * or a new month's count). Undefined when a counter is not found as a whole number. Either way the
 * caller reads the card afresh.
 *
 * A key is found by its quoted name and colon: inside a JSON string every quote is escaped, so that
 * sequence is only ever a key, and a card is one flat object whose nested values are lists of strings.
 * A card held coded (`card-codec.ts`) is edited as it is held: `needleOf` then gives each key's code,
 * and the code of the next key ends a value as a comma would.
 */
export function withCounters(
  bytes: Buffer,
  counters: VoteCounters,
  needleOf: (key: string) => Buffer = (key) => Buffer.from(`"${key}":`, 'latin1'),
): Buffer | 'older' | undefined {
  const edits: Array<{ from: number; to: number; digits: string }> = [];
  let before = 0;
  let after = 0;
  for (const [key, value] of Object.entries(counters) as Array<[string, number]>) {
    if (!(Number.isSafeInteger(value) && value >= 0)) return undefined;
    const needle = needleOf(key);
    const at = bytes.indexOf(needle);
    if (at < 0 || bytes.indexOf(needle, at + needle.length) >= 0) return undefined;
    const from = at + needle.length;
    let to = from;
    let shown = 0;
    while (to < bytes.length && bytes[to]! >= 0x30 && bytes[to]! <= 0x39) shown = shown * 10 + bytes[to++]! - 0x30;
    // A whole number ends the value: then a comma, the object's end or (held coded) the next key's code.
    if (to === from || (bytes[to] !== 0x2c && bytes[to] !== 0x7d && !(bytes[to]! < 0x20))) return undefined;
    before += shown;
    after += value;
    edits.push({ from, to, digits: String(value) });
  }
  if (after < before) return 'older';
  edits.sort((a, b) => a.from - b.from);
  const out = Buffer.allocUnsafe(edits.reduce((n, e) => n + e.digits.length - (e.to - e.from), bytes.length));
  let read = 0;
  let write = 0;
  for (const edit of edits) {
    write += bytes.copy(out, write, read, edit.from);
    write += out.write(edit.digits, write, 'latin1');
    read = edit.to;
  }
  bytes.copy(out, write, read);
  return out;
}
