import { useMutation } from '@tanstack/react-query';
import { discordStartSchema } from '../../../../shared/schemas/discord';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/users/discord/link {returnTo}` → `{url}`: Discord's consent screen for linking the
 * signed-in account; Discord sends the browser back to `returnTo` with the outcome.
 */
export async function linkDiscord(returnTo = '/profile'): Promise<string> {
  return discordStartSchema.parse(await apiRequest('/api/users/discord/link', { method: 'POST', body: { returnTo } })).url;
}

export function useLinkDiscord() {
  return useMutation({ mutationFn: linkDiscord });
}
