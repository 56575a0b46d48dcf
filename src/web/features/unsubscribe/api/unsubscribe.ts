import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/unsubscribe {token}` → `{message}`: the token comes from the link in a mass e-mail. */
export async function unsubscribe(token: string): Promise<string> {
  return z.object({ message: z.string() }).parse(await apiRequest('/api/unsubscribe', { method: 'POST', body: { token } })).message;
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
