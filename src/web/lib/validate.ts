import type { z } from 'zod';

/** Parses a form with a shared schema: the data, or the first message (the same text the server would send). */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { data: z.output<S>; error?: undefined } | { data?: undefined; error: string } {
  const result = schema.safeParse(input);
  if (result.success) return { data: result.data };
  return { error: result.error.issues[0]?.message ?? 'Invalid input' };
}
