import type { Kysely } from 'kysely';
import type { Database, UserRow } from '../../db/schema';
import type { Payment, Subscription } from '../../../shared/schemas/payments';
import { centsToDollars } from '../../../shared/limits';
import { toApiId } from '../../lib/ids';
import { pageTotal } from '../../lib/paging';

/** Reads for the payments page: the caller's plan and history. */
export function paymentsRepository(db: Kysely<Database>) {
  return {
    async subscriptionOf(user: UserRow): Promise<Subscription> {
      const live = await db
        .selectFrom('subscriptions')
        .select(['plan', 'status', 'currentPeriodEnd'])
        .where('userId', '=', user.id)
        .where('status', 'in', ['active', 'past_due'])
        .orderBy('updatedAt', 'desc')
        .executeTakeFirst();
      return {
        plan: user.subscriptionPlan,
        status: live?.status ?? (user.subscriptionPlan ? 'active' : 'none'),
        currentPeriodEnd: live?.currentPeriodEnd ? live.currentPeriodEnd.toISOString() : null,
      };
    },

    async historyOf(user: UserRow, limit: number, offset: number): Promise<{ rows: Payment[]; total: number }> {
      const rows = await db
        .selectFrom('payments')
        .leftJoin('servers', 'servers.id', 'payments.serverId')
        .select([
          'payments.id',
          'payments.createdAt',
          'payments.type',
          'payments.amountCents',
          'payments.serverId',
          'payments.status',
          'servers.name as serverName',
        ])
        .select((eb) => eb.fn.countAll<number>().over().as('total'))
        .where('payments.userId', '=', user.id)
        .orderBy('payments.createdAt', 'desc')
        .orderBy('payments.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      return {
        rows: rows.map((p) => ({
          id: toApiId(p.id),
          createdAt: p.createdAt.toISOString(),
          type: p.type,
          amount: centsToDollars(p.amountCents),
          serverId: p.serverId ? toApiId(p.serverId) : null,
          serverName: p.serverName,
          status: p.status,
        })),
        total: await pageTotal(rows, offset, async () =>
          Number(
            (
              await db
                .selectFrom('payments')
                .select((eb) => eb.fn.countAll<number>().as('n'))
                .where('userId', '=', user.id)
                .executeTakeFirstOrThrow()
            ).n,
          ),
        ),
      };
    },
  };
}
