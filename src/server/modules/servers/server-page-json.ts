import type { z } from 'zod';
import { extended } from '../../lib/extended';
import type { ConnectInfo } from '../../../shared/connect';
import type { Rank, Review, Server, serverDetailSchema } from '../../../shared/schemas/server';

/** A server page's part the same for everyone, as `publicPage` builds it. */
export interface PageBody extends Server {
  rank: Rank | null;
  connect: ConnectInfo | null;
  live: { checkedAt: string; map: string | null; version: string | null; players: string[] | null } | null;
  reviews: Review[];
  reviewsTotal: number;
}

/**
 * The page with no caller's state, exactly as `z.encode(serverDetailSchema, …)` gives it (the
 * schema's keys in its order, nothing else), without the schema's pass over the whole page: that
 * was 7.5 % of the app's thread when every request was another server's page. The server's own
 * fields are `toApiServer`'s, already exactly the schema's (the card tests parse them strictly),
 * so they are copied as they are; the parts made elsewhere are copied field by field, so nothing
 * their sources bring along (a review row's other columns) reaches the answer. A test compares
 * the two over pages of every shape.
 */
export function pageForEveryone(page: PageBody): z.input<typeof serverDetailSchema> {
  const { rank, connect, live } = page;
  return extended(page, {
    rank: rank && {
      position: rank.position,
      of: rank.of,
      game: rank.game && { name: rank.game.name, position: rank.game.position, of: rank.game.of },
    },
    connect: connect && {
      address: connect.address,
      links: connect.links.map((link) => ({ label: link.label, url: link.url })),
      howTo: connect.howTo,
    },
    live: live && { checkedAt: live.checkedAt, map: live.map, version: live.version, players: live.players },
    reviews: page.reviews.map((review) => ({
      type: review.type,
      review: review.review,
      displayName: review.displayName,
      username: review.username,
      profilePicture: review.profilePicture,
      createdAt: review.createdAt,
      editedAt: review.editedAt,
      joined: review.joined,
    })),
    viewer: null,
  });
}
