import { useMutation } from '@tanstack/react-query';
import { updateEmailResultSchema, type UpdateEmailBody } from '../../../../shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';

/**
 * `POST /api/users/update-email {email, currentPassword?}` → `{message}`: a first address is saved
 * at once; a new one takes effect once the confirmation link mailed to it is opened.
 */
export async function updateEmail(body: UpdateEmailBody): Promise<string> {
  return updateEmailResultSchema.parse(await apiRequest('/api/users/update-email', { method: 'POST', body })).message;
}

export function useUpdateEmail() {
  return useMutation({ mutationFn: updateEmail });
}
