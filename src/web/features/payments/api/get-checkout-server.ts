import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

const serverNameSchema = z.object({ id: z.string(), name: z.string() }).loose();

/** `GET /api/servers/{id}`, only for the name of the server a checkout boosts or features. */
export async function getCheckoutServer(id: string): Promise<{ id: string; name: string }> {
  return serverNameSchema.parse(await apiRequest(`/api/servers/${encodeURIComponent(id)}`));
}

export function useCheckoutServer(id: string | null) {
  return useQuery({ queryKey: ['payments', 'checkout-server', id], queryFn: () => getCheckoutServer(id ?? ''), enabled: !!id });
}
