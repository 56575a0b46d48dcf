import { useMutation } from '@tanstack/react-query';
import { discordStartSchema } from '../../../../shared/schemas/discord';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/auth/discord/start {returnTo?}` → `{url}`: Discord's consent screen to send the
 * browser to; the answer's cookie binds the trip to this browser.
 */
export async function startDiscord(returnTo?: string): Promise<string> {
  return discordStartSchema.parse(await apiRequest('/api/auth/discord/start', { method: 'POST', body: returnTo ? { returnTo } : {} })).url;
}

export function useStartDiscord() {
  return useMutation({ mutationFn: startDiscord });
}
