import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema';
import type { Executor } from '../../db/transaction';
import type { Role } from '../../../shared/roles';
import type { CampaignRow } from './mass-email.mapper';

const CAMPAIGN_COLUMNS = ['id', 'subject', 'target', 'status', 'total', 'sent', 'skipped', 'failed', 'createdAt', 'finishedAt'] as const;

/** What a delivery ended in; each has its counter on the campaign. */
export type DeliveryOutcome = 'sent' | 'skipped' | 'failed';

/** Mass e-mail campaigns, their per-recipient deliveries, and the unsubscribe flag. */
export function massEmailRepository(db: Kysely<Database>) {
  return {
    /** Stores a new campaign; returns its id. */
    async insertCampaign(
      values: { createdBy: number; subject: string; content: string; target: 'owners' | 'players' },
      tx: Executor = db,
    ): Promise<number> {
      return (await tx.insertInto('emailCampaigns').values(values).returning('id').executeTakeFirstOrThrow()).id;
    },

    /**
     * A delivery row per user of `role`, in one statement: skipped for those without a confirmed
     * address or who unsubscribed, pending for the rest.
     */
    async addDeliveries(campaignId: number, role: Role, tx: Executor = db): Promise<void> {
      await tx
        .insertInto('emailDeliveries')
        .columns(['campaignId', 'userId', 'status'])
        .expression((eb) =>
          eb
            .selectFrom('users')
            .select((s) => [
              s.val(campaignId).as('campaignId'),
              s.ref('users.id').as('userId'),
              s
                .case()
                // An address nobody confirmed may be someone else's: a campaign never goes there.
                .when(
                  s.or([s('users.email', 'is', null), s('users.emailConfirmedAt', 'is', null), s('users.emailUnsubscribed', '=', true)]),
                )
                .then('skipped')
                .else('pending')
                .end()
                .as('status'),
            ])
            .where('users.role', '=', role),
        )
        .execute();
    },

    /** A campaign's deliveries: all, and those skipped. */
    async countDeliveries(campaignId: number, tx: Executor = db): Promise<{ total: number; skipped: number }> {
      const counts = await tx
        .selectFrom('emailDeliveries')
        .select((eb) => [
          eb.fn.countAll<number>().as('total'),
          eb.fn.countAll<number>().filterWhere('status', '=', 'skipped').as('skipped'),
        ])
        .where('campaignId', '=', campaignId)
        .executeTakeFirstOrThrow();
      return { total: Number(counts.total), skipped: Number(counts.skipped) };
    },

    /** Sets a campaign's counts (and, when nothing is left to send, its end); returns the campaign. */
    async setCounts(
      campaignId: number,
      values: { total: number; skipped: number; status?: 'done'; finishedAt?: Date },
      tx: Executor = db,
    ): Promise<CampaignRow> {
      return tx
        .updateTable('emailCampaigns')
        .set(values)
        .where('id', '=', campaignId)
        .returning(CAMPAIGN_COLUMNS)
        .executeTakeFirstOrThrow();
    },

    async findCampaign(id: number, tx: Executor = db): Promise<CampaignRow | undefined> {
      return tx.selectFrom('emailCampaigns').select(CAMPAIGN_COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    /** The 20 latest campaigns, newest first. */
    async recentCampaigns(tx: Executor = db): Promise<CampaignRow[]> {
      return tx
        .selectFrom('emailCampaigns')
        .select(CAMPAIGN_COLUMNS)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .limit(20)
        .execute();
    },

    /** Turns off mass e-mail for a user. */
    async unsubscribeUser(userId: number, tx: Executor = db): Promise<void> {
      await tx.updateTable('users').set({ emailUnsubscribed: true, updatedAt: new Date() }).where('id', '=', userId).execute();
    },

    /** What the worker sends: the campaign's subject and text. */
    async findCampaignContent(id: number, tx: Executor = db) {
      return tx.selectFrom('emailCampaigns').select(['id', 'subject', 'content']).where('id', '=', id).executeTakeFirst();
    },

    /** A queued campaign is now sending (a retried one already is). */
    async markSending(campaignId: number, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('emailCampaigns')
        .set({ status: 'sending' })
        .where('id', '=', campaignId)
        .where('status', '=', 'queued')
        .execute();
    },

    /** The next pending recipients, in user id order, with their address and unsubscribe flag as of now. */
    async pendingRecipients(campaignId: number, limit: number, tx: Executor = db) {
      return tx
        .selectFrom('emailDeliveries')
        .innerJoin('users', 'users.id', 'emailDeliveries.userId')
        .select(['users.id', 'users.email', 'users.emailConfirmedAt', 'users.username', 'users.emailUnsubscribed', 'users.locale'])
        .where('emailDeliveries.campaignId', '=', campaignId)
        .where('emailDeliveries.status', '=', 'pending')
        .orderBy('users.id')
        .limit(limit)
        .execute();
    },

    /** Records how one recipient's delivery ended. */
    async setDeliveryStatus(campaignId: number, userId: number, status: DeliveryOutcome, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('emailDeliveries')
        .set({ status, sentAt: new Date() })
        .where('campaignId', '=', campaignId)
        .where('userId', '=', userId)
        .execute();
    },

    /** Adds one to the campaign's counter of that outcome. */
    async countOutcome(campaignId: number, status: DeliveryOutcome, tx: Executor = db): Promise<void> {
      await tx
        .updateTable('emailCampaigns')
        .set((eb) => ({ [status]: eb(status, '+', 1) }))
        .where('id', '=', campaignId)
        .execute();
    },

    async markDone(campaignId: number, tx: Executor = db): Promise<void> {
      await tx.updateTable('emailCampaigns').set({ status: 'done', finishedAt: new Date() }).where('id', '=', campaignId).execute();
    },
  };
}

export type MassEmailRepository = ReturnType<typeof massEmailRepository>;
