import crypto from 'node:crypto';
import { CARD_DIGEST_BYTES, type Card } from './card-cache';

const COMMA = 0x2c;
const RANK = Buffer.from(',"rank":');

/**
 * A list answer's JSON, copied once from its cards' bytes into one buffer: each card with its rank
 * added before its closing brace (ranks move with every vote, so a held card has none). Joining
 * the cards as strings made the answer twice (the joined string, then its UTF-8 bytes).
 */
export function listBody(cards: readonly Card[], ranks: readonly string[]): Buffer {
  let size = 2 + Math.max(0, cards.length - 1);
  for (let i = 0; i < cards.length; i++) size += cards[i]!.held.length - CARD_DIGEST_BYTES + RANK.length + Buffer.byteLength(ranks[i]!);
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  out[at++] = 0x5b;
  for (let i = 0; i < cards.length; i++) {
    if (i > 0) out[at++] = COMMA;
    // The card's JSON without its closing brace (after its digest): copied from the held bytes, no view made.
    const held = cards[i]!.held;
    at += held.copy(out, at, CARD_DIGEST_BYTES, held.length - 1);
    at += RANK.copy(out, at);
    at += out.write(ranks[i]!, at, 'utf8');
    out[at++] = 0x7d;
  }
  out[at++] = 0x5d;
  return out;
}

/** A list answer's ETag value: the same cards with the same ranks are the same bytes, so it digests those, not the answer. */
export function listDigest(cards: readonly Card[], ranks: readonly string[]): string {
  // The digests side by side, hashed at once: the same value as hashing them one after another.
  const digests = Buffer.allocUnsafe(cards.length * CARD_DIGEST_BYTES);
  for (let i = 0; i < cards.length; i++) cards[i]!.held.copy(digests, i * CARD_DIGEST_BYTES, 0, CARD_DIGEST_BYTES);
  return crypto
    .createHash('sha1')
    .update(digests)
    .update(`|${ranks.join(',')}`)
    .digest('base64url');
}
