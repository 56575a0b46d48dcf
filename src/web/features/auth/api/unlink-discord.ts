import { useMutation } from '@tanstack/react-query';
import { messageSchema } from '../../../../shared/schemas/common';
import { apiRequest } from '../../../lib/api-client';
import { getSession, updateSessionUser } from '../../../lib/session';

/** `DELETE /api/users/discord` → `{message}`; 400 while Discord is the account's only way in (no password). */
export async function unlinkDiscord(): Promise<string> {
  return messageSchema.parse(await apiRequest('/api/users/discord', { method: 'DELETE' })).message;
}

/** Unlinks, then drops Discord from the stored user (the profile and its card read it). */
export function useUnlinkDiscord() {
  return useMutation({
    mutationFn: unlinkDiscord,
    onSuccess: () => {
      const user = getSession()?.user;
      if (user) updateSessionUser({ ...user, discord: null });
    },
  });
}
