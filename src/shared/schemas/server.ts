import { z } from 'zod';
import { connectSchema } from '../connect';
import { DEFAULT_COLORS, LIMITS } from '../limits';
import { MSG } from '../messages';
import { pageQuery, withoutNul } from './common';

/** A review as shown on a server page; its text is null while reviews are turned off. */
export const reviewSchema = z.object({
  type: z.enum(['like', 'dislike']),
  review: z.string().nullable(),
  displayName: z.string(),
  username: z.string(),
  profilePicture: z.string().nullable(),
  createdAt: z.iso.datetime(),
  /** When its author last changed the text (one review per account and server, editable). */
  editedAt: z.iso.datetime().nullable(),
  /** Whether the author joined the server: such reviews are listed first. */
  joined: z.boolean(),
});
export type Review = z.infer<typeof reviewSchema>;

/** `GET /api/servers/{id}/reviews`: a page of reviews, newest first (the total is in `X-Total-Count`). */
export const reviewListSchema = z.array(reviewSchema);

/** A server's place in Most Popular, overall and among the servers of its game; null while it is not listed. */
export const rankSchema = z.object({
  position: z.number().int(),
  of: z.number().int(),
  game: z.object({ name: z.string(), position: z.number().int(), of: z.number().int() }).nullable(),
});
export type Rank = z.infer<typeof rankSchema>;

/**
 * A server as the API returns it (ids as strings: docs/decisions/002-ids-and-types.md). `joins` counts the last 24 hours and `boosts`
 * the last 7 days; `totalJoins` and `totalBoosts` are all time.
 */
export const serverSchema = z.object({
  id: z.string(),
  name: z.string(),
  ownerId: z.string(),
  statusMessage: z.string(),
  bio: z.string(),
  backgroundColor: z.string(),
  textColor: z.string(),
  discordLink: z.string().nullable(),
  filters: z.array(z.string()),
  profilePicture: z.string().nullable(),
  banner: z.string().nullable(),
  galleryImages: z.array(z.string()),
  likes: z.number().int(),
  dislikes: z.number().int(),
  boosts: z.number().int(),
  totalBoosts: z.number().int(),
  joins: z.number().int(),
  totalJoins: z.number().int(),
  views: z.number().int(),
  lastBoostedAt: z.iso.datetime().nullable(),
  currentPlayers: z.number().int(),
  maxPlayers: z.number().int().nullable(),
  online: z.boolean().nullable(),
  createdAt: z.iso.datetime(),
  /** Daily votes counted this month (UTC); the count starts again on the 1st. */
  monthVotes: z.number().int(),
  /** In lists, feeds and server pages (from memory, at most a second old); not in an owner's own list. */
  rank: rankSchema.nullable().optional(),
});
export type Server = z.infer<typeof serverSchema>;

/** A list of servers (a page of the public list, the just-joined list, the caller's own servers). */
export const serverListSchema = z.array(serverSchema);

/** `GET /api/server-of-the-weekend`: the featured server, or null when there is none. */
export const serverOfTheWeekendSchema = serverSchema.nullable();

/** `DELETE /api/servers/{id}/gallery?url=`: the URL of the gallery image to remove. */
export const galleryImageQuerySchema = z.object({ url: z.string().max(300) });

/** What the caller has already done on a server: the page locks those buttons. */
export const viewerStateSchema = z.object({
  joined: z.boolean(),
  vote: z.enum(['like', 'dislike']).nullable(),
  /** The caller's own review text, to edit (null: none). */
  review: z.string().nullable(),
  isOwner: z.boolean(),
});
export type ViewerState = z.infer<typeof viewerStateSchema>;

/** `GET /api/servers/{id}`: the server, its newest reviews, their total, and the caller's state (null when anonymous). */
export const serverDetailSchema = serverSchema.extend({
  /** How to get into the game, once the owner connected it (null before). */
  connect: connectSchema.nullable(),
  /** What the game said at its last poll (null: never polled). `players` is null when the game lists none or the owner hides them. */
  live: z
    .object({
      checkedAt: z.iso.datetime(),
      map: z.string().nullable(),
      version: z.string().nullable(),
      players: z.array(z.string()).nullable(),
    })
    .nullable(),
  reviews: z.array(reviewSchema),
  reviewsTotal: z.number().int(),
  viewer: viewerStateSchema.nullable(),
});
export type ServerDetail = z.infer<typeof serverDetailSchema>;

/** How many reviews `GET /api/servers/{id}` embeds; `GET /api/servers/{id}/reviews` pages through the rest. */
export const REVIEWS_FIRST_PAGE = 10;

export const SORTS = ['likes', 'popular', 'hot', 'new', 'players', 'joins', 'votes'] as const;
export type Sort = (typeof SORTS)[number];

/** `GET /api/servers` query: name search, sort and paging. `filters` is comma-separated; a server must have all. */
/** A yes/no query parameter: `true`/`1` or `false`/`0`. */
const queryFlag = (name: string) =>
  z
    .enum(['true', 'false', '1', '0'], { error: `${name} must be true or false` })
    .transform((v) => v === 'true' || v === '1')
    .optional();
/** The largest player count a search may name. */
export const PLAYER_BOUND_MAX = 1_000_000;

/** A player-count bound typed in a box or read from a URL: undefined when empty, null when not a count. */
export function parsePlayerBound(text: string | null): number | undefined | null {
  if (text === null || text.trim() === '') return undefined;
  const n = Number(text);
  return Number.isInteger(n) && n >= 0 && n <= PLAYER_BOUND_MAX ? n : null;
}

const playerBound = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(0, `${name} must be 0 or more`)
    .max(PLAYER_BOUND_MAX, `${name} must be at most ${PLAYER_BOUND_MAX}`)
    .optional();

export const listServersQuerySchema = z
  .object({
    q: z.string().trim().max(LIMITS.serverName, `q must be at most ${LIMITS.serverName} characters`).optional(),
    filters: z.string().max(2000, 'filters must be at most 2000 characters').optional(),
    sort: z.enum(SORTS, { error: `sort must be one of ${SORTS.join(', ')}` }).default('likes'),
    ...pageQuery(LIMITS.listMax, LIMITS.listDefault),
    /** Only servers the game poller finds online now. */
    online: queryFlag('online'),
    /** Only online servers with fewer players than their limit. */
    freeSlots: queryFlag('freeSlots'),
    /** Players online now, inclusive; a server never polled has no count and never matches. */
    minPlayers: playerBound('minPlayers'),
    maxPlayers: playerBound('maxPlayers'),
  })
  .refine((q) => q.minPlayers === undefined || q.maxPlayers === undefined || q.minPlayers <= q.maxPlayers, {
    message: 'minPlayers must not be more than maxPlayers',
    path: ['minPlayers'],
  });
export type ListServersQuery = z.infer<typeof listServersQuerySchema>;

/**
 * `GET /api/servers` counts matches up to `LIST_TOTAL_CAP` for the pages within them; up to that
 * `X-Total-Count` is exact. Past it, and on deeper pages, `X-Total-Capped: 1` marks the total as a
 * lower bound (at least one match past the page): shown as "2,000+".
 */
export const LIST_TOTAL_CAP = 2000;
/** The response header that marks `X-Total-Count` as a lower bound. */
export const TOTAL_CAPPED_HEADER = 'x-total-capped';

/** A page of a longer list (a server's reviews). */
export const pageQuerySchema = z.object({
  ...pageQuery(LIMITS.listMax, REVIEWS_FIRST_PAGE),
});

/** `POST /api/servers`: a name and an optional status message. */
export const createServerBodySchema = z.object({
  name: z.string({ error: MSG.serverNameRequired }).trim().min(1, MSG.serverNameRequired).max(LIMITS.serverName, MSG.serverNameTooLong),
  statusMessage: z.string().trim().max(LIMITS.statusMessage, MSG.statusTooLong).optional().default(''),
});
export type CreateServerBody = z.infer<typeof createServerBodySchema>;

const HEX = /^#[0-9a-fA-F]{6}$/;
/** Invite links only, never an arbitrary URL: discord.gg/<code> or discord.com/invite/<code>. */
export const DISCORD_LINK = /^https:\/\/(discord\.gg|(www\.)?discord\.com\/invite)\/[A-Za-z0-9-]{2,32}\/?$/;

/**
 * The text fields of `PUT /api/servers/{id}/customize` (multipart). Every field is optional: what
 * is left out stays as it is; an empty `discordLink` removes the link. `filters` is a JSON array
 * of filter names.
 */
export const customizeFieldsSchema = z.object({
  // Multipart fields never pass the JSON-level NUL check, so these refuse it themselves.
  name: z
    .string()
    .trim()
    .min(1, MSG.serverNameRequired)
    .max(LIMITS.serverName, MSG.serverNameTooLong)
    .refine(withoutNul, MSG.textInvalidCharacters)
    .optional(),
  statusMessage: z.string().trim().max(LIMITS.statusMessage, MSG.statusTooLong).refine(withoutNul, MSG.textInvalidCharacters).optional(),
  bio: z.string().trim().max(LIMITS.bio, MSG.bioTooLong).refine(withoutNul, MSG.textInvalidCharacters).optional(),
  backgroundColor: z
    .string()
    .trim()
    .regex(HEX, MSG.colorInvalid)
    .transform((c) => c.toLowerCase())
    .optional(),
  textColor: z
    .string()
    .trim()
    .regex(HEX, MSG.colorInvalid)
    .transform((c) => c.toLowerCase())
    .optional(),
  discordLink: z
    .string()
    .trim()
    .refine((v) => v === '' || DISCORD_LINK.test(v), MSG.discordInvalid)
    .optional(),
  filters: z.array(z.string().max(100).refine(withoutNul, MSG.textInvalidCharacters)).max(40, MSG.tooManyFilters).optional(),
});
export type CustomizeFields = z.infer<typeof customizeFieldsSchema>;

export const DEFAULTS = { backgroundColor: DEFAULT_COLORS.background, textColor: DEFAULT_COLORS.text } as const;

/** Like or dislike, with an optional review; a request without a body is a vote without one. */
export const voteBodySchema = z
  .object({ review: z.string({ error: MSG.reviewTooLong }).trim().max(LIMITS.review, MSG.reviewTooLong).optional() })
  .nullish()
  .transform((body) => body ?? {});

/** `PUT /api/servers/{id}/review`: the new text of the caller's own review (empty removes the text, the vote stays). */
export const reviewEditBodySchema = z.object({
  review: z.string({ error: MSG.reviewTooLong }).trim().max(LIMITS.review, MSG.reviewTooLong),
});

export const filterCategorySchema = z.object({ category: z.string(), filters: z.array(z.string()) });
export type FilterCategory = z.infer<typeof filterCategorySchema>;

/** A server in a short list (a player's joined or boosted servers). */
export const serverSummarySchema = z.object({ id: z.string(), name: z.string(), profilePicture: z.string().nullable() });
export type ServerSummary = z.infer<typeof serverSummarySchema>;

/** `GET /api/players/{id}`: what a player joined, voted and boosted (seen by that player and admins). */
export const playerProfileSchema = z.object({
  id: z.string(),
  username: z.string(),
  displayName: z.string(),
  profilePic: z.string().nullable(),
  profilePicture: z.string().nullable(),
  joinedServers: z.array(serverSummarySchema),
  likesGiven: z.number().int(),
  dislikesGiven: z.number().int(),
  boostsGiven: z.number().int(),
  boostedServers: z.array(serverSummarySchema),
});
export type PlayerProfile = z.infer<typeof playerProfileSchema>;

export const displayNameSchema = z
  .string()
  .trim()
  .min(1, MSG.displayNameRequired)
  .max(LIMITS.displayName, MSG.displayNameTooLong)
  .refine(withoutNul, MSG.textInvalidCharacters);
