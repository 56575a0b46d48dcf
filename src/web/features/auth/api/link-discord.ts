import { useMutation } from '@tanstack/react-query';
import { discordStartSchema } from '../../../../shared/schemas/discord';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/users/discord/link {returnTo, currentPassword}` → `{url}`: Discord's consent screen for
 * linking the signed-in account (an account with a password proves it is its owner first);
 * Discord sends the browser back to `returnTo` with the outcome.
 */
export async function linkDiscord({
  currentPassword,
  returnTo = '/profile',
}: {
  currentPassword?: string;
  returnTo?: string;
}): Promise<string> {
  return discordStartSchema.parse(await apiRequest('/api/users/discord/link', { method: 'POST', body: { returnTo, currentPassword } })).url;
}

export function useLinkDiscord() {
  return useMutation({ mutationFn: linkDiscord });
}
