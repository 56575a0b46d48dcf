import type { z } from 'zod';
import { i18n } from '../i18n/browser';
import type { MessageId } from '../i18n/catalogs/index';

/** What a form says when its schema failed without saying why (zod always says; this is the safety net). */
const INVALID_INPUT: MessageId = 'common.validate.invalid';

/**
 * Parses a form with a shared schema: the data, or the first message (the same text the server
 * would send). Called when a form is sent, in the browser, so in the page's language.
 */
export function validate<S extends z.ZodType>(
  schema: S,
  input: unknown,
): { data: z.output<S>; error?: undefined } | { data?: undefined; error: string } {
  const result = schema.safeParse(input);
  if (result.success) return { data: result.data };
  return { error: result.error.issues[0]?.message ?? i18n._(INVALID_INPUT) };
}
