import type { z } from 'zod';
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
 * schema's keys in its order, nothing else), built field by field: the schema's pass over the whole
 * page was 7.5 % of the app's thread when every request was another server's page. The types name
 * every field; a test compares the two over pages of every shape. Arrays of strings are shared
 * with the page, which nothing changes once made.
 */
export function pageForEveryone(page: PageBody): z.input<typeof serverDetailSchema> {
  const { rank, connect, live } = page;
  return {
    id: page.id,
    name: page.name,
    ownerId: page.ownerId,
    statusMessage: page.statusMessage,
    bio: page.bio,
    backgroundColor: page.backgroundColor,
    textColor: page.textColor,
    discordLink: page.discordLink,
    filters: page.filters,
    profilePicture: page.profilePicture,
    banner: page.banner,
    galleryImages: page.galleryImages,
    likes: page.likes,
    dislikes: page.dislikes,
    boosts: page.boosts,
    totalBoosts: page.totalBoosts,
    joins: page.joins,
    totalJoins: page.totalJoins,
    views: page.views,
    lastBoostedAt: page.lastBoostedAt,
    currentPlayers: page.currentPlayers,
    maxPlayers: page.maxPlayers,
    online: page.online,
    createdAt: page.createdAt,
    monthVotes: page.monthVotes,
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
    live: live && {
      checkedAt: live.checkedAt,
      map: live.map,
      version: live.version,
      players: live.players,
    },
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
    reviewsTotal: page.reviewsTotal,
    viewer: null,
  };
}
