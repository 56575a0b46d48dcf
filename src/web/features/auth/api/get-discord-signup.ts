import { useQuery } from '@tanstack/react-query';
import { discordSignupInfoSchema, type DiscordSignupInfo } from '../../../../shared/schemas/discord';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/auth/discord/signup/info {token}` → the Discord name, a free username made from it and
 * the account's e-mail; 400 once the sign-up has expired or was used.
 */
export async function getDiscordSignup(token: string): Promise<DiscordSignupInfo> {
  return discordSignupInfoSchema.parse(await apiRequest('/api/auth/discord/signup/info', { method: 'POST', body: { token } }));
}

/** Read once per sign-up: asking again would offer another free username while the person types. */
export function useDiscordSignup(token: string) {
  return useQuery({ queryKey: ['auth', 'discord-signup', token], queryFn: () => getDiscordSignup(token), staleTime: Infinity });
}
