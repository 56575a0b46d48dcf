import crypto from 'node:crypto';
import type { BodySource } from '../../lib/cached-body';
import { CARD_DIGEST_BYTES, type Card } from './card';
import { decodeInto, viewOf } from './card-codec';
import { RANK_FIELDS } from './search-index.ranks';

const COMMA = 0x2c;
const bytes = (text: string) => Buffer.from(text, 'latin1');
const RANK = bytes(',"rank":');
const NULL = bytes('null');
const POSITION = bytes('{"position":');
const OF = bytes(',"of":');
const NO_GAME_END = bytes(',"game":null}');
const GAME_NAME = bytes(',"game":{"name":');
const GAME_POSITION = bytes(',"position":');
const GAME_END = bytes('}}');

/**
 * The ranks of a page's cards, written into the answer as numbers: no string per server is made
 * or kept (held by server, 100,000 of them were 8 MB of the heap).
 */
export interface PageRanks {
  /** `RANK_FIELDS` numbers per card (`Ranks.into`); a position of 0: not listed (`"rank":null`). */
  values: Int32Array;
  /** Per card, its game's name as a JSON string's bytes; null where it shows no game. */
  gameNames: ReadonlyArray<Buffer | null>;
}

/** Copies a few bytes: a loop, where `copy` would cross into C++ for each piece. */
function put(out: Buffer, at: number, piece: Buffer): number {
  for (let i = 0; i < piece.length; i++) out[at + i] = piece[i]!;
  return at + piece.length;
}

/** Decimal digits of a whole number ≥ 0. */
function digits(n: number): number {
  let count = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    count++;
  }
  return count;
}

function writeWhole(out: Buffer, at: number, n: number): number {
  const end = at + digits(n);
  let i = end;
  do {
    out[--i] = 0x30 + (n % 10);
    n = Math.floor(n / 10);
  } while (n > 0);
  return end;
}

/** Bytes of card `i`'s rank JSON (after `"rank":`). */
function rankLength(ranks: PageRanks, i: number): number {
  const v = ranks.values;
  const at = i * RANK_FIELDS;
  if (v[at] === 0) return NULL.length;
  const name = ranks.gameNames[i];
  const head = POSITION.length + digits(v[at]!) + OF.length + digits(v[at + 1]!);
  if (!name) return head + NO_GAME_END.length;
  return (
    head + GAME_NAME.length + name.length + GAME_POSITION.length + digits(v[at + 3]!) + OF.length + digits(v[at + 4]!) + GAME_END.length
  );
}

/** Writes card `i`'s rank JSON as `JSON.stringify` writes `{ position, of, game: { name, position, of } | null }`. */
function writeRank(out: Buffer, at: number, ranks: PageRanks, i: number): number {
  const v = ranks.values;
  const from = i * RANK_FIELDS;
  if (v[from] === 0) return put(out, at, NULL);
  at = put(out, at, POSITION);
  at = writeWhole(out, at, v[from]!);
  at = put(out, at, OF);
  at = writeWhole(out, at, v[from + 1]!);
  const name = ranks.gameNames[i];
  if (!name) return put(out, at, NO_GAME_END);
  at = put(out, at, GAME_NAME);
  at = put(out, at, name);
  at = put(out, at, GAME_POSITION);
  at = writeWhole(out, at, v[from + 3]!);
  at = put(out, at, OF);
  at = writeWhole(out, at, v[from + 4]!);
  return put(out, at, GAME_END);
}

/**
 * A list answer's JSON, written from its cards' bytes when the answer is sent: each card with its
 * rank added before its closing brace (ranks move with every vote, so a held card has none).
 * Sent compressed, it is written straight into the compressor's input (`BodySource`) and never held
 * as a buffer of its own. The cards' bytes never change (a new card is written elsewhere), so the
 * answer is the same whenever it is written.
 */
export function listSource(cards: readonly Card[], ranks: PageRanks): BodySource {
  let size = 2 + Math.max(0, cards.length - 1);
  for (let i = 0; i < cards.length; i++) size += cards[i]!.jsonLength + RANK.length + rankLength(ranks, i);
  return {
    byteLength: size,
    writeTo(out: Buffer): void {
      const outView = viewOf(out);
      let at = 0;
      out[at++] = 0x5b;
      for (let i = 0; i < cards.length; i++) {
        if (i > 0) out[at++] = COMMA;
        // The card's JSON without its closing brace (after its digest), decoded from the held bytes
        // (a code never stands for a brace, so the last held byte is the JSON's): no view made.
        const { chunk, view, offset, length } = cards[i]!;
        at = decodeInto(out, outView, at, chunk, view, offset + CARD_DIGEST_BYTES, offset + length - 1);
        at = put(out, at, RANK);
        at = writeRank(out, at, ranks, i);
        out[at++] = 0x7d;
      }
      out[at++] = 0x5d;
    },
  };
}

/**
 * A list answer's ETag value: the same cards with the same ranks are the same bytes, so it digests
 * those, not the answer: the cards' digests, the ranks' numbers and their games' names, in one
 * buffer (a card's digest copied byte by byte: a `copy` of 20 bytes makes a view per card) hashed
 * in one call, with no `Hash` object.
 */
export function listDigest(cards: readonly Card[], ranks: PageRanks): string {
  touch(cards);
  const head = cards.length * CARD_DIGEST_BYTES;
  let names = 0;
  for (let i = 0; i < cards.length; i++) names += (ranks.gameNames[i]?.length ?? 0) + 1;
  const values = ranks.values;
  const input = Buffer.allocUnsafe(head + values.byteLength + names);
  for (let i = 0; i < cards.length; i++) {
    const { chunk, offset } = cards[i]!;
    const at = i * CARD_DIGEST_BYTES;
    for (let b = 0; b < CARD_DIGEST_BYTES; b++) input[at + b] = chunk[offset + b]!;
  }
  let at = head + Buffer.from(values.buffer, values.byteOffset, values.byteLength).copy(input, head);
  for (let i = 0; i < cards.length; i++) {
    // A name's JSON never holds a raw control character: 0x00 ends each one unambiguously.
    const name = ranks.gameNames[i];
    if (name) at += name.copy(input, at);
    input[at++] = 0;
  }
  return crypto.hash('sha1', input, 'base64url');
}

/** A cache line's bytes (x86-64 and most ARM cores). */
const LINE = 64;
/** Where `touch` leaves what it read, so the reads are not optimised away. */
let _touched = 0;

/**
 * Reads a byte of every cache line of the cards, in one tight loop, before anything else reads
 * them. The cards lie at random in tens of megabytes, so each is a trip to main memory; read one
 * card at a time (the digest, then the copy), those trips came one after another, while loads this
 * close together and independent of each other are in flight at once. Measured in the app under
 * the common-word search mix (35 cards a page of the benchmark's 100,000): digest and copy 36 µs a
 * page before, 24 µs with this pass included.
 */
function touch(cards: readonly Card[]): void {
  let x = 0;
  for (let i = 0; i < cards.length; i++) {
    const { chunk, offset, length } = cards[i]!;
    const end = offset + length;
    for (let at = offset; at < end; at += LINE) x ^= chunk[at]!;
    // The last line, when the card does not start on a line.
    x ^= chunk[end - 1]!;
  }
  _touched ^= x;
}
