import { serverSchema } from '../../../shared/schemas/server';

/**
 * How a held card's JSON is kept shorter: each key of the API's server object, with the comma
 * before it and the colon after (`,"statusMessage":`, the first one `{"id":`), and `null` are
 * written as one byte below 0x20. JSON text never holds such a byte (`JSON.stringify` escapes every
 * control character in a string), so any JSON goes in and comes back out byte for byte, wherever
 * those words happen to appear; a card with other keys is only kept less short. The 25 keys were a
 * third of a card's ~870 bytes: ~30 MB of the 100,000 cards held
 * (docs/decisions/071-cards-without-their-keys.md).
 */
const WORDS: readonly Buffer[] = (() => {
  const keys = Object.keys(serverSchema.shape).filter((key) => key !== 'rank');
  const words = keys.map((key, i) => `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`);
  words.push('null');
  // Codes 0x01..0x1f; 0x00 is left unused.
  if (words.length > 0x1f) throw new Error(`card-codec: ${words.length} words, at most 31 fit`);
  return words.map((word) => Buffer.from(word, 'latin1'));
})();

/** Code of each word, by the word's text. */
const CODE_OF = new Map(WORDS.map((word, i) => [word.toString('latin1'), String.fromCharCode(i + 1)]));
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every word, longest first where one starts another. */
const FIND = new RegExp(
  [...CODE_OF.keys()]
    .sort((a, b) => b.length - a.length)
    .map(escapeRegExp)
    .join('|'),
  'g',
);

/** The words one after another (and 4 spare bytes, so each is read 4 bytes at a time), with where each starts. */
const FLAT = Buffer.alloc(WORDS.reduce((n, word) => n + word.length, 4));
const FLAT_VIEW = viewOf(FLAT);
const WORD_AT = new Int32Array(0x20);
const WORD_LENGTH = new Int32Array(0x20);
WORDS.reduce((at, word, i) => {
  WORD_AT[i + 1] = at;
  WORD_LENGTH[i + 1] = word.length;
  return at + word.copy(FLAT, at);
}, 0);

/** Each key's code, by the key's name. */
const KEY_CODES = new Map(
  [...CODE_OF].flatMap(([word, code]) =>
    word.endsWith(':') ? [[JSON.parse(word.slice(1, -1)) as string, Buffer.from(code, 'latin1')]] : [],
  ),
);

/**
 * The bytes a key is held as in a card (where a vote's counters are edited): its code, or for a key
 * the server object does not have, its quoted name and colon as in JSON.
 */
export function heldKey(key: string): Buffer {
  return KEY_CODES.get(key) ?? Buffer.from(`${JSON.stringify(key)}:`, 'latin1');
}

/** A view of `bytes` with the same offsets, for reading and writing 4 bytes at a time. */
export function viewOf(bytes: Buffer): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Whether any of 4 bytes is below 0x20, a code (exact: "hasless" of the Bit Twiddling Hacks). */
const holdsCode = (x: number) => ((x - 0x20202020) & ~x & 0x80808080) !== 0;

/** A card's JSON as it is held: its words as codes (UTF-8). */
export function encodeCard(json: string): Buffer {
  return Buffer.from(
    json.replace(FIND, (word) => CODE_OF.get(word)!),
    'utf8',
  );
}

/** Bytes of JSON that held bytes `from`..`to` of `held` stand for. */
export function decodedLength(held: Uint8Array, from = 0, to = held.length): number {
  let length = to - from;
  for (let p = from; p < to; p++) {
    const b = held[p]!;
    if (b < 0x20) length += WORD_LENGTH[b]! - 1;
  }
  return length;
}

/**
 * Writes the JSON that held bytes `from`..`to` of `held` stand for into `out` at `at`; answers where
 * it ended. `outView` and `heldView` are `viewOf` the two (made once per buffer, not per call: a
 * view costs more than a card's copy). Runs without a code are moved 8 bytes at a time, and words
 * 4 at a time: byte by byte, a card took 7 times as long as `Buffer.copy` of its JSON, and this
 * about 3 times (~0.5 µs for a card of 900 bytes).
 */
export function decodeInto(out: Buffer, outView: DataView, at: number, held: Buffer, heldView: DataView, from: number, to: number): number {
  let p = from;
  // A word is written 4 bytes at a time up to here; past it, byte by byte, so no write passes the end.
  const wordRoom = out.length - 4;
  while (p < to) {
    while (p + 8 <= to) {
      const x = heldView.getUint32(p, true);
      const y = heldView.getUint32(p + 4, true);
      if (holdsCode(x) || holdsCode(y)) break;
      outView.setUint32(at, x, true);
      outView.setUint32(at + 4, y, true);
      p += 8;
      at += 8;
    }
    if (p >= to) break;
    const b = held[p++]!;
    if (b >= 0x20) {
      out[at++] = b;
      continue;
    }
    const wordAt = WORD_AT[b]!;
    const length = WORD_LENGTH[b]!;
    if (at + length <= wordRoom) {
      for (let k = 0; k < length; k += 4) outView.setUint32(at + k, FLAT_VIEW.getUint32(wordAt + k, true), true);
      at += length;
    } else {
      for (let k = wordAt; k < wordAt + length; k++) out[at++] = FLAT[k]!;
    }
  }
  return at;
}

/** The JSON that held bytes stand for, as bytes. */
export function decodeCard(held: Buffer, from = 0, to = held.length): Buffer {
  const out = Buffer.allocUnsafe(decodedLength(held, from, to));
  decodeInto(out, viewOf(out), 0, held, viewOf(held), from, to);
  return out;
}
