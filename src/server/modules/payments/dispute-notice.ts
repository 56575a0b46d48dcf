import { DEFAULT_LOCALE, isLocale } from '../../../shared/i18n/locales';
import { serverT } from '../../i18n/translate';

/** What a won dispute gave back (or why it could not), for the buyer's notice. */
export type GivenBack =
  | { kind: 'boosts'; server: string; boosts: number }
  | { kind: 'weekend'; server: string; weekend: string }
  | { kind: 'weekendMoved'; server: string; weekend: string; booked: string }
  | { kind: 'weekendPassed'; server: string; weekend: string }
  | { kind: 'plan'; plan: string; end: Date }
  | { kind: 'planPassed'; plan: string; end: Date }
  | { kind: 'planHeld'; plan: string }
  | { kind: 'recorded' };

/**
 * The inbox notice of a won dispute in the buyer's language: amounts and dates are written the
 * way that language writes them, times in UTC (the site's weekends run on UTC).
 */
export function disputeWonNotice(locale: string | null | undefined, amountCents: number, given: GivenBack) {
  const lang = isLocale(locale) ? locale : DEFAULT_LOCALE;
  const t = serverT(lang);
  const day = (friday: string) =>
    new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(Date.parse(`${friday}T00:00:00Z`));
  const moment = (at: Date) =>
    new Intl.DateTimeFormat(lang, {
      year: 'numeric',
      month: 'long',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZone: 'UTC',
      timeZoneName: 'short',
    }).format(at);
  const title = t('notice.disputeWon.title', {
    amount: new Intl.NumberFormat(lang, { style: 'currency', currency: 'USD' }).format(amountCents / 100),
  });
  const message = (() => {
    switch (given.kind) {
      case 'boosts':
        return t('notice.disputeWon.boosts', { server: given.server, boosts: given.boosts });
      case 'weekend':
      case 'weekendPassed':
        return t(`notice.disputeWon.${given.kind}`, { server: given.server, weekend: day(given.weekend) });
      case 'weekendMoved':
        return t('notice.disputeWon.weekendMoved', { server: given.server, weekend: day(given.weekend), booked: day(given.booked) });
      case 'plan':
      case 'planPassed':
        return t(`notice.disputeWon.${given.kind}`, { plan: given.plan, end: moment(given.end) });
      case 'planHeld':
        return t('notice.disputeWon.planHeld', { plan: given.plan });
      case 'recorded':
        return t('notice.disputeWon.recorded');
    }
  })();
  return { title, message, link: '/payments' };
}
