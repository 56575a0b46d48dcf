import type { EmailCampaign } from '../../../shared/schemas/admin';
import { toApiId } from '../../lib/ids';

/** A campaign as stored. */
export interface CampaignRow {
  id: number;
  subject: string;
  target: 'owners' | 'players';
  status: EmailCampaign['status'];
  total: number;
  sent: number;
  skipped: number;
  failed: number;
  createdAt: Date;
  finishedAt: Date | null;
}

/** A campaign as the API shows it: string id, ISO dates. */
export const toApiCampaign = (c: CampaignRow): EmailCampaign => ({
  id: toApiId(c.id),
  subject: c.subject,
  target: c.target,
  status: c.status,
  total: c.total,
  sent: c.sent,
  skipped: c.skipped,
  failed: c.failed,
  createdAt: c.createdAt.toISOString(),
  finishedAt: c.finishedAt ? c.finishedAt.toISOString() : null,
});
