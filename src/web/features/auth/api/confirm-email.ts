import { messageSchema } from '../../../../shared/schemas/common';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/users/confirm-email {token}` → `{message}`: applies the address of a mailed link, once. */
export async function confirmEmail(token: string): Promise<string> {
  return messageSchema.parse(await apiRequest('/api/users/confirm-email', { method: 'POST', body: { token } })).message;
}
