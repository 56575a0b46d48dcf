import { useQuery } from '@tanstack/react-query';
import { discordEnabledSchema } from '../../../../shared/schemas/discord';
import { apiRequest } from '../../../lib/api-client';

export const discordEnabledKey = ['auth', 'discord-enabled'] as const;

/** `GET /api/auth/discord` → `{enabled}`: whether the site offers sign-in with Discord. */
export async function getDiscordEnabled(): Promise<boolean> {
  return discordEnabledSchema.parse(await apiRequest('/api/auth/discord')).enabled;
}

/** Whether to show the Discord buttons: false until known, and when the answer fails (the forms work without it). */
export function useDiscordEnabled(): boolean {
  // The site's settings change with a deploy, not while a page is open.
  const { data } = useQuery({ queryKey: discordEnabledKey, queryFn: getDiscordEnabled, staleTime: Infinity });
  return data === true;
}
