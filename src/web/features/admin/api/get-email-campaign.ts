import { useQuery, useQueryClient } from '@tanstack/react-query';
import { emailCampaignSchema, type EmailCampaign } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

const finished = (c: EmailCampaign | undefined) => c?.status === 'done' || c?.status === 'failed';

/** `GET /api/admin/email-campaigns/:id`: a campaign's progress. */
export async function getEmailCampaign(id: string): Promise<EmailCampaign> {
  return emailCampaignSchema.parse(await apiRequest(`/api/admin/email-campaigns/${encodeURIComponent(id)}`));
}

/** Polls the campaign every second until it is done (or failed), then refreshes the recent list once. */
export function useEmailCampaign(id: string | null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: adminKeys.campaign(id ?? ''),
    queryFn: async () => {
      const campaign = await getEmailCampaign(id!);
      if (finished(campaign)) void queryClient.invalidateQueries({ queryKey: adminKeys.campaigns, exact: true });
      return campaign;
    },
    enabled: id !== null,
    staleTime: 0,
    refetchInterval: (query) => (finished(query.state.data) ? false : 1000),
  });
}
