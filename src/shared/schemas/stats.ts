import { z } from 'zod';

/** One day of a server's activity (UTC days). */
export const statsDaySchema = z.object({
  day: z.string(),
  views: z.number().int(),
  joins: z.number().int(),
  likes: z.number().int(),
  dislikes: z.number().int(),
  boosts: z.number().int(),
  /** Likes, dislikes, joins and daily votes held for review (counted nowhere yet) and voided by an admin. */
  held: z.number().int(),
  voided: z.number().int(),
});
export type StatsDay = z.infer<typeof statsDaySchema>;

/** `GET /api/stats/servers/{id}?days=7|30`: per day, oldest first, every day present, and totals. */
export const serverStatsSchema = z.object({
  serverId: z.string(),
  days: z.array(statsDaySchema),
  totals: statsDaySchema.omit({ day: true }),
  allTime: z.object({
    views: z.number().int(),
    joins: z.number().int(),
    likes: z.number().int(),
    dislikes: z.number().int(),
    boosts: z.number().int(),
  }),
});
export type ServerStats = z.infer<typeof serverStatsSchema>;

export const statsQuerySchema = z.object({
  days: z.coerce
    .number()
    .pipe(z.union([z.literal(7), z.literal(30)], { error: 'days must be 7 or 30' }))
    .default(7),
});
