import { z } from 'zod';

export const playerCountSchema = z.object({ count: z.number().int().nonnegative() });
export type PlayerCount = z.infer<typeof playerCountSchema>;
