import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { emailCampaignSchema, type EmailCampaign, type sendEmailBodySchema } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

export type SendEmailInput = z.input<typeof sendEmailBodySchema>;

/** `POST /api/admin/send-email {subject, content, target}` → 202 with the queued campaign. */
export async function sendEmail(input: SendEmailInput): Promise<EmailCampaign> {
  return emailCampaignSchema.parse(await apiRequest('/api/admin/send-email', { method: 'POST', body: input }));
}

export function useSendEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendEmail,
    onSuccess: (campaign) => {
      queryClient.setQueryData(adminKeys.campaign(campaign.id), campaign);
      void queryClient.invalidateQueries({ queryKey: adminKeys.campaigns, exact: true });
    },
  });
}
