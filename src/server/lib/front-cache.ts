import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { cacheHeaders, chooseEncoding, JSON_TYPE, matchesEtag, type CachedBody } from './cached-body';

/** What a hit sends: a route's cached bytes and the headers that go with them. */
export interface FrontAnswer {
  body: CachedBody;
  /**
   * Headers of this answer besides the body's own (`x-total-count`…). Never changed in place: the
   * same object is taken for the same headers, and its header list is kept.
   */
  headers?: Readonly<Record<string, string>>;
  /** The body's content type (a page's HTML); JSON when absent. Belongs to the body, as its ETag does. */
  type?: string;
}

/**
 * Answers one URL from memory, or undefined when it has nothing current (the request then goes
 * through Fastify, whose route loads the answer and may offer it here again).
 */
export type FrontRoute = (request: IncomingMessage) => FrontAnswer | undefined;

/** How a URL is held. */
export interface FrontOptions {
  /**
   * The answer is everyone's, logged in or not (lists, the player count, the feeds): a caller with a
   * token is answered here too. Otherwise a token goes to the route, whose answer may carry the
   * caller's own state (a server page's `viewer`).
   */
  anyCaller?: boolean;
}

/** A held URL's route and whether it answers callers with a token. */
interface Held {
  route: FrontRoute;
  anyCaller: boolean;
}

/** URLs offered by routes (lists by their query, pages): the one asked for least lately is forgotten first. */
const OFFERED_MAX = 2000;
/** Longer URLs are never offered (a real list or page URL is far shorter). */
export const OFFERED_URL_MAX = 256;

/**
 * Hot reads answered before Fastify (docs/decisions/039-front-cache.md): for a GET whose exact
 * URL a route has put here, the cached bytes go out with the very headers the route would send
 * (security headers, ETag, 304, brotli or gzip, `x-request-id`), without routing, hooks, a reply
 * object or a logger child. That fixed cost, not the answer, was most of a small hot read.
 *
 * Only what is the same for every anonymous caller comes here (and for callers with a token, what
 * is the same for them too); anything else (a HEAD, an unknown URL, an answer dropped by a change)
 * falls through to Fastify unchanged.
 */
export class FrontCache {
  private readonly fixed = new Map<string, Held>();
  private readonly offered = new Map<string, Held>();
  private baseHeaders: Readonly<Record<string, string>> | undefined;
  private paused: () => boolean = () => false;
  /** Per body, its header lists by way of sending (see `headersFor`); gone with the body. */
  private headerLists = new WeakMap<CachedBody, Map<Way, HeaderList>>();
  /** Requests answered here (for tests and metrics). */
  hits = 0;
  /** Requests for a held URL whose route had nothing current, left to Fastify (metrics). */
  misses = 0;
  /** Told of each answer sent here: its status and how long it took, in seconds (metrics). */
  private answered: ((status: 200 | 304, seconds: number) => void) | undefined;

  /** Calls `listener` after each answer sent from here; one listener, a later one replaces it. */
  onAnswered(listener: (status: 200 | 304, seconds: number) => void): void {
    this.answered = listener;
  }

  /** A URL always answered by `route` when it can (player count, categories, feeds). */
  route(url: string, route: FrontRoute, options: FrontOptions = {}): void {
    this.fixed.set(url, { route, anyCaller: options.anyCaller === true });
  }

  /**
   * A URL a route just answered for everyone alike; kept while `route` still answers it. Only
   * short URLs are kept: the route checks the rest (no unknown parameters), so a stranger cannot
   * fill the cache with padded spellings of one answer.
   */
  offer(sent: string, route: FrontRoute, options: FrontOptions = {}): void {
    const url = frontKey(sent);
    if (this.fixed.has(url) || url.length > OFFERED_URL_MAX) return;
    this.offered.delete(url);
    this.offered.set(url, { route, anyCaller: options.anyCaller === true });
    if (this.offered.size > OFFERED_MAX) this.offered.delete(this.offered.keys().next().value as string);
  }

  /** URLs offered by routes and held now (tests). */
  get offeredSize(): number {
    return this.offered.size;
  }

  /** The headers every answer carries (the security headers); nothing is answered before they are set. */
  setBaseHeaders(headers: Readonly<Record<string, string>>): void {
    this.baseHeaders = headers;
    // Header lists made with the old ones are made again.
    this.headerLists = new WeakMap();
  }

  /** While this holds (shutting down, shedding load), every request goes through Fastify. */
  pauseWhile(paused: () => boolean): void {
    this.paused = paused;
  }

  /** Answers the request when it can; false leaves it to Fastify, untouched. */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || request.url === undefined || !this.baseHeaders) return false;
    const url = frontKey(request.url);
    let held = this.fixed.get(url);
    if (!held) {
      held = this.offered.get(url);
      // Asked again: the newest, so a stream of URLs asked once goes before the ones in use.
      if (held) {
        this.offered.delete(url);
        this.offered.set(url, held);
      }
    }
    // A token means a caller whose answer may carry their own state: the route decides, unless
    // it said its answer is everyone's.
    if (!held || (request.headers.authorization !== undefined && !held.anyCaller) || this.paused()) return false;
    // The clock is read only when someone listens for answer times.
    const started = this.answered ? performance.now() : 0;
    let answer: FrontAnswer | undefined;
    try {
      answer = held.route(request);
    } catch {
      // Whatever failed, the route fails the same way with a proper error answer and a log line.
      answer = undefined;
    }
    if (!answer) {
      this.offered.delete(url);
      this.misses++;
      return false;
    }
    this.hits++;
    const { body } = answer;
    const id = requestId(request);
    if (matchesEtag(request.headers['if-none-match'], body.etag)) {
      response.writeHead(304, withId(this.headersFor(answer, NOT_MODIFIED), id)).end();
      this.answered?.(304, (performance.now() - started) / 1000);
      return true;
    }
    const encoding = body.compressible ? chooseEncoding(request.headers['accept-encoding']) : undefined;
    // Made before any header is written: a failure still leaves the request to Fastify.
    const bytes = encoding ? encodedOrUndefined(body, encoding) : undefined;
    if (encoding && !bytes) return false;
    // A length, as Fastify sends: without it Node would send the answer chunked (and close an
    // HTTP/1.0 keep-alive connection).
    if (bytes) response.writeHead(200, withId(this.headersFor(answer, encoding!, bytes.length), id)).end(bytes);
    else response.writeHead(200, withId(this.headersFor(answer, PLAIN, body.byteLength), id)).end(body.raw);
    this.answered?.(200, (performance.now() - started) / 1000);
    return true;
  }

  /**
   * The headers of one answer sent one way, as the flat list `writeHead` takes, made on its first
   * request and kept with its body: a hit then copies one list instead of merging four objects
   * (that merge was most of what a hit allocated, and so of its garbage). Its length is kept too:
   * a body's bytes in each encoding never change (`CachedBody`).
   */
  private headersFor(answer: FrontAnswer, way: Way, length?: number): string[] {
    let lists = this.headerLists.get(answer.body);
    if (!lists) this.headerLists.set(answer.body, (lists = new Map()));
    // The route's own headers (a list's total) belong to its body: a route handing the same object
    // on every hit gets the kept list; another object has it made again, so what the route says
    // is always what is sent (a fresh object per hit is correct, only slower).
    const kept = lists.get(way);
    if (kept && kept.headers === answer.headers) return kept.list;
    const merged: Record<string, string> = Object.assign({}, this.baseHeaders, cacheHeaders(answer.body), answer.headers);
    if (way !== NOT_MODIFIED) {
      merged['content-type'] = answer.type ?? JSON_TYPE;
      if (way !== PLAIN) merged['content-encoding'] = way;
      merged['content-length'] = String(length);
    }
    const list = Object.entries(merged).flat();
    lists.set(way, { headers: answer.headers, list });
    return list;
  }
}

/** A header list made for one body, one way of sending, and the route headers it was made with. */
interface HeaderList {
  headers: FrontAnswer['headers'];
  list: string[];
}

const PLAIN = 'plain';
const NOT_MODIFIED = '304';
/** How an answer goes out: as it is, compressed one way, or as a 304. */
type Way = typeof PLAIN | typeof NOT_MODIFIED | 'br' | 'gzip';

/** A copy of a kept header list with this request's id added. */
function withId(list: readonly string[], id: string): string[] {
  const headers = list.slice();
  headers.push('x-request-id', id);
  return headers;
}

function encodedOrUndefined(body: CachedBody, encoding: 'br' | 'gzip'): Buffer | undefined {
  try {
    return body.encoded(encoding);
  } catch {
    return undefined;
  }
}

/** The web app's cache buster: `t=` and the time in milliseconds, as one parameter and within a URL. */
const STAMP = 't=\\d{1,16}';
const STAMP_PARAMETER = new RegExp(`^${STAMP}$`);
const HAS_STAMP = new RegExp(`[?&]${STAMP}(?=&|$)`);

/**
 * The URL a hot read is held under: as sent, less the timestamp the web app adds to every call
 * (`t=1764400000000`, so no browser or proxy cache answers for us). No route reads it, so the
 * answer is the same with or without it; without this every call from the app went through
 * Fastify. Any other parameter, and a `t` that is not such a timestamp, stays part of the URL.
 */
export function frontKey(url: string): string {
  const at = url.indexOf('?');
  if (at < 0 || !HAS_STAMP.test(url)) return url;
  const kept = url
    .slice(at + 1)
    .split('&')
    .filter((part) => !STAMP_PARAMETER.test(part));
  return kept.length === 0 ? url.slice(0, at) : `${url.slice(0, at)}?${kept.join('&')}`;
}

/** The caller's request id when it is a sane one, else a new one: as Fastify's `genReqId` does. */
export function requestId(request: IncomingMessage): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : crypto.randomUUID();
}
