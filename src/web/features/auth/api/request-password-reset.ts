import { useMutation } from '@tanstack/react-query';
import { messageSchema } from '../../../../shared/schemas/common';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/reset-password/request {username}`: always 200 `{message}`; the code goes out by e-mail. */
export async function requestPasswordReset(username: string): Promise<string> {
  return messageSchema.parse(await apiRequest('/api/reset-password/request', { method: 'POST', body: { username } })).message;
}

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
