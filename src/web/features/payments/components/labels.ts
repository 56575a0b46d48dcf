import type { PaymentType } from '../../../../shared/schemas/payments';

/** How each kind of payment reads in the history and on the checkout page. */
export const PAYMENT_TYPE_LABELS: Record<PaymentType, string> = {
  playerBoost: 'Player boost',
  ownerBoost: 'Owner boost',
  subscription: 'Subscription',
  serverOfTheWeekend: 'Server of the Weekend',
};
