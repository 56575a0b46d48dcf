import { useMutation } from '@tanstack/react-query';
import { messageSchema } from '../../../../shared/schemas/common';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/reset-password {token, newPassword}` → `{message}`: the token comes from the mailed link, so a username alone changes nothing. */
export async function resetPassword(body: { token: string; newPassword: string }): Promise<string> {
  return messageSchema.parse(await apiRequest('/api/reset-password', { method: 'POST', body })).message;
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
