import { LIMITS } from '../../../shared/limits';
import type { Server } from '../../../shared/schemas/server';
import { serverListSchema, serverOfTheWeekendSchema } from '../../../shared/schemas/server';
import { serverPolicy } from '../../policies/servers.policy';
import { currentOrNextWeekend } from '../../lib/weekend';
import { cachedBody, jsonThrough, type CachedBody } from '../../lib/cached-body';
import { ResponseCache } from '../../lib/response-cache';
import type { ServersRepository } from './servers.repository';
import type { DiscoveryRepository } from './discovery.repository';
import type { ServerFields } from './servers.mapper';
import type { IndexedLists } from './indexed-lists';
import { serverTags } from './cache-change';

interface Deps {
  servers: Pick<ServersRepository, 'justJoined' | 'findFull'>;
  discovery: Pick<DiscoveryRepository, 'findWeekendServerId'>;
  toApi: (row: ServerFields) => Server;
  /** Where ranks come from. */
  lists: Pick<IndexedLists, 'rankOf' | 'loadedIndex'>;
  now: () => Date;
  /** How long a feed is answered from memory (0: off). */
  listCacheTtlMs: number;
}

/**
 * The home page's two feeds besides the lists: servers that just joined, and the server of the
 * weekend. The same for everyone, cached as bytes and tagged `feed` and by the servers they show.
 */
export function homeFeeds({ servers, discovery, toApi, lists, now, listCacheTtlMs }: Deps) {
  const { rankOf, loadedIndex } = lists;
  const feeds = new ResponseCache<{ body: CachedBody; ids: number[] }>(listCacheTtlMs);

  return {
    /** The feeds held, tagged `feed` and `server:<id>`. */
    cache: feeds,

    /** The held just-joined and weekend feeds (undefined when not held or dropped since). */
    peekJustJoined: (): CachedBody | undefined => feeds.peek('just-joined')?.body,
    peekWeekend: (): CachedBody | undefined => feeds.peek('weekend')?.body,

    /** Listed servers created in the last 24 hours, newest first, as bytes. */
    async justJoined(): Promise<CachedBody> {
      const feed = await feeds.get(
        'just-joined',
        async () => {
          const [rows, index] = await Promise.all([servers.justJoined(now(), LIMITS.listDefault), loadedIndex()]);
          const shown = rows.map((r) => Object.assign(toApi(r), { rank: rankOf(index, r.id) }));
          return { body: cachedBody(jsonThrough(serverListSchema, shown)), ids: rows.map((r) => r.id) };
        },
        (cached) => ['feed', ...serverTags(cached.ids)],
      );
      return feed.body;
    },

    /** This weekend's featured server, or between weekends the coming one's (as bytes); shown only while it is listed. */
    async serverOfTheWeekend(): Promise<CachedBody> {
      const feed = await feeds.get(
        'weekend',
        async () => {
          const serverId = await discovery.findWeekendServerId(currentOrNextWeekend(now()));
          const row = serverId === undefined ? undefined : await servers.findFull(serverId, now());
          // The same answer for everyone, so it must be a server an anonymous visitor may see.
          const server =
            row && serverPolicy.canSee(undefined, row) ? Object.assign(toApi(row), { rank: rankOf(await loadedIndex(), row.id) }) : null;
          return { body: cachedBody(jsonThrough(serverOfTheWeekendSchema, server)), ids: server && row ? [row.id] : [] };
        },
        (cached) => ['feed', ...serverTags(cached.ids)],
      );
      return feed.body;
    },
  };
}
