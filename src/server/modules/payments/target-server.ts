import type { UserRow } from '../../db/schema';
import { MSG } from '../../../shared/messages';
import { notFound } from '../../errors';
import { parseId } from '../../lib/ids';
import { paymentsPolicy } from '../../policies/payments.policy';
import type { CheckoutsRepository } from './checkouts.repository';

/** The server a purchase names, found and checked the same way by every way of paying. */
export function targetServers(checkouts: Pick<CheckoutsRepository, 'findServer'>) {
  /** A listed server named in a request body; a hidden or unknown one is not found. */
  const listed = async (rawId: string) => {
    const id = parseId(rawId);
    const row = id ? await checkouts.findServer(id) : undefined;
    if (!row || row.hidden) throw notFound(MSG.serverNotFound);
    return row;
  };

  /** A server the actor owns, for what owners buy. */
  const owned = async (actor: UserRow, rawId: string) => {
    paymentsPolicy.assertIsOwnerBuyer(actor);
    const row = await listed(rawId);
    paymentsPolicy.assertCanBuyFor(actor, row);
    return row;
  };

  return { listed, owned };
}
