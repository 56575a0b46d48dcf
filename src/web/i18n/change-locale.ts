import { userSchema } from '../../shared/schemas/auth';
import type { Locale } from '../../shared/i18n/locales';
import { apiRequest } from '../lib/api-client';
import { getSession, updateSessionUser } from '../lib/session';
import { activateLocale, rememberLocale } from './browser';

/**
 * Switches the page to another language and keeps the choice: on the device (a cookie the server
 * renders the next page by), and on the account of a signed-in user, whose e-mails
 * follow it. The page changes at once; saving to the account is what the returned promise waits for.
 */
export async function changeLocale(locale: Locale): Promise<void> {
  await activateLocale(locale);
  rememberLocale(locale);
  if (getSession()) {
    const saved = userSchema.parse(await apiRequest('/api/users/locale', { method: 'PUT', body: { locale } }));
    updateSessionUser(saved);
  }
}
