import type { UserRow } from '../../db/schema';
import type { InTransaction } from '../../db/transaction';
import { MSG } from '../../../shared/messages';
import type { BoostCreditBalances, SpentBoostCredits } from '../../../shared/schemas/payments';
import { conflict } from '../../errors';
import { paymentsPolicy } from '../../policies/payments.policy';
import type { SettingsService } from '../settings';
import type { CheckoutsRepository } from './checkouts.repository';
import type { CreditsRepository } from './credits.repository';
import { targetServers } from './target-server';

interface Deps {
  checkouts: Pick<CheckoutsRepository, 'findServer'>;
  credits: CreditsRepository;
  inTransaction: InTransaction;
  settings: Pick<SettingsService, 'flag'>;
  now: () => Date;
  onChange: () => void;
}

/**
 * Premium's boost credits: a balance on each new server that its owner spends on a boost package
 * instead of paying (docs/decisions/034-boost-credit-balance.md).
 */
export function boostCreditsService({ checkouts, credits, inTransaction, settings, now, onChange }: Deps) {
  const { owned } = targetServers(checkouts);

  return {
    /** The unspent credits of each of the caller's servers (none for anyone but an owner). */
    async balances(actor: UserRow): Promise<BoostCreditBalances> {
      const rows = await credits.balancesOf(actor.id);
      return rows.map((r) => ({ serverId: String(r.id), balance: r.boostCredits }));
    },

    /**
     * Pays a package of `boosts` with the server's credits: the credits go down and the boosts
     * count at once, in one transaction, or nothing changes.
     */
    async spend(actor: UserRow, rawServerId: string, boosts: number): Promise<SpentBoostCredits> {
      const target = await owned(actor, rawServerId);
      paymentsPolicy.assertBoostingEnabled(await settings.flag('enableBoosting'));
      const result = await inTransaction(async (tx) => {
        const balance = await credits.spendCredits(target.id, actor.id, boosts, tx);
        // The balance, not the request, is what is short: a conflict with the server's state.
        if (balance === undefined) throw conflict(MSG.notEnoughBoostCredits);
        const totalBoosts = await credits.creditBoosts(
          { serverId: target.id, userId: actor.id, paymentId: null, amount: boosts, source: 'premium_credit' },
          now(),
          tx,
        );
        return { serverId: String(target.id), spent: boosts, balance, totalBoosts };
      });
      onChange();
      return result;
    },
  };
}

export type BoostCreditsService = ReturnType<typeof boostCreditsService>;
