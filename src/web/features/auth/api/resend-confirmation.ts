import { useMutation } from '@tanstack/react-query';
import { messageSchema } from '../../../../shared/schemas/common';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/users/confirm-email/resend` → `{message}`: mails the confirmation link again. */
export async function resendConfirmation(): Promise<string> {
  return messageSchema.parse(await apiRequest('/api/users/confirm-email/resend', { method: 'POST' })).message;
}

export function useResendConfirmation() {
  return useMutation({ mutationFn: resendConfirmation });
}
