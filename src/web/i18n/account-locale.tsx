import { useEffect } from 'react';
import { useLingui } from '@lingui/react';
import { isLocale } from '../../shared/i18n/locales';
import { useSession } from '../lib/session';
import { activateLocale, rememberLocale } from './browser';

/**
 * A signed-in user's saved language wins over the device's and the browser's: once the session is
 * known (after the page started, so hydration matched the server's language), the page switches to
 * it, and the device remembers it for the pages the server renders next.
 */
export function AccountLocale() {
  const saved = useSession()?.user.locale ?? null;
  const { i18n } = useLingui();
  useEffect(() => {
    if (!isLocale(saved) || saved === i18n.locale) return;
    rememberLocale(saved);
    void activateLocale(saved);
  }, [saved, i18n.locale]);
  return null;
}
