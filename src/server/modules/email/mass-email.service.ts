import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, UserRow } from '../../db/schema';
import type { Mailer } from '../../adapters/mailer';
import type { EmailCampaign } from '../../../shared/schemas/admin';
import { notFound } from '../../errors';
import { parseId, toApiId } from '../../lib/ids';
import type { UnsubscribeTokens } from './unsubscribe';

export const MASS_EMAIL_QUEUE = 'mass-email';
const BATCH = 20;

interface Deps {
  db: Kysely<Database>;
  mailer: Mailer;
  tokens: UnsubscribeTokens;
  publicUrl: string;
  enqueue: (campaignId: number) => Promise<void>;
}

type CampaignRow = {
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
};
const toApi = (c: CampaignRow): EmailCampaign => ({
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

/**
 * Mass e-mail to owners or players (issue 6). Recipients are fixed as delivery rows when the
 * admin sends: users without an address or who unsubscribed are skipped and counted then.
 * The queue's worker sends the pending rows at a bounded rate and marks each right after it went.
 */
export function massEmailService({ db, mailer, tokens, publicUrl, enqueue }: Deps) {
  const columns = ['id', 'subject', 'target', 'status', 'total', 'sent', 'skipped', 'failed', 'createdAt', 'finishedAt'] as const;

  return {
    async start(admin: UserRow, body: { subject: string; content: string; target: 'owners' | 'players' }): Promise<EmailCampaign> {
      const role = body.target === 'owners' ? 'server_owner' : 'player';
      const campaign = await db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('emailCampaigns')
          .values({ createdBy: admin.id, subject: body.subject, content: body.content, target: body.target })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('emailDeliveries')
          .columns(['campaignId', 'userId', 'status'])
          .expression((eb) =>
            eb
              .selectFrom('users')
              .select((s) => [
                s.val(row.id).as('campaignId'),
                s.ref('users.id').as('userId'),
                s
                  .case()
                  .when(s.or([s('users.email', 'is', null), s('users.emailUnsubscribed', '=', true)]))
                  .then('skipped')
                  .else('pending')
                  .end()
                  .as('status'),
              ])
              .where('users.role', '=', role),
          )
          .execute();
        const counts = await trx
          .selectFrom('emailDeliveries')
          .select((eb) => [
            eb.fn.countAll<number>().as('total'),
            eb.fn.countAll<number>().filterWhere('status', '=', 'skipped').as('skipped'),
          ])
          .where('campaignId', '=', row.id)
          .executeTakeFirstOrThrow();
        return trx
          .updateTable('emailCampaigns')
          .set({
            total: Number(counts.total),
            skipped: Number(counts.skipped),
            ...(Number(counts.total) === Number(counts.skipped) ? { status: 'done' as const, finishedAt: new Date() } : {}),
          })
          .where('id', '=', row.id)
          .returning(columns)
          .executeTakeFirstOrThrow();
      });
      if (campaign.status !== 'done') await enqueue(campaign.id);
      return toApi(campaign);
    },

    async get(rawId: string): Promise<EmailCampaign> {
      const id = parseId(rawId);
      const row = id ? await db.selectFrom('emailCampaigns').select(columns).where('id', '=', id).executeTakeFirst() : undefined;
      if (!row) throw notFound('Campaign not found');
      return toApi(row);
    },

    async recent(): Promise<EmailCampaign[]> {
      return (
        await db.selectFrom('emailCampaigns').select(columns).orderBy('createdAt', 'desc').orderBy('id', 'desc').limit(20).execute()
      ).map(toApi);
    },

    async unsubscribe(token: string): Promise<boolean> {
      const userId = tokens.verify(token);
      if (!userId) return false;
      await db.updateTable('users').set({ emailUnsubscribed: true, updatedAt: new Date() }).where('id', '=', userId).execute();
      return true;
    },

    /** The queue's worker for one campaign; `running()` false leaves the rest for the retry. */
    worker({ log, running, perSecond }: { log: FastifyBaseLogger; running: () => boolean; perSecond: number }) {
      const gap = Math.ceil(1000 / perSecond);
      return async (campaignId: number): Promise<void> => {
        const campaign = await db
          .selectFrom('emailCampaigns')
          .select(['id', 'subject', 'content'])
          .where('id', '=', campaignId)
          .executeTakeFirst();
        if (!campaign) return;
        await db
          .updateTable('emailCampaigns')
          .set({ status: 'sending' })
          .where('id', '=', campaignId)
          .where('status', '=', 'queued')
          .execute();
        for (;;) {
          const batch = await db
            .selectFrom('emailDeliveries')
            .innerJoin('users', 'users.id', 'emailDeliveries.userId')
            .select(['users.id', 'users.email', 'users.username', 'users.emailUnsubscribed'])
            .where('emailDeliveries.campaignId', '=', campaignId)
            .where('emailDeliveries.status', '=', 'pending')
            .orderBy('users.id')
            .limit(BATCH)
            .execute();
          if (batch.length === 0) break;
          for (const user of batch) {
            if (!running()) throw new Error('stopping: the rest of this campaign is left for the retry');
            const mark = (status: 'sent' | 'skipped' | 'failed') =>
              db.transaction().execute(async (trx) => {
                await trx
                  .updateTable('emailDeliveries')
                  .set({ status, sentAt: new Date() })
                  .where('campaignId', '=', campaignId)
                  .where('userId', '=', user.id)
                  .execute();
                await trx
                  .updateTable('emailCampaigns')
                  .set((eb) => ({ [status]: eb(status, '+', 1) }))
                  .where('id', '=', campaignId)
                  .execute();
              });
            // Unsubscribed since the campaign started: honoured now too.
            if (!user.email || user.emailUnsubscribed) {
              await mark('skipped');
              continue;
            }
            const link = `${publicUrl}/unsubscribe?token=${encodeURIComponent(tokens.create(user.id))}`;
            const oneClick = `${publicUrl}/api/unsubscribe?token=${encodeURIComponent(tokens.create(user.id))}`;
            try {
              await mailer.send({
                to: user.email,
                subject: campaign.subject,
                text: `${campaign.content}\n\n--\nYou get this because you have an account on RP Servers. Unsubscribe: ${link}`,
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
        await db.updateTable('emailCampaigns').set({ status: 'done', finishedAt: new Date() }).where('id', '=', campaignId).execute();
        log.info({ campaignId }, 'mass e-mail done');
      };
    },
  };
}

export type MassEmailService = ReturnType<typeof massEmailService>;
