import { z } from 'zod';

/** `GET /api/health` and `GET /api/ready`: whether the process (and its database) can serve. */
export const healthStatusSchema = z.object({ status: z.enum(['ok', 'unavailable']) });
