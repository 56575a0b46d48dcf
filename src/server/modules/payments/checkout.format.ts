import type { PaymentType } from '../../db/schema';
import type { CheckoutSession } from '../../../shared/schemas/payments';
import { centsToDollars } from '../../../shared/limits';
import { toApiId } from '../../lib/ids';

/** `path` with one more query parameter, whether or not it has a query already. */
export const withParam = (path: string, param: string) => `${path}${path.includes('?') ? '&' : '?'}${param}`;

/** What a purchase is called on the checkout page, in Stripe and in the history. */
export function describe(kind: PaymentType, quantity: number, plan: string | null, serverName: string | null): string {
  switch (kind) {
    case 'subscription':
      return `${plan} plan, monthly`;
    case 'playerBoost':
      return `Boost for ${serverName ?? 'a server'}`;
    case 'ownerBoost':
      return `${quantity} boosts for ${serverName ?? 'your server'}`;
    case 'serverOfTheWeekend':
      return `Server of the Weekend: ${serverName ?? 'your server'}`;
  }
}

/** The test checkout page's view of a stored session. */
export function toApiCheckout(
  row: {
    id: string;
    kind: PaymentType;
    amountCents: number;
    status: CheckoutSession['status'];
    returnPath: string;
    serverId: number | null;
    quantity: number;
    plan: string | null;
  },
  serverName: string | null,
  weekend: string | null,
  notice: string | null = null,
): CheckoutSession {
  return {
    id: row.id,
    kind: row.kind,
    description: describe(row.kind, row.quantity, row.plan, serverName),
    amount: centsToDollars(row.amountCents),
    status: row.status,
    returnPath: row.returnPath,
    serverId: row.serverId ? toApiId(row.serverId) : null,
    weekendStart: weekend,
    notice,
  };
}
