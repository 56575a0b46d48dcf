import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { AskedOnce } from '../lib/asked-once';
import type { CachedBody } from '../lib/cached-body';
import { CounterChanges } from './counter-changes';

/**
 * How long a page drawn with its content is still served as it is after a change of the counters
 * it may show (a vote, a join, a game poll): its first paint stays within a second of the votes,
 * as the API's Top 10 does. Under a stream of votes each such page is made again once every this
 * long less the time its answers may lag the votes (`answersBehindMs`), instead of on every vote.
 */
export const RENDERED_COUNTERS_LAG_MS = 700;

export interface CachedPage {
  /**
   * The page's HTML as UTF-8 bytes. Not a string: the built pages hold characters beyond Latin-1
   * (’, …), so V8 held each page at two bytes a character, in the heap whose size sets when it is
   * collected (~580 server pages: 15 MB of strings after the benchmark's HTML pages).
   */
  html: Buffer;
  /** When its making began (ms): it shows nothing that changed after. */
  at: number;
  etag: string;
  /** The page compressed: quickly the first time, well from the second on (then always the same bytes). */
  compressed: (encoding: 'br' | 'gzip') => Buffer;
  /** The page as the front cache sends a body: compressed well at once, and then always the same bytes. */
  body: CachedBody;
  /** Rendered with its content (not the app's frame). */
  rendered: boolean;
}

/**
 * The app's HTML per path, with its ETag and compressed variants made on first use. A path whose
 * HTML changed gets a new entry; the oldest entries go beyond `max` entries or `maxBytes` (a
 * server-rendered page is ~15 KB of HTML, a frame page ~9 KB, each with its compressed copies),
 * so a crawler walking every server page cannot grow the process past a few tens of MB here.
 * A page's first answer is compressed quickly (brotli quality 1, gzip level 1) and its second
 * well (brotli 5, gzip 6), kept from then on. A server page opened once from a shared link, or a
 * crawl of them, then costs 40-80 µs of compression instead of 100-370 µs for 9-25 KB (15 % of the
 * app's thread when each request was another server's page) for ~20 % more bytes, while a page
 * asked again, the pages most people get, is sent at the good size. Quality 9 cost ~10 ms a
 * server page for a few hundred bytes less than 5.
 */
export class PageCache {
  private readonly entries = new Map<string, CachedPage & { bytes: number }>();
  private bytes = 0;
  private readonly counters: CounterChanges;
  private readonly max: number;
  private readonly maxBytes: number;
  private readonly answersBehindMs: number;
  private readonly askedOnce: AskedOnce | undefined;

  constructor({
    max = 1000,
    maxBytes = 8 * 1024 * 1024,
    answersBehindMs = 0,
    holdMs = 60_000,
    keepFromSecondAsk = false,
  }: {
    max?: number;
    maxBytes?: number;
    /**
     * Keep a path's page only from its second ask (or when one is held): server pages opened once
     * from a shared link, or by a crawler walking them all, otherwise filled the cache with pages
     * nobody asked for again, pushed out the ones people do ask for, and held their ~8 MB through
     * everything after (docs/decisions/082-pages-kept-from-their-second-ask.md).
     */
    keepFromSecondAsk?: boolean;
    /** How long after a change of counters the answers pages are drawn from may still not show it. */
    answersBehindMs?: number;
    /** The longest a page is ever held: older changes of counters cannot matter. */
    holdMs?: number;
  } = {}) {
    // A page begun after a change but within this time counts as missing it: with the lag no longer,
    // every page would always miss one under a stream of votes, and be made on every request.
    if (answersBehindMs >= RENDERED_COUNTERS_LAG_MS) throw new Error('the answers must lag the counters less than the pages may');
    this.max = max;
    this.maxBytes = maxBytes;
    this.answersBehindMs = answersBehindMs;
    this.askedOnce = keepFromSecondAsk ? new AskedOnce(max * 16) : undefined;
    this.counters = new CounterChanges(holdMs + answersBehindMs + RENDERED_COUNTERS_LAG_MS);
  }

  /** Counters changed (a vote, a join, a game poll): pages drawn with their content may show them. */
  countersChanged(now = Date.now()): void {
    this.counters.note(now);
  }

  /** The path's page if made less than `maxAgeMs` ago and not behind the counters (see `held`). */
  fresh(pathname: string, maxAgeMs: number): CachedPage | undefined {
    const held = this.held(pathname, maxAgeMs);
    return held && !held.behind ? held.page : undefined;
  }

  /**
   * The path's page if made less than `maxAgeMs` ago, and whether it is behind: drawn with its
   * content, it misses a change of counters older than `RENDERED_COUNTERS_LAG_MS`. Such a page is
   * still worth sending while a newer one is made (a few votes behind, never a frame).
   */
  held(pathname: string, maxAgeMs: number): { page: CachedPage; behind: boolean } | undefined {
    const page = this.entries.get(pathname);
    if (!page || Date.now() - page.at >= maxAgeMs) return undefined;
    return { page, behind: this.missesCounters(page) };
  }

  /**
   * Whether a change of counters came too long ago for the page to still go without it. A change
   * up to `answersBehindMs` before the page's making began counts as missed too: the answers it was
   * drawn from may not have shown it yet (lists gather votes for a while before they are made again).
   */
  private missesCounters(page: CachedPage): boolean {
    return page.rendered && this.counters.between(page.at - this.answersBehindMs, Date.now() - RENDERED_COUNTERS_LAG_MS);
  }

  /**
   * The page of `html` for `pathname`, begun at `at`, kept (or the one kept for it, when the same);
   * with `keepFromSecondAsk`, a path neither held nor asked for lately is made and not kept.
   */
  get(pathname: string, html: string, rendered: boolean, at = Date.now()): CachedPage {
    const hit = this.entries.get(pathname);
    if (!hit && this.askedOnce && !this.askedOnce.askedBefore(pathname)) return this.make(pathname, html, rendered);
    const bytes = Buffer.from(html);
    const etag = etagOf(bytes);
    if (hit?.etag === etag && hit.rendered === rendered) {
      hit.at = at;
      // Made again: the newest entry, so a crawl of other paths drops it last.
      this.entries.delete(pathname);
      this.entries.set(pathname, hit);
      return hit;
    }
    const page = this.madeOf(pathname, bytes, etag, rendered, at);
    this.remove(pathname);
    this.entries.set(pathname, page);
    this.bytes += page.bytes;
    this.trim();
    return page;
  }

  /** The page of `html` for `pathname`, not kept (made from data that changed while it was made). */
  make(pathname: string, html: string, rendered: boolean): CachedPage & { bytes: number } {
    const bytes = Buffer.from(html);
    return this.madeOf(pathname, bytes, etagOf(bytes), rendered);
  }

  private madeOf(pathname: string, html: Buffer, etag: string, rendered: boolean, at = Date.now()): CachedPage & { bytes: number } {
    const variants: Partial<Record<'br' | 'gzip', { bytes: Buffer; good: boolean }>> = {};
    const made = (encoding: 'br' | 'gzip', well: boolean): Buffer => {
      const held = variants[encoding];
      const bytes = ownBytes(compress(html, encoding, well));
      variants[encoding] = { bytes, good: well };
      if (this.entries.get(pathname) === page) {
        const grown = bytes.length - (held?.bytes.length ?? 0);
        page.bytes += grown;
        this.bytes += grown;
        this.trim();
      }
      return bytes;
    };
    /**
     * The well-compressed bytes, made once: what the front cache sends, whose kept length needs a
     * body's bytes per encoding never to change.
     */
    const good = (encoding: 'br' | 'gzip'): Buffer => {
      const held = variants[encoding];
      return held?.good ? held.bytes : made(encoding, true);
    };
    const page: CachedPage & { bytes: number } = {
      html,
      at,
      // Weak: the same validator stands for the identity, gzip and brotli bytes of one page.
      etag,
      bytes: html.length + pathname.length,
      rendered,
      compressed: (encoding) => (variants[encoding] ? good(encoding) : made(encoding, false)),
      body: {
        raw: html,
        byteLength: html.length,
        etag,
        compressible: true,
        encoded: good,
      },
    };
    return page;
  }

  /**
   * Forgets every page: what they show changed. The paths held stay asked for, so each is kept
   * again at its next ask rather than made twice first.
   */
  clear(): void {
    if (this.askedOnce) for (const path of this.entries.keys()) this.askedOnce.remember(path);
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

/** A page's bytes compressed quickly (its first answer) or well (asked again). */
function compress(html: Buffer, encoding: 'br' | 'gzip', good: boolean): Buffer {
  if (encoding === 'gzip') return zlib.gzipSync(html, { level: good ? 6 : 1 });
  return zlib.brotliCompressSync(html, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: good ? 5 : 1,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: html.length,
    },
  });
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

/** A page's weak validator: the same for its identity, gzip and brotli bytes. */
function etagOf(html: Buffer): string {
  return `W/"${crypto.hash('sha1', html, 'base64url')}"`;
}
