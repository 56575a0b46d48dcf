import { z } from 'zod';
import { GAME_IDS } from '../games';
import { MSG } from '../messages';

/** `PUT /api/servers/{id}/game`: where the poller asks the game itself for its players. */
export const gameAddressBodySchema = z.object({
  game: z.enum(GAME_IDS, { error: MSG.gameUnknown }),
  host: z.string({ error: MSG.gameHostRequired }).trim().min(1, MSG.gameHostRequired).max(253),
  port: z.coerce
    .number({ error: MSG.gamePortInvalid })
    .int(MSG.gamePortInvalid)
    .min(1, MSG.gamePortInvalid)
    .max(65535, MSG.gamePortInvalid),
});

/** The last query's result, shown on the dashboard at once. */
export const gameStatusSchema = z.object({
  game: z.string().nullable(),
  host: z.string().nullable(),
  port: z.number().int().nullable(),
  online: z.boolean().nullable(),
  currentPlayers: z.number().int(),
  maxPlayers: z.number().int().nullable(),
  lastSeenAt: z.iso.datetime().nullable(),
  lastPolledAt: z.iso.datetime().nullable(),
  error: z.string().nullable(),
});
export type GameStatusView = z.infer<typeof gameStatusSchema>;

export const HISTORY_RANGES = ['24h', '7d', '30d'] as const;
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
