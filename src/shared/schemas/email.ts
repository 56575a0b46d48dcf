import { z } from 'zod';
import { emailCampaignSchema } from './admin';

/** `GET /api/admin/email-campaigns`: the latest campaigns, newest first. */
export const emailCampaignsSchema = z.array(emailCampaignSchema);

/** The unsubscribe link's signed token, as `?token=` in the link. */
export const unsubscribeQuerySchema = z.object({ token: z.string().max(300).optional() });

/**
 * `POST /api/unsubscribe` body: JSON from the web page, or the form a mail client's one-click
 * unsubscribe posts (`List-Unsubscribe=One-Click` besides the token, hence passthrough). May be empty.
 */
export const unsubscribeFormSchema = z
  .object({ token: z.string().max(300).optional() })
  .passthrough()
  .nullish();
