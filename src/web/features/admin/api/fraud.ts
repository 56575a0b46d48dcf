import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { fraudActionResultSchema, fraudEvidenceSchema, fraudSuspectsSchema, type FraudActionBody } from '../../../../shared/schemas/fraud';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/admin/fraud`: servers whose last 24 hours of votes look made, highest score first. */
export function useFraudSuspects() {
  return useQuery({
    queryKey: adminKeys.fraud,
    queryFn: async () => fraudSuspectsSchema.parse(await apiRequest('/api/admin/fraud')),
  });
}

/** `GET /api/admin/fraud/servers/{id}`: every vote and join of the window, with account and network. */
export function useFraudEvidence(serverId: string | null) {
  return useQuery({
    queryKey: [...adminKeys.fraud, 'evidence', serverId ?? ''],
    queryFn: async () => fraudEvidenceSchema.parse(await apiRequest(`/api/admin/fraud/servers/${encodeURIComponent(serverId!)}`)),
    enabled: serverId !== null,
  });
}

/** `POST /api/admin/fraud/actions`: void or release votes, joins or every row of some accounts; the counters are recounted. */
export function useFraudAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: Partial<FraudActionBody> & Pick<FraudActionBody, 'action'>) =>
      fraudActionResultSchema.parse(await apiRequest('/api/admin/fraud/actions', { method: 'POST', body })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.fraud });
      await queryClient.invalidateQueries({ queryKey: ['servers'] });
    },
  });
}
