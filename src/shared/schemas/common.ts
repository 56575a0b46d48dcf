import { z } from 'zod';

/**
 * `{error, code}` body of every failed API call: the English message, and a stable machine code the
 * web app translates (`src/shared/error-codes.ts`).
 */
export const errorSchema = z.object({ error: z.string(), code: z.string().optional() });

/** Ids are strings of digits in the API (docs/decisions/002-ids-and-types.md). */
export const idSchema = z.string().regex(/^\d{1,18}$/, 'Invalid id');

/** Digits that could name a row: at most 15, so the number stays a safe integer. */
const ID_DIGITS = /^\d{1,15}$/;

/**
 * An id in a URL, parsed to a positive integer. A value that cannot be an id fails with
 * `notFound`, which the error handler answers with 404: no row has that id.
 */
export const idParam = (notFound: string) =>
  z.string().regex(ID_DIGITS, notFound).transform(Number).pipe(z.number().int().min(1, notFound));

/** `{id}` path parameters, parsed by `idParam`. */
export const idParams = (notFound: string) => z.object({ id: idParam(notFound) });

export const messageSchema = z.object({ message: z.string() });

/**
 * An instant as the API writes them (ISO 8601 in UTC, `Z`). The year 0000 is valid ISO (1 BC)
 * but outside what the database's timestamps hold: refused as bad input, not a 500.
 */
export const instantSchema = (field: string) =>
  z.iso
    .datetime({ error: `${field} must be an ISO date-time` })
    .refine((value) => !value.startsWith('0000'), `${field} must be a date-time from the year 0001 on`);

/**
 * A whole number in a query string, from `min` to `max`: every way of missing it (not a number, a
 * fraction, too small, too large) says the range, so the caller knows what to send.
 */
export const queryInt = (name: string, min: number, max: number) => {
  const error = `${name} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ error }).int({ error }).min(min, { error }).max(max, { error });
};

/** A page's `limit` (1 to `max`, `fallback` when absent) and `offset` (0 to `maxOffset`). */
export const pageQuery = (max: number, fallback: number, maxOffset = 100_000) => ({
  limit: queryInt('limit', 1, max).default(fallback),
  offset: queryInt('offset', 0, maxOffset).default(0),
});

/** PostgreSQL cannot store a NUL character: text with one is refused as bad input, not a 500. */
export const withoutNul = (text: string): boolean => !text.includes('\u0000');
