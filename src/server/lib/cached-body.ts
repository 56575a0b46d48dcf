import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { OUTPUT_CHUNK, QUICK_BROTLI } from './compress-thread';
import { chooseEncoding, matchesEtag } from './negotiation';
import { QuickBrotli } from './quick-brotli';
import { encoded } from './zod-encode';

export { chooseEncoding, matchesEtag } from './negotiation';

/**
 * One answer's bytes: the JSON and a strong ETag, made at once; its gzip and brotli forms (when
 * big enough to gain) made on the first request that asks for each, then kept. Sent as they are,
 * so Fastify runs no serializer on them. Lazily, because many answers are made for one request
 * (an uncached search) and most clients take one encoding: eager brotli was wasted on those.
 */
export interface CachedBody {
  /**
   * The JSON as made: a string (Node writes it with the headers in one write) or, for a list
   * copied from its cards' bytes, those bytes (written with the headers in one `writev`).
   */
  readonly raw: string | Buffer;
  /** Bytes of `raw` (its Content-Length). */
  readonly byteLength: number;
  readonly etag: string;
  /** Whether the answer is big enough to be worth compressing. */
  readonly compressible: boolean;
  /** The compressed bytes in `encoding`, made on first use: the same bytes on every call. */
  encoded(encoding: Encoding): Buffer;
  /**
   * The same bytes as `encoded`, made on the compression thread by the end of this turn; undefined
   * when they are made here instead (held already, not an answer made for one search, or the thread
   * cannot take it).
   */
  encodedSoon?(encoding: Encoding): Promise<Buffer> | undefined;
}

type Encoding = 'br' | 'gzip';

/** Below this, compressing saves no packet and costs a header. */
export const COMPRESS_MIN_BYTES = 1024;
export const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Brotli quality 4 and gzip level 6: within 3 % of the best sizes for our JSON at a fraction of the
 * time (quality 4 takes half of quality 5's). A 256 KB window for answers that fit in it: the
 * default 4 MB window is allocated per call, and that churn showed in the resident memory.
 * `quick` (an answer made for one search, likely sent once): brotli quality 0 and gzip level 1.
 * Compressing was a third of an uncached search's time; quality 0 takes a fifth less than 1 for
 * 8 % more bytes (search answers: 2.9 KB against 2.7, from 17.9 KB) (docs/decisions/047-quick-compression.md).
 */
/** The window of an answer that fits in 256 KB. */
const WINDOW_BYTES = 1 << 18;

const options = (raw: Buffer, encoding: Encoding, quick: boolean): zlib.ZlibOptions | zlib.BrotliOptions =>
  encoding === 'gzip'
    ? { level: quick ? 1 : 6, chunkSize: OUTPUT_CHUNK }
    : quick && raw.length <= WINDOW_BYTES
      ? QUICK_BROTLI
      : {
          chunkSize: OUTPUT_CHUNK,
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: quick ? 0 : 4,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
            ...(raw.length <= WINDOW_BYTES ? { [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } : {}),
          },
        };

/**
 * Brotli for answers made for one search, on a thread beside the event loop while searches come
 * in (docs/decisions/050-compression-thread.md). One per process; it stops when searches do.
 */
export const quickBrotli = new QuickBrotli({}, () => {
  // Nothing is lost: the event loop compresses every answer itself, as before.
  process.emitWarning('the compression thread failed repeatedly; answers are compressed on the event loop');
});

function compress(raw: Buffer, encoding: Encoding, quick: boolean): Buffer {
  const how = options(raw, encoding, quick);
  const out = encoding === 'gzip' ? zlib.gzipSync(raw, how) : zlib.brotliCompressSync(raw, how);
  // A kept answer's bytes get a buffer of their own size, not a share of a pool slab that would keep
  // the slab alive; an answer made for one search lets its slab go with it.
  if (quick || out.buffer.byteLength === out.length) return out;
  const own = Buffer.allocUnsafeSlow(out.length);
  out.copy(own);
  return own;
}

/**
 * JSON bytes written on demand into a buffer the body hands over: a list answer copied from its
 * cards' bytes. Sent compressed (the usual case), it is written into one buffer reused by every
 * answer and compressed from there, so the answer never holds a copy of its own.
 */
export interface BodySource {
  byteLength: number;
  writeTo(out: Buffer): void;
}

/** Where source bodies are written to be compressed: compression runs synchronously, one at a time. */
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
const SCRATCH_KEEP_MAX = 1024 * 1024;

/** The source's bytes in a buffer of their own (an answer sent plain, or kept and asked again). */
function ownBytes(source: BodySource): Buffer {
  const own = Buffer.allocUnsafe(source.byteLength);
  source.writeTo(own);
  return own;
}

/** The source's bytes in the reused buffer, valid until the next source is written there. */
function scratchBytes(source: BodySource): Buffer {
  // A rare huge answer does not leave a huge buffer behind.
  const buffer = source.byteLength <= scratch.length ? scratch : Buffer.allocUnsafeSlow(source.byteLength);
  if (buffer.length <= SCRATCH_KEEP_MAX) scratch = buffer;
  const view = buffer.subarray(0, source.byteLength);
  source.writeTo(view);
  return view;
}

/**
 * The bytes of a JSON answer with their ETag; compressed forms come on demand. Only what was made
 * is kept (a string is not copied into a Buffer too): a list cache holds a thousand of these
 * (docs/decisions/036-memory.md). `digest`: the ETag's value when the caller has one that changes
 * whenever the bytes do (a list answer's, from its cards' digests: hashing 20 KB of JSON per
 * uncached search cost more than compressing it); a `BodySource` must come with one.
 */
export function cachedBody(
  json: string | Buffer | BodySource,
  { quick = false, digest }: { quick?: boolean; digest?: string } = {},
): CachedBody {
  if (typeof json === 'string' || Buffer.isBuffer(json)) return new MadeBody(json, quick, digest);
  if (digest === undefined) throw new Error('a body written on demand needs its digest');
  return new SourceBody(json, quick, digest);
}

/*
 * Bodies are class instances, never object literals with a getter: V8 keeps every object made by
 * such a literal (and all it reaches: an answer's cards, its compressed bytes) alive through
 * young-generation collections until a full one. Every uncached search's answer went to the old
 * generation that way, for a full collection every ~0.7 s (docs/decisions/046-no-literal-getters.md).
 */

/** JSON made as a string or bytes. */
class MadeBody implements CachedBody {
  readonly etag: string;
  readonly compressible: boolean;
  private bytes: number | undefined;
  private made: Partial<Record<Encoding, Buffer>> | undefined;

  constructor(
    readonly raw: string | Buffer,
    private readonly quick: boolean,
    digest: string | undefined,
  ) {
    this.etag = `"${digest ?? crypto.hash('sha1', raw, 'base64url')}"`;
    this.compressible = raw.length >= COMPRESS_MIN_BYTES || Buffer.byteLength(raw) >= COMPRESS_MIN_BYTES;
  }

  /** On first use: most answers made for one search are sent compressed and never need it. */
  get byteLength(): number {
    return (this.bytes ??= typeof this.raw === 'string' ? Buffer.byteLength(this.raw) : this.raw.length);
  }

  encoded(encoding: Encoding): Buffer {
    const made = (this.made ??= {});
    return (made[encoding] ??= compress(typeof this.raw === 'string' ? Buffer.from(this.raw) : this.raw, encoding, this.quick));
  }
}

/** JSON written on demand from a `BodySource`: its own copy only when sent plain. */
class SourceBody implements CachedBody {
  readonly etag: string;
  readonly byteLength: number;
  readonly compressible: boolean;
  private own: Buffer | undefined;
  private made: Partial<Record<Encoding, Buffer>> | undefined;
  private soon: Promise<Buffer> | undefined;

  constructor(
    private readonly source: BodySource,
    private readonly quick: boolean,
    digest: string,
  ) {
    this.etag = `"${digest}"`;
    this.byteLength = source.byteLength;
    this.compressible = source.byteLength >= COMPRESS_MIN_BYTES;
  }

  get raw(): Buffer {
    return (this.own ??= ownBytes(this.source));
  }

  encoded(encoding: Encoding): Buffer {
    const made = (this.made ??= {});
    return (made[encoding] ??= compress(this.own ?? scratchBytes(this.source), encoding, this.quick));
  }

  encodedSoon(encoding: Encoding): Promise<Buffer> | undefined {
    if (!this.quick || encoding !== 'br' || this.made?.br) return undefined;
    // Asked for twice in one turn: one job.
    if (this.soon) return this.soon;
    const soon = quickBrotli.submit(this.source);
    if (!soon) return undefined;
    this.soon = soon.then(
      (bytes) => {
        (this.made ??= {}).br = bytes;
        this.soon = undefined;
        return bytes;
      },
      (err: unknown) => {
        this.soon = undefined;
        throw err;
      },
    );
    return this.soon;
  }
}

/** The JSON of a value through its response schema, exactly as the route's serializer writes it. */
export function jsonThrough<S extends z.ZodType>(schema: S, value: z.output<S>): string {
  return JSON.stringify(encoded(schema, value));
}

/**
 * Answers with cached bytes: 304 when the client holds them already, else the encoding it
 * accepts. Clients must revalidate (`no-cache`), so a change shows on the next request.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, body: CachedBody): FastifyReply {
  reply.headers(cacheHeaders(body));
  if (matchesEtag(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  const encoding = body.compressible ? chooseEncoding(request.headers['accept-encoding']) : undefined;
  reply.type(JSON_TYPE);
  if (encoding) return reply.header('content-encoding', encoding).send(body.encoded(encoding));
  // A string with a JSON content type is sent as it is (Fastify serialises only objects).
  return reply.send(body.raw);
}

/**
 * `sendCached` for an answer made for one search: its brotli bytes come from the compression
 * thread by the end of this turn, so the event loop goes on to the next request meanwhile.
 */
export async function sendCachedSoon(request: FastifyRequest, reply: FastifyReply, body: CachedBody): Promise<FastifyReply> {
  if (!body.encodedSoon || !body.compressible || matchesEtag(request.headers['if-none-match'], body.etag))
    return sendCached(request, reply, body);
  const encoding = chooseEncoding(request.headers['accept-encoding']);
  const soon = encoding && body.encodedSoon(encoding);
  if (!soon) return sendCached(request, reply, body);
  const bytes = await soon;
  reply.headers(cacheHeaders(body));
  return reply.type(JSON_TYPE).header('content-encoding', encoding).send(bytes);
}

/** The caching headers of cached bytes: clients must revalidate (`no-cache`) with the ETag. */
export function cacheHeaders(body: CachedBody): Record<string, string> {
  return { etag: body.etag, vary: 'Accept-Encoding', 'cache-control': 'no-cache' };
}

/** Answers JSON text made by the service (not cached): sent as it is, no serializer run. */
export function sendJsonText(reply: FastifyReply, text: string): FastifyReply {
  return reply.type(JSON_TYPE).send(text);
}
