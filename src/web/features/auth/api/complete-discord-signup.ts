import { useMutation } from '@tanstack/react-query';
import { authResponseSchema, type AuthResponse } from '../../../../shared/schemas/auth';
import type { discordSignupBodySchema } from '../../../../shared/schemas/discord';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

export type DiscordSignupBody = z.infer<typeof discordSignupBodySchema>;

/**
 * `POST /api/auth/discord/signup {token, username, role}` → 201 `{user, token}`, like a
 * registration; 409 when the username was taken meanwhile (the sign-up stays usable).
 */
export async function completeDiscordSignup(body: DiscordSignupBody): Promise<AuthResponse> {
  return authResponseSchema.parse(await apiRequest('/api/auth/discord/signup', { method: 'POST', body }));
}

export function useCompleteDiscordSignup() {
  return useMutation({ mutationFn: completeDiscordSignup });
}
