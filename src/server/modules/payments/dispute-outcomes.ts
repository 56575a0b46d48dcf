/**
 * Closing statuses that leave the charge standing: a dispute won, or an inquiry closed without
 * becoming a chargeback. A dispute `created` took the purchase back; these give it back.
 */
export const IN_OUR_FAVOUR: readonly string[] = ['won', 'warning_closed'];
