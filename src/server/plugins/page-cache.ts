import crypto from 'node:crypto';
import zlib from 'node:zlib';
import type { CachedBody } from '../lib/cached-body';

export interface CachedPage {
  html: string;
  /** When it was made (ms). */
  at: number;
  etag: string;
  compressed: (encoding: 'br' | 'gzip') => Buffer;
  /** The page as the front cache sends a body (the same bytes, validator and compressed copies). */
  body: CachedBody;
  /** Rendered with its content (not the app's frame). */
  rendered: boolean;
}

/**
 * The app's HTML per path, with its ETag and compressed variants made on first use. A path whose
 * meta tags changed gets a new entry; the oldest entries go beyond `max` entries or `maxBytes` (a
 * server-rendered page is ~35 KB of HTML, a frame page ~10 KB, each with its compressed copies),
 * so a crawler walking every server page cannot grow the process past a few tens of MB here.
 * Brotli quality 5 and gzip level 6: a page made for one visit is compressed on the request's
 * path, where quality 9 cost ~10 ms a server page (a third of the CPU of a crawl of them) for a
 * few hundred bytes less.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage & { bytes: number }>();
  private bytes = 0;
  constructor(
    private readonly max = 1000,
    private readonly maxBytes = 16 * 1024 * 1024,
  ) {}

  /** The path's page if made less than `maxAgeMs` ago. */
  fresh(pathname: string, maxAgeMs: number): CachedPage | undefined {
    const hit = this.entries.get(pathname);
    return hit && Date.now() - hit.at < maxAgeMs ? hit : undefined;
  }

  /** The page of `html` for `pathname`, kept (or the one kept for it, when the same). */
  get(pathname: string, html: string, rendered: boolean): CachedPage {
    const hit = this.entries.get(pathname);
    if (hit?.html === html && hit.rendered === rendered) {
      hit.at = Date.now();
      // Made again: the newest entry, so a crawl of other paths drops it last.
      this.entries.delete(pathname);
      this.entries.set(pathname, hit);
      return hit;
    }
    const page = this.make(pathname, html, rendered);
    this.remove(pathname);
    this.entries.set(pathname, page);
    this.bytes += page.bytes;
    this.trim();
    return page;
  }

  /** The page of `html` for `pathname`, not kept (made from data that changed while it was made). */
  make(pathname: string, html: string, rendered: boolean): CachedPage & { bytes: number } {
    const variants: Partial<Record<'br' | 'gzip', Buffer>> = {};
    const etag = `W/"${crypto.createHash('sha1').update(html).digest('base64url')}"`;
    const page: CachedPage & { bytes: number } = {
      html,
      at: Date.now(),
      // Weak: the same validator stands for the identity, gzip and brotli bytes of one page.
      etag,
      bytes: stringBytes(html) + stringBytes(pathname),
      rendered,
      compressed: (encoding) => {
        let variant = variants[encoding];
        if (!variant) {
          variant = ownBytes(
            encoding === 'br'
              ? zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } })
              : zlib.gzipSync(html, { level: 6 }),
          );
          variants[encoding] = variant;
          if (this.entries.get(pathname) === page) {
            page.bytes += variant.length;
            this.bytes += variant.length;
            this.trim();
          }
        }
        return variant;
      },
      body: {
        raw: html,
        byteLength: Buffer.byteLength(html),
        etag,
        compressible: true,
        encoded: (encoding) => page.compressed(encoding),
      },
    };
    return page;
  }

  /** Forgets every page: what they show changed. */
  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Drops the oldest entries past the bounds (never the newest, which a request is about to send). */
  private trim(): void {
    while (this.entries.size > 1 && (this.entries.size > this.max || this.bytes > this.maxBytes)) {
      this.remove(this.entries.keys().next().value as string);
    }
  }

  private remove(pathname: string): void {
    const entry = this.entries.get(pathname);
    if (!entry) return;
    this.entries.delete(pathname);
    this.bytes -= entry.bytes;
  }
}

/**
 * The bytes in a buffer of their own size. zlib answers a view of its 16 KB output chunk: a server
 * page's few KB of brotli kept that way held the whole chunk, so the cache held more than `maxBytes`
 * counted (after the benchmark's server pages: 545 of them, 8.5 MB of chunks).
 */
function ownBytes(made: Buffer): Buffer {
  if (made.buffer.byteLength === made.length) return made;
  const own = Buffer.allocUnsafeSlow(made.length);
  made.copy(own);
  return own;
}

/** What V8 holds for a string: one byte a character, two once any character is beyond Latin-1 (’, —, …). */
function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return /[^\u0000-\u00ff]/.test(text) ? text.length * 2 : text.length;
}
