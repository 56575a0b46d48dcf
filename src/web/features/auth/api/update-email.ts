import { useMutation } from '@tanstack/react-query';
import { userSchema, type User } from '../../../../shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/users/update-email {email}` → the updated user. */
export async function updateEmail(email: string): Promise<User> {
  return userSchema.parse(await apiRequest('/api/users/update-email', { method: 'POST', body: { email } }));
}

export function useUpdateEmail() {
  return useMutation({ mutationFn: updateEmail });
}
