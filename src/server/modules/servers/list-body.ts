import crypto from 'node:crypto';
import type { BodySource } from '../../lib/cached-body';
import { CARD_DIGEST_BYTES, type Card } from './card-cache';

const COMMA = 0x2c;
const RANK = Buffer.from(',"rank":');

/**
 * A list answer's JSON, written from its cards' bytes when the answer is sent: each card with its
 * rank added before its closing brace (ranks move with every vote, so a held card has none).
 * Sent compressed, it is written straight into the compressor's input (`BodySource`) and never held
 * as a buffer of its own. The cards' bytes never change (a new card is written elsewhere), so the
 * answer is the same whenever it is written.
 */
export function listSource(cards: readonly Card[], ranks: readonly string[]): BodySource {
  let size = 2 + Math.max(0, cards.length - 1);
  for (let i = 0; i < cards.length; i++) size += cards[i]!.length - CARD_DIGEST_BYTES + RANK.length + Buffer.byteLength(ranks[i]!);
  return {
    byteLength: size,
    writeTo(out: Buffer): void {
      let at = 0;
      out[at++] = 0x5b;
      for (let i = 0; i < cards.length; i++) {
        if (i > 0) out[at++] = COMMA;
        // The card's JSON without its closing brace (after its digest): copied from the held bytes, no view made.
        const { chunk, offset, length } = cards[i]!;
        at += chunk.copy(out, at, offset + CARD_DIGEST_BYTES, offset + length - 1);
        at += RANK.copy(out, at);
        at += out.write(ranks[i]!, at, 'utf8');
        out[at++] = 0x7d;
      }
      out[at++] = 0x5d;
    },
  };
}

/**
 * A list answer's ETag value: the same cards with the same ranks are the same bytes, so it digests
 * those, not the answer. The cards' digests and the ranks go into one buffer, copied byte by byte
 * (a `copy` of 20 bytes makes a view per card) and hashed in one call, with no `Hash` object.
 */
export function listDigest(cards: readonly Card[], ranks: readonly string[]): string {
  touch(cards);
  const tail = `|${ranks.join(',')}`;
  const head = cards.length * CARD_DIGEST_BYTES;
  const input = Buffer.allocUnsafe(head + Buffer.byteLength(tail));
  for (let i = 0; i < cards.length; i++) {
    const { chunk, offset } = cards[i]!;
    const at = i * CARD_DIGEST_BYTES;
    for (let b = 0; b < CARD_DIGEST_BYTES; b++) input[at + b] = chunk[offset + b]!;
  }
  input.write(tail, head, 'utf8');
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
