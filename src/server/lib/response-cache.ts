import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';

/**
 * One answer's bytes: the JSON and a strong ETag, made at once; its gzip and brotli forms (when
 * big enough to gain) made on the first request that asks for each, then kept. Sent as they are,
 * so Fastify runs no serializer on them. Lazily, because many answers are made for one request
 * (an uncached search) and most clients take one encoding: eager brotli was wasted on those.
 */
export interface CachedBody {
  /** Sent as a string: Node writes a string body with the headers in one write, a Buffer in two. */
  text: string;
  etag: string;
  /** Whether the answer is big enough to be worth compressing. */
  compressible: boolean;
  /** The compressed bytes in `encoding`, made on first use. */
  encoded(encoding: 'br' | 'gzip'): Buffer;
}

/** Below this, compressing saves no packet and costs a header. */
export const COMPRESS_MIN_BYTES = 1024;
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Brotli quality 4 and gzip level 6: within 3 % of the best sizes for our JSON at a fraction of the
 * time (quality 4 takes half of quality 5's). A 256 KB window for answers that fit in it: the
 * default 4 MB window is allocated per call, and that churn showed in the resident memory.
 */
function compress(raw: Buffer, encoding: 'br' | 'gzip'): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(raw, { level: 6 });
  return zlib.brotliCompressSync(raw, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
      ...(raw.length <= 1 << 18 ? { [zlib.constants.BROTLI_PARAM_LGWIN]: 18 } : {}),
    },
  });
}

/**
 * The bytes of a JSON string with their ETag; compressed forms come on demand. Only the string is
 * kept (no second copy as a Buffer): a list cache holds a thousand of these
 * (docs/decisions/036-memory.md).
 */
export function cachedBody(json: string): CachedBody {
  let gzip: Buffer | undefined;
  let br: Buffer | undefined;
  return {
    text: json,
    etag: `"${crypto.createHash('sha1').update(json, 'utf8').digest('base64url')}"`,
    compressible: json.length >= COMPRESS_MIN_BYTES || Buffer.byteLength(json) >= COMPRESS_MIN_BYTES,
    encoded(encoding) {
      if (encoding === 'gzip') return (gzip ??= compress(Buffer.from(json), 'gzip'));
      return (br ??= compress(Buffer.from(json), 'br'));
    },
  };
}

/** The JSON of a value through its response schema, exactly as the route's serializer writes it. */
export function jsonThrough<S extends z.ZodType>(schema: S, value: z.output<S>): string {
  return JSON.stringify(z.encode(schema, value));
}

/** Whether an `If-None-Match` header names this ETag (weak comparison, as RFC 9110 asks for it). */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (etag.startsWith('W/') ? etag.slice(2) : etag).slice(1, -1);
  for (const part of header.split(',')) {
    const tag = part.trim();
    const value = tag.startsWith('W/') ? tag.slice(2) : tag;
    if (value.length === bare.length + 2 && value.slice(1, -1) === bare) return true;
  }
  return false;
}

// Browsers send a handful of distinct Accept-Encoding values: each is parsed once.
const chosen = new Map<string, 'br' | 'gzip' | undefined>();
const CHOSEN_MAX = 256;

/** The best encoding the client accepts among the ones made: brotli, then gzip, else none. */
export function chooseEncoding(header: string | undefined): 'br' | 'gzip' | undefined {
  if (!header) return undefined;
  if (chosen.has(header)) return chosen.get(header);
  const encoding = parseEncoding(header);
  if (chosen.size >= CHOSEN_MAX) chosen.clear();
  chosen.set(header, encoding);
  return encoding;
}

function parseEncoding(header: string): 'br' | 'gzip' | undefined {
  let br = false;
  let gzip = false;
  for (const part of header.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    // `q=0` refuses an encoding.
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p))) continue;
    if (name === 'br') br = true;
    else if (name === 'gzip' || name === 'x-gzip') gzip = true;
    else if (name === '*') {
      br = true;
      gzip = true;
    }
  }
  return br ? 'br' : gzip ? 'gzip' : undefined;
}

/**
 * Answers with cached bytes: 304 when the client holds them already, else the encoding it
 * accepts. Clients must revalidate (`no-cache`), so a change shows on the next request.
 */
export function sendCached(request: FastifyRequest, reply: FastifyReply, body: CachedBody): FastifyReply {
  reply.header('etag', body.etag).header('vary', 'Accept-Encoding').header('cache-control', 'no-cache');
  if (matchesEtag(request.headers['if-none-match'], body.etag)) return reply.code(304).send();
  const encoding = body.compressible ? chooseEncoding(request.headers['accept-encoding']) : undefined;
  reply.type(JSON_TYPE);
  if (encoding) return reply.header('content-encoding', encoding).send(body.encoded(encoding));
  // A string with a JSON content type is sent as it is (Fastify serialises only objects).
  return reply.send(body.text);
}

/**
 * Cached answers by key, each loaded once (concurrent callers share the load) and kept for
 * `ttlMs` at most, with tags naming what they show (`server:12`, `sort:likes`…) so a change drops
 * only the answers it touches. Bounded in size; `ttlMs` 0 caches nothing.
 */
export class ResponseCache<T> {
  // `tags` is undefined while loading: such an entry may hold what a write just changed.
  private readonly entries = new Map<string, { at: number; value: Promise<T>; tags: readonly string[] | undefined }>();
  private readonly byTag = new Map<string, Set<string>>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 1000,
  ) {}

  /** The answer under `key`, loaded when missing or older than the TTL; `tagsOf` names what it shows. */
  get(key: string, load: () => Promise<T>, tagsOf: (value: T) => readonly string[]): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const now = Date.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    if (hit) this.delete(key);
    const entry = { at: now, value: undefined as unknown as Promise<T>, tags: undefined as readonly string[] | undefined };
    entry.value = load().then(
      (value) => {
        // Dropped (invalidated) while loading: answer this caller, keep nothing.
        if (this.entries.get(key) === entry) {
          entry.tags = tagsOf(value);
          for (const tag of entry.tags) {
            let keys = this.byTag.get(tag);
            if (!keys) this.byTag.set(tag, (keys = new Set()));
            keys.add(key);
          }
        }
        return value;
      },
      (err: unknown) => {
        if (this.entries.get(key) === entry) this.delete(key);
        throw err;
      },
    );
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.delete(this.entries.keys().next().value as string);
    return entry.value;
  }

  /** Drops every answer carrying any of these tags, and every answer still loading. */
  dropTags(tags: Iterable<string>): void {
    for (const [key, entry] of this.entries) if (!entry.tags) this.delete(key);
    for (const tag of tags) {
      const keys = this.byTag.get(tag);
      if (!keys) continue;
      for (const key of [...keys]) this.delete(key);
    }
  }

  /** Drops one answer. */
  drop(key: string): void {
    this.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.byTag.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    for (const tag of entry.tags ?? []) {
      const keys = this.byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) this.byTag.delete(tag);
    }
  }
}
