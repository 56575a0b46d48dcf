import { DISCORD_ERRORS } from '../../../shared/discord';

/**
 * The message for a `?discordError=` code a return from Discord carried; `fallback` for a code
 * this app does not know (a newer server, or a hand-edited address). Null without a code.
 */
export function discordErrorText(code: string | null, fallback: string): string | null {
  if (code === null) return null;
  return Object.hasOwn(DISCORD_ERRORS, code) ? DISCORD_ERRORS[code as keyof typeof DISCORD_ERRORS] : fallback;
}
