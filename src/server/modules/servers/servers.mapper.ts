import type { Server } from '../../../shared/schemas/server';
import { toApiId } from '../../lib/ids';
import type { SelectedServer } from './server-select.repository';

/** What the API's server object is made of: a row of `selectServers`, or a card of `cardsByIds`. */
export type ServerFields = Pick<
  SelectedServer,
  | 'id'
  | 'name'
  | 'ownerId'
  | 'statusMessage'
  | 'bio'
  | 'backgroundColor'
  | 'textColor'
  | 'discordLink'
  | 'filterNames'
  | 'profilePicture'
  | 'banner'
  | 'gallery'
  | 'likes'
  | 'dislikes'
  | 'recentBoosts'
  | 'totalBoosts'
  | 'recentJoins'
  | 'totalJoins'
  | 'views'
  | 'lastBoostedAt'
  | 'currentPlayers'
  | 'maxPlayers'
  | 'online'
  | 'createdAt'
  | 'monthVotes'
>;

/**
 * The API's server object: ids as strings (docs/decisions/002-ids-and-types.md), times as ISO
 * text, gallery keys as URLs.
 */
export function toApiServer(row: ServerFields, storageUrl: (key: string) => string): Server {
  return {
    id: toApiId(row.id),
    name: row.name,
    ownerId: toApiId(row.ownerId),
    statusMessage: row.statusMessage,
    bio: row.bio,
    backgroundColor: row.backgroundColor,
    textColor: row.textColor,
    discordLink: row.discordLink,
    filters: row.filterNames ?? [],
    profilePicture: row.profilePicture,
    banner: row.banner,
    galleryImages: (row.gallery ?? []).map((m) => storageUrl(m.storageKey)),
    likes: row.likes,
    dislikes: row.dislikes,
    boosts: Number(row.recentBoosts ?? 0),
    totalBoosts: row.totalBoosts,
    joins: Number(row.recentJoins ?? 0),
    totalJoins: row.totalJoins,
    views: row.views,
    lastBoostedAt: row.lastBoostedAt ? row.lastBoostedAt.toISOString() : null,
    currentPlayers: row.currentPlayers,
    maxPlayers: row.maxPlayers,
    online: row.online,
    createdAt: row.createdAt.toISOString(),
    monthVotes: row.monthVotes,
  };
}
