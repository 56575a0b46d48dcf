import { z } from 'zod';

/** `{error}` body of every failed API call (decisions §3). */
export const errorSchema = z.object({ error: z.string() });

/** Ids are strings of digits in the API (decisions §3). */
export const idSchema = z.string().regex(/^\d{1,18}$/, 'Invalid id');

export const idParamsSchema = z.object({ id: z.string() });

export const messageSchema = z.object({ message: z.string() });
