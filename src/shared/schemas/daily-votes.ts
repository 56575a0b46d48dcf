import { z } from 'zod';
import { queryInt } from './common';

/** A month as `YYYY-MM` (UTC); the year 0000 (1 BC) is outside what the database's dates hold. */
export const monthSchema = z.string().regex(/^(?!0000)\d{4}-(0[1-9]|1[0-2])$/, 'month must look like 2026-11');

/** The name a player plays under, for in-game rewards: letters, digits, `_`, `.`, `-` and spaces, up to 32. */
export const playerNameSchema = z
  .string()
  .trim()
  .max(32, 'Your in-game name can be at most 32 characters')
  .regex(/^[\p{L}\p{N}_. -]*$/u, 'Your in-game name can hold letters, digits, spaces, "_", "." and "-"');

/** `POST /api/servers/{id}/vote`: the in-game name is optional (rewards need it). */
export const dailyVoteBodySchema = z
  .object({ playerName: playerNameSchema.optional() })
  .nullish()
  .transform((body) => ({ playerName: body?.playerName ? body.playerName : undefined }));

/** The caller's daily vote on a server: when they last voted, when they may again, and the month's count. */
export const dailyVoteStateSchema = z.object({
  month: monthSchema,
  monthVotes: z.number().int(),
  votedAt: z.iso.datetime().nullable(),
  nextVoteAt: z.iso.datetime().nullable(),
  /** `held`: stored, waiting for an admin; it counts nowhere yet. */
  status: z.enum(['counted', 'held']).nullable(),
});
export type DailyVoteState = z.infer<typeof dailyVoteStateSchema>;

/** `GET /api/rankings/votes?month=`: the month's most voted servers. */
export const monthlyRankingQuerySchema = z.object({
  month: monthSchema.optional(),
  limit: queryInt('limit', 1, 100).default(10),
});

export const monthlyRankingSchema = z.object({
  month: monthSchema,
  servers: z.array(
    z.object({
      position: z.number().int(),
      id: z.string(),
      name: z.string(),
      profilePicture: z.string().nullable(),
      votes: z.number().int(),
    }),
  ),
});
export type MonthlyRanking = z.infer<typeof monthlyRankingSchema>;

/** `GET /api/servers/{id}/votes/daily`: the owner's counted, held and voided votes per day. */
export const votesPerDaySchema = z.array(
  z.object({ day: z.string(), counted: z.number().int(), held: z.number().int(), voided: z.number().int() }),
);
