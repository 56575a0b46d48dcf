import type { UserRow } from '../../db/schema';
import { connectInfo } from '../../../shared/connect';
import { MSG } from '../../../shared/messages';
import type { z } from 'zod';
import type { Review, Server, ViewerState } from '../../../shared/schemas/server';
import { REVIEWS_FIRST_PAGE, serverDetailSchema, viewerStateSchema } from '../../../shared/schemas/server';
import { notFound } from '../../errors';
import { serverPolicy } from '../../policies/servers.policy';
import { cachedBody, jsonThrough, type CachedBody } from '../../lib/cached-body';
import { encoded } from '../../lib/zod-encode';
import { extended } from '../../lib/extended';
import { ResponseCache } from '../../lib/response-cache';
import type { SettingsService } from '../settings';
import type { ServersRepository } from './servers.repository';
import type { DiscoveryRepository } from './discovery.repository';
import type { ServerFields } from './servers.mapper';
import type { AudienceCounter, Visitor } from './audience-counter';
import { pageForEveryone, type PageBody } from './server-page-json';
import type { IndexedLists } from './indexed-lists';

/** How a page made for everyone ends. */
const NO_VIEWER = '"viewer":null}';

interface Deps {
  servers: Pick<ServersRepository, 'findFull' | 'findPage'>;
  discovery: Pick<DiscoveryRepository, 'reviewsPage' | 'countReviews'>;
  settings: Pick<SettingsService, 'flag'>;
  /** A row as the API shows a server (its media as addresses). */
  toApi: (row: ServerFields) => Server;
  /** Where ranks come from. */
  lists: Pick<IndexedLists, 'rankOf' | 'loadedIndex'>;
  counter: Pick<AudienceCounter, 'view'>;
  now: () => Date;
  /** How long a page's shared part is answered from memory (0: off). */
  listCacheTtlMs: number;
}

/**
 * Server pages: the part the same for everyone, cached like the lists and tagged by its server;
 * an anonymous caller's whole answer as bytes per view count shown; reviews (none while an admin
 * has them turned off).
 */
export function serverPages({ servers, discovery, settings, toApi, lists, counter, now, listCacheTtlMs }: Deps) {
  const { rankOf, loadedIndex } = lists;
  /** With reviews turned off (admin toggle) no review shows; the votes still count. */
  const reviewsPage = async (serverId: number, limit: number, offset: number): Promise<Review[]> => {
    if (!(await settings.flag('enableReviews'))) return [];
    const rows = await discovery.reviewsPage(serverId, limit, offset);
    return rows.map((r) => ({
      type: r.type,
      review: r.review,
      displayName: r.displayName || r.username,
      username: r.username,
      profilePicture: r.profilePicture,
      createdAt: r.createdAt.toISOString(),
      editedAt: r.editedAt ? r.editedAt.toISOString() : null,
      joined: Boolean(r.joined),
    }));
  };

  const countReviews = async (serverId: number) => ((await settings.flag('enableReviews')) ? discovery.countReviews(serverId) : 0);

  /** A server the viewer may see, or 404 (hidden ones are only seen by their owner and admins). */
  const visible = async (id: number, viewer: UserRow | undefined) => {
    const row = await servers.findFull(id, now());
    if (!row) throw notFound(MSG.serverNotFound);
    serverPolicy.assertCanSee(viewer, row);
    return row;
  };

  /**
   * The part of a server page that is the same for everyone: cached like the lists. Read in one
   * statement with its first reviews and their total: a page not held (a shared link, a crawl)
   * costs one query (docs/decisions/058-server-page-uncached.md).
   */
  const publicPage = async (id: number) => {
    const shown = (await settings.flag('enableReviews')) ? REVIEWS_FIRST_PAGE : 0;
    const [row, index] = await Promise.all([servers.findPage(id, now(), shown), loadedIndex()]);
    if (!row) return undefined;
    const reviews = row.reviews.map((r): Review => ({ ...r, displayName: r.displayName || r.username }));
    const reviewsTotal = row.reviewsTotal;
    // The page's own fields go onto the server object as it was made, not into a spread copy of
    // it: V8 gave each such copy a hidden class of its own, so every page read made five new ones
    // in the old generation (docs/decisions/075-hidden-classes-per-request.md).
    const body: PageBody = Object.assign(toApi(row), {
      rank: rankOf(index, row.id),
      connect: connectInfo(row),
      live: row.lastPolledAt
        ? {
            checkedAt: row.lastPolledAt.toISOString(),
            map: row.gameMap,
            version: row.gameVersion,
            players: row.showPlayerNames && row.online ? row.playerNames : null,
          }
        : null,
      reviews,
      reviewsTotal,
    });
    return {
      id: row.id,
      ownerId: row.ownerId,
      hidden: row.hidden,
      body,
      // An anonymous caller's whole answer, by the view count it shows: made once, sent as bytes.
      anonymous: new Map<number, CachedBody>(),
      /** The page with no caller's state through its response schema, once (a view count is a number: written as is). */
      encoded: undefined as z.input<typeof serverDetailSchema> | undefined,
    };
  };
  type PublicPage = NonNullable<Awaited<ReturnType<typeof publicPage>>>;
  // Held from its second ask, like searches: a stream of pages each opened once (shared links,
  // crawls) held every page until a thousand later ones pushed it out, so each went to V8's old
  // generation and made a full collection every few hundred milliseconds
  // (docs/decisions/075-hidden-classes-per-request.md).
  const pages = new ResponseCache<Awaited<ReturnType<typeof publicPage>>>(listCacheTtlMs, 1000, { keepFromSecondAsk: true });
  const page = (id: number) =>
    pages.get(
      String(id),
      () => publicPage(id),
      () => [`server:${id}`],
    );

  /**
   * The page's bytes with no caller's state, for the view count shown: made once per count.
   * Compressed quick (brotli quality 0): a page is made again with each new count and each read
   * of its server, so most are sent once or a few times, and quality 4 took ten times as long
   * (~350 µs for a 3.7 KB page, the largest part of an uncached page's time in the app once it was
   * one query) for ~14 % fewer bytes (docs/decisions/058-server-page-uncached.md).
   */
  const bodyFor = (found: PublicPage, views: number): CachedBody => {
    let body = found.anonymous.get(views);
    if (!body) {
      // Built once per page, with the schema's fields in its order and no pass of the schema
      // (`server-page-json.ts`); each view count only writes it out with its count.
      found.encoded ??= pageForEveryone(found.body);
      body = cachedBody(JSON.stringify({ ...found.encoded, views }), { quick: true });
      found.anonymous.set(views, body);
    }
    return body;
  };

  /** An anonymous caller's page: counts the view, answers the bytes for the view count shown. */
  const anonymousBody = (found: PublicPage, visitor: Visitor): CachedBody =>
    bodyFor(found, found.body.views + (counter.view(found.id, visitor) ? 1 : 0));

  /**
   * A logged-in caller's page as JSON: the bytes made for everyone, with the caller's state in
   * place of their `"viewer":null`. Running the whole page through its schema per request took
   * about seven times as long as writing it out; the state alone goes through its own.
   */
  const viewerText = (found: PublicPage, views: number, viewer: ViewerState | null): string => {
    const { raw } = bodyFor(found, views);
    const text = typeof raw === 'string' ? raw : raw.toString('utf8');
    if (!viewer) return text;
    // `viewer` is the schema's last field: a page written otherwise goes through the schema whole.
    if (!text.endsWith(NO_VIEWER)) return jsonThrough(serverDetailSchema, extended(found.body, { views, viewer }));
    return `${text.slice(0, -NO_VIEWER.length)}"viewer":${JSON.stringify(encoded(viewerStateSchema, viewer))}}`;
  };

  return {
    /** The shared parts held, tagged `server:<id>`: a change drops its server's page by that tag. */
    cache: pages,
    /** A server's shared part from the cache, read when not held (undefined: no such server). */
    page,
    /** An anonymous caller's whole answer (counts the view). */
    anonymousBody,
    /** A logged-in caller's whole answer as JSON, for the view count given. */
    viewerText,
    /** A server the viewer may see, or 404. */
    visible,
    /** A page of a server's reviews (none while reviews are turned off). */
    reviewsPage,
    /** How many reviews a server has (0 while reviews are turned off). */
    countReviews,
  };
}
