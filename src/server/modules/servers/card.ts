/**
 * SHA-1 of a card's held bytes, raw, held before them (coded bytes stand for one JSON each, so they
 * tell cards apart as well as the JSON would).
 */
export const CARD_DIGEST_BYTES = 20;

/**
 * A card's JSON bytes and a digest of them, so a list answer's ETag is a digest of its cards'
 * digests (no hashing of the whole answer): where they lie in memory the cache owns, the digest
 * then the JSON with its keys as codes (`card-codec.ts`), never changed (a new card is written
 * elsewhere) and valid for as long as the card is held. A place, not a view: a search joins dozens
 * of cards, and a view per card was most of what an answer kept alive past a young-generation
 * collection (docs/decisions/044-request-buffers.md).
 */
export class Card {
  constructor(
    readonly id: number,
    /** The buffer the card lies in, from `offset` for `length` bytes: its digest, then its coded JSON. */
    readonly chunk: Buffer,
    /** A `DataView` of `chunk` at the same offsets (the decoder reads through it). */
    readonly view: DataView,
    readonly offset: number,
    readonly length: number,
    /** Bytes of the card's JSON once decoded. */
    readonly jsonLength: number,
  ) {}
}
