import type { PaymentType } from '../../../../shared/schemas/payments';
import type { MessageId } from '../../../i18n/catalogs/index';

/** How each kind of payment reads in the history and on the checkout page: message ids, translated where shown. */
export const PAYMENT_TYPE_LABELS: Record<PaymentType, MessageId> = {
  playerBoost: 'payments.type.playerBoost',
  ownerBoost: 'payments.type.ownerBoost',
  subscription: 'payments.type.subscription',
  serverOfTheWeekend: 'payments.type.serverOfTheWeekend',
};
