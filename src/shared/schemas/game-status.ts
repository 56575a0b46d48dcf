import { cfxCodeSchema } from '../connect';
import { z } from 'zod';
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

/** The last query's result, shown on the dashboard at once. */
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
