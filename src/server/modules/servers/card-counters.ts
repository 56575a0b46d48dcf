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
 */
export function withCounters(bytes: Buffer, counters: VoteCounters): Buffer | 'older' | undefined {
  const edits: Array<{ from: number; to: number; digits: string }> = [];
  let before = 0;
  let after = 0;
  for (const [key, value] of Object.entries(counters) as Array<[string, number]>) {
    if (!(Number.isSafeInteger(value) && value >= 0)) return undefined;
    const needle = `"${key}":`;
    const at = bytes.indexOf(needle, 0, 'latin1');
    if (at < 0 || bytes.indexOf(needle, at + needle.length, 'latin1') >= 0) return undefined;
    const from = at + needle.length;
    let to = from;
    let shown = 0;
    while (to < bytes.length && bytes[to]! >= 0x30 && bytes[to]! <= 0x39) shown = shown * 10 + bytes[to++]! - 0x30;
    // A whole number ends the value: then a comma or the object's end.
    if (to === from || (bytes[to] !== 0x2c && bytes[to] !== 0x7d)) return undefined;
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
