import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { togglesSchema, type togglesUpdateSchema } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';
import type { Toggles } from './get-settings';

/** `PUT /api/admin/settings {enableBoosting?, enableReviews?, maintenanceMode?}` → every toggle. */
export async function updateSettings(input: z.infer<typeof togglesUpdateSchema>): Promise<Toggles> {
  return togglesSchema.parse(await apiRequest('/api/admin/settings', { method: 'PUT', body: input }));
}

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: updateSettings, onSuccess: (toggles) => queryClient.setQueryData(adminKeys.settings, toggles) });
}
