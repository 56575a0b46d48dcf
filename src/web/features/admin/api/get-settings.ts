import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { togglesSchema } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

export type Toggles = z.infer<typeof togglesSchema>;

/** `GET /api/admin/settings`: the feature toggles the server stores and enforces. */
export async function getSettings(): Promise<Toggles> {
  return togglesSchema.parse(await apiRequest('/api/admin/settings'));
}

export function useSettings(enabled = true) {
  return useQuery({ queryKey: adminKeys.settings, queryFn: getSettings, enabled });
}
