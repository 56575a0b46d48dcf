import { useMutation } from '@tanstack/react-query';
import { authResponseSchema, type AuthResponse, type RegisterBody } from '../../../../shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/register` → 201 `{user, token}`. */
export async function register(body: RegisterBody): Promise<AuthResponse> {
  return authResponseSchema.parse(await apiRequest('/api/register', { method: 'POST', body }));
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
