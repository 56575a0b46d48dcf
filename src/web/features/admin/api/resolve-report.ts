import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `POST /api/admin/reports/:id/resolve {action}`: hide the review or server, or dismiss the report. */
export async function resolveReport({ id, action }: { id: string; action: 'hide' | 'dismiss' }): Promise<void> {
  await apiRequest(`/api/admin/reports/${encodeURIComponent(id)}/resolve`, { method: 'POST', body: { action } });
}

export function useResolveReport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resolveReport,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.all });
      await queryClient.invalidateQueries({ queryKey: ['servers'] });
    },
  });
}
