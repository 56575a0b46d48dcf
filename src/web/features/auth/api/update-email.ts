import { useMutation } from '@tanstack/react-query';
import type { UpdateEmailBody } from '../../../../shared/schemas/auth';
import { messageSchema } from '../../../../shared/schemas/common';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/users/update-email {email, currentPassword}` → `{message}`: a confirmation link goes
 * to the new address, which takes effect only once it is opened.
 */
export async function updateEmail(body: UpdateEmailBody): Promise<string> {
  return messageSchema.parse(await apiRequest('/api/users/update-email', { method: 'POST', body })).message;
}

export function useUpdateEmail() {
  return useMutation({ mutationFn: updateEmail });
}
