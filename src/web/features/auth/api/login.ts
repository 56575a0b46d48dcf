import { useMutation } from '@tanstack/react-query';
import { authResponseSchema, type AuthResponse, type LoginBody } from '../../../../shared/schemas/auth';
import { apiRequest } from '../../../lib/api-client';

/** `POST /api/login` → `{user, token}`. */
export async function login(body: LoginBody): Promise<AuthResponse> {
  return authResponseSchema.parse(await apiRequest('/api/login', { method: 'POST', body }));
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
