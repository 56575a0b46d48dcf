import { cfxCodeSchema } from '../connect';
import { z } from 'zod';
import { pageQuery } from './common';
import { GAME_IDS } from '../games';
import { MSG } from '../messages';

/** `GET /api/games`: the games whose servers can be polled, with their usual port. */
export const gameListSchema = z.array(
  z.object({
    /** The game's id, sent back as `game` when an address is set. */
    id: z.string(),
    label: z.string(),
    /** The port most servers of this game answer on: the form's default. */
    port: z.number(),
  }),
);
export type GameList = z.infer<typeof gameListSchema>;

/** `DELETE /api/servers/{id}/game` answers 204 with no body. */
export const gameClearedSchema = z.null();

/** `PUT /api/servers/{id}/game`: where the poller asks the game itself for its players. */
export const gameAddressBodySchema = z.object({
  game: z.enum(GAME_IDS, { error: MSG.gameUnknown }),
  host: z.string({ error: MSG.gameHostRequired }).trim().min(1, MSG.gameHostRequired).max(253),
  port: z.coerce
    .number({ error: MSG.gamePortInvalid })
    .int(MSG.gamePortInvalid)
    .min(1, MSG.gamePortInvalid)
    .max(65535, MSG.gamePortInvalid),
  /** FiveM and RedM: the cfx.re join code or link, for the server page's Join link; empty clears it. */
  cfxCode: z.union([z.literal(''), cfxCodeSchema]).optional(),
  /** false keeps the names of the players online off the server page. */
  showPlayerNames: z.boolean().optional(),
});

/** Proof that the owner runs the game server at the address: its code and what the game last said. */
export const gameClaimSchema = z.object({
  /** pending: the address shows nothing publicly until the game reports the code; verified: it does. */
  status: z.enum(['pending', 'verified']),
  /** What to put in the game server's name, MOTD or description (null: verified before claims existed). */
  code: z.string().nullable(),
  /** Where the code counts for this game, and how to put it there. */
  fields: z.string(),
  how: z.string(),
  verifiedAt: z.iso.datetime().nullable(),
  /** When the game was last asked for the code, and the fields of its answer where the code counts. */
  checkedAt: z.iso.datetime().nullable(),
  seen: z.array(z.object({ field: z.string(), text: z.string() })),
  /** The game reported the code in one of those fields. */
  found: z.boolean(),
});
export type GameClaimView = z.infer<typeof gameClaimSchema>;

/**
 * The last query's result, shown on the dashboard at once. While the claim is pending these are
 * what the game answered the last check, seen by the owner only.
 */
export const gameStatusSchema = z.object({
  game: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  cfxCode: z.string().nullable(),
  showPlayerNames: z.boolean(),
  online: z.boolean().nullable(),
  currentPlayers: z.number().int(),
  maxPlayers: z.number().int().nullable(),
  lastSeenAt: z.iso.datetime().nullable(),
  lastPolledAt: z.iso.datetime().nullable(),
  error: z.string().nullable(),
  claim: gameClaimSchema.nullable(),
});
export type GameStatusView = z.infer<typeof gameStatusSchema>;

export const HISTORY_RANGES = ['24h', '7d', '30d'] as const;
export type HistoryRange = (typeof HISTORY_RANGES)[number];

/** `GET /api/servers/{id}/history?range=`: how far back, a day by default. */
export const historyQuerySchema = z.object({ range: z.enum(HISTORY_RANGES, { error: 'range must be 24h, 7d or 30d' }).default('24h') });

/** Player-count history of a server: points, average, peak and uptime over the range. */
export const historySchema = z.object({
  range: z.enum(HISTORY_RANGES),
  points: z.array(z.object({ t: z.iso.datetime(), players: z.number(), online: z.boolean() })),
  average: z.number(),
  peak: z.number().int(),
  uptimePercent: z.number().nullable(),
});
export type History = z.infer<typeof historySchema>;

export const CLAIM_FILTERS = ['all', 'pending', 'verified', 'ended', 'flagged'] as const;
export type ClaimFilter = (typeof CLAIM_FILTERS)[number];

/** `GET /api/admin/game-claims`: every claim (or those of one status, or with a flagged count), newest first. */
export const adminClaimsQuerySchema = z.object({
  status: z.enum(CLAIM_FILTERS, { error: 'status must be all, pending, verified, ended or flagged' }).default('all'),
  ...pageQuery(100, 25),
});

/** One claim as admins see it: the listing, its owner, the address, how it went and what the game said. */
export const adminClaimSchema = z.object({
  id: z.string(),
  serverId: z.string(),
  serverName: z.string(),
  ownerId: z.string(),
  ownerUsername: z.string(),
  game: z.string(),
  host: z.string(),
  port: z.number().int(),
  ip: z.string().nullable(),
  code: z.string(),
  status: z.enum(['pending', 'verified', 'ended']),
  endedReason: z.enum(['changed', 'removed', 'revoked', 'superseded']).nullable(),
  supersededBy: z.string().nullable(),
  createdAt: z.iso.datetime(),
  verifiedAt: z.iso.datetime().nullable(),
  endedAt: z.iso.datetime().nullable(),
  checkedAt: z.iso.datetime().nullable(),
  seen: z.array(z.object({ field: z.string(), text: z.string() })),
  /** Why a count from this address was not believed as reported (shown lower). */
  flag: z.string().nullable(),
  flaggedAt: z.iso.datetime().nullable(),
});
export type AdminClaim = z.infer<typeof adminClaimSchema>;
export const adminClaimsSchema = z.object({ claims: z.array(adminClaimSchema), total: z.number().int() });
export type AdminClaims = z.infer<typeof adminClaimsSchema>;
