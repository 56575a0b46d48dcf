import { z } from 'zod';

/** `GET /api/player-count`: live players across every listed server. */
export const playerCountSchema = z.object({ count: z.number().int().nonnegative() });
export type PlayerCount = z.infer<typeof playerCountSchema>;
