import { z } from 'zod';

/** `{error}` body of every failed API call (decisions §3). */
export const errorSchema = z.object({ error: z.string() });

/** Ids are strings of digits in the API (decisions §3). */
export const idSchema = z.string().regex(/^\d{1,18}$/, 'Invalid id');

export const idParamsSchema = z.object({ id: z.string() });

export const messageSchema = z.object({ message: z.string() });

/** PostgreSQL cannot store a NUL character: text with one is refused as bad input, not a 500. */
export const withoutNul = (text: string): boolean => !text.includes('\u0000');
