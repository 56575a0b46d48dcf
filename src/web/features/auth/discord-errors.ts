import { DISCORD_ERRORS, type DiscordErrorCode } from '../../../shared/discord';
import type { MessageId } from '../../i18n/catalogs/index';
import { translateMessage } from '../../i18n/messages';
import type { Translate } from '../../i18n/use-t';

/** The return codes whose text is this app's own (the others are API messages, in the errors catalog). */
const OWN_TEXT: Partial<Record<DiscordErrorCode, MessageId>> = {
  state: 'auth.discordError.state',
  denied: 'auth.discordError.denied',
  failed: 'auth.discordError.failed',
  unreachable: 'auth.discordError.unreachable',
};

/**
 * The message for a `?discordError=` code a return from Discord carried, in the page's language;
 * `fallback` for a code this app does not know (a newer server, or a hand-edited address). Null
 * without a code.
 */
export function discordErrorText(t: Translate, code: string | null, fallback: string): string | null {
  if (code === null) return null;
  if (!Object.hasOwn(DISCORD_ERRORS, code)) return fallback;
  const known = code as DiscordErrorCode;
  const own = OWN_TEXT[known];
  return own ? t(own) : translateMessage(t, DISCORD_ERRORS[known]);
}
