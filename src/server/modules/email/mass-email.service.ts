import type { FastifyBaseLogger } from 'fastify';
import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import type { Mailer } from '../../adapters/mailer';
import type { EmailCampaign } from '../../../shared/schemas/admin';
import { MSG } from '../../../shared/messages';
import { badRequest, notFound } from '../../errors';
import { emailPolicy } from '../../policies/email.policy';
import type { MassEmailRepository } from './mass-email.repository';
import { toApiCampaign } from './mass-email.mapper';
import { campaignWorker } from './mass-email.worker';
import type { UnsubscribeTokens } from './unsubscribe';

interface Deps {
  campaigns: MassEmailRepository;
  inTransaction: InTransaction;
  mailer: Mailer;
  tokens: UnsubscribeTokens;
  publicUrl: string;
  enqueue: (campaignId: number) => Promise<void>;
}

/**
 * Mass e-mail to owners or players. Recipients are fixed as delivery rows when the admin
 * sends: users without an address or who unsubscribed are skipped and counted then. The
 * queue's worker sends the pending rows at a bounded rate and marks each right after it went.
 */
export function massEmailService({ campaigns, inTransaction, mailer, tokens, publicUrl, enqueue }: Deps) {
  return {
    /** Starts a campaign: its recipients fixed in one transaction, then queued unless none is left to send. */
    async start(admin: UserRow, body: { subject: string; content: string; target: 'owners' | 'players' }): Promise<EmailCampaign> {
      emailPolicy.assertMaySend(admin);
      const role = body.target === 'owners' ? 'server_owner' : 'player';
      const campaign = await inTransaction(async (tx) => {
        const id = await campaigns.insertCampaign(
          { createdBy: admin.id, subject: body.subject, content: body.content, target: body.target },
          tx,
        );
        await campaigns.addDeliveries(id, role, tx);
        const counts = await campaigns.countDeliveries(id, tx);
        return campaigns.setCounts(
          id,
          {
            total: counts.total,
            skipped: counts.skipped,
            ...(counts.total === counts.skipped ? { status: 'done' as const, finishedAt: new Date() } : {}),
          },
          tx,
        );
      });
      if (campaign.status !== 'done') await enqueue(campaign.id);
      return toApiCampaign(campaign);
    },

    /** One campaign with its counts. */
    async get(actor: UserRow, id: number): Promise<EmailCampaign> {
      emailPolicy.assertMayReadCampaigns(actor);
      const row = await campaigns.findCampaign(id);
      if (!row) throw notFound(MSG.campaignNotFound);
      return toApiCampaign(row);
    },

    /** The latest campaigns, newest first. */
    async recent(actor: UserRow): Promise<EmailCampaign[]> {
      emailPolicy.assertMayReadCampaigns(actor);
      return (await campaigns.recentCampaigns()).map(toApiCampaign);
    },

    /** Turns off mass e-mail for the user a signed unsubscribe token names; 400 for a missing or forged one. */
    async unsubscribe(token: string | undefined): Promise<void> {
      const userId = token ? tokens.verify(token) : undefined;
      if (!userId) throw badRequest(MSG.unsubscribeInvalid);
      await campaigns.unsubscribeUser(userId);
    },

    /** The queue's worker for one campaign; `running()` false leaves the rest for the retry. */
    worker({ log, running, perSecond }: { log: FastifyBaseLogger; running: () => boolean; perSecond: number }) {
      return campaignWorker({ campaigns, inTransaction, mailer, tokens, publicUrl, log, running, perSecond });
    },
  };
}

export type MassEmailService = ReturnType<typeof massEmailService>;
