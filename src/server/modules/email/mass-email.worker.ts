import { serverT } from '../../i18n/translate';
import type { FastifyBaseLogger } from 'fastify';
import type { InTransaction } from '../../db/transaction';
import type { Mailer } from '../../adapters/mailer';
import type { DeliveryOutcome, MassEmailRepository } from './mass-email.repository';
import type { UnsubscribeTokens } from './unsubscribe';

export const MASS_EMAIL_QUEUE = 'mass-email';
const BATCH = 20;

interface Deps {
  campaigns: MassEmailRepository;
  inTransaction: InTransaction;
  mailer: Mailer;
  tokens: UnsubscribeTokens;
  publicUrl: string;
  log: FastifyBaseLogger;
  /** Checked before each delivery: false once the app is stopping, so the job is left for a retry. */
  running: () => boolean;
  perSecond: number;
}

/**
 * Sends one campaign's pending deliveries at `perSecond` at most. Each delivery is marked, with
 * its counter, in one transaction right after the mail went; a worker that stops mid-way leaves
 * the rest pending, and the queue's retry continues from there: every recipient once.
 */
export function campaignWorker({ campaigns, inTransaction, mailer, tokens, publicUrl, log, running, perSecond }: Deps) {
  const gap = Math.ceil(1000 / perSecond);
  return async (campaignId: number): Promise<void> => {
    const campaign = await campaigns.findCampaignContent(campaignId);
    if (!campaign) return;
    await campaigns.markSending(campaignId);
    for (;;) {
      const batch = await campaigns.pendingRecipients(campaignId, BATCH);
      if (batch.length === 0) break;
      for (const user of batch) {
        if (!running()) throw new Error('stopping: the rest of this campaign is left for the retry');
        const mark = (status: DeliveryOutcome) =>
          inTransaction(async (tx) => {
            await campaigns.setDeliveryStatus(campaignId, user.id, status, tx);
            await campaigns.countOutcome(campaignId, status, tx);
          });
        // Unsubscribed, or the address changed to one not confirmed, since the campaign started: honoured now too.
        if (!user.email || !user.emailConfirmedAt || user.emailUnsubscribed) {
          await mark('skipped');
          continue;
        }
        const link = `${publicUrl}/unsubscribe?token=${encodeURIComponent(tokens.create(user.id))}`;
        const oneClick = `${publicUrl}/api/unsubscribe?token=${encodeURIComponent(tokens.create(user.id))}`;
        try {
          await mailer.send({
            to: user.email,
            subject: campaign.subject,
            text: `${campaign.content}\n\n--\n${serverT(user.locale)('email.mass.footer', { link })}`,
            headers: { 'List-Unsubscribe': `<${oneClick}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
          });
          await mark('sent');
        } catch (error) {
          log.warn({ err: error, campaignId, userId: user.id }, 'mass e-mail delivery failed');
          await mark('failed');
        }
        await new Promise((resolve) => setTimeout(resolve, gap));
      }
    }
    await campaigns.markDone(campaignId);
    log.info({ campaignId }, 'mass e-mail done');
  };
}
