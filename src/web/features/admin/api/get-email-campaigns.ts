import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { emailCampaignSchema, type EmailCampaign } from '../../../../shared/schemas/admin';
import { apiRequest } from '../../../lib/api-client';
import { adminKeys } from './keys';

/** `GET /api/admin/email-campaigns`: the latest mass e-mails, newest first. */
export async function getEmailCampaigns(): Promise<EmailCampaign[]> {
  return z.array(emailCampaignSchema).parse(await apiRequest('/api/admin/email-campaigns'));
}

export function useEmailCampaigns() {
  return useQuery({ queryKey: adminKeys.campaigns, queryFn: getEmailCampaigns });
}
