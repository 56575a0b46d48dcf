import { setupI18n, type Messages } from '@lingui/core';
import { DEFAULT_LOCALE, LOCALE_COOKIE, LOCALE_PARAM, isLocale, matchLocale, type Locale } from '../../shared/i18n/locales';
import { PRERENDER_IDS } from '../../shared/prerender';
import { CATALOG_LOADERS, MANAGE_CATALOG_LOADERS } from './catalogs/index';
import { setFormatLocale } from './runtime';

/** The page's one Lingui instance: activating another language re-renders everything under I18nProvider. */
export const i18n = setupI18n();

/**
 * The language the app starts in. A page the server rendered is hydrated in the language it was
 * drawn in (`<html lang>`). Otherwise (the service worker's copy of the app's page, which is the
 * build's): a language pinned in the URL, the device's choice, the browser's languages, English
 * (docs/decisions/054-languages.md). A signed-in user's saved choice follows once the session is known.
 */
export function startLocale(): Locale {
  const lang = document.documentElement.lang;
  if (document.getElementById(PRERENDER_IDS.answers) && isLocale(lang)) return lang;
  const pinned = matchLocale(new URLSearchParams(window.location.search).get(LOCALE_PARAM));
  if (pinned) return pinned;
  const cookie = document.cookie.match(new RegExp(`(?:^|; )${LOCALE_COOKIE}=([^;]*)`))?.[1];
  const saved = matchLocale(cookie);
  if (saved) return saved;
  for (const tag of navigator.languages ?? []) {
    const match = matchLocale(tag);
    if (match) return match;
  }
  return isLocale(lang) ? lang : DEFAULT_LOCALE;
}

export { rememberLocale } from './locale-cookie';

/** Whether a page that needs the owners', payments' and admins' messages was opened: a new language loads them too. */
let manageWanted = false;
const loaded = new Set<string>();

async function load(locale: Locale, manage: boolean): Promise<void> {
  const parts: Array<[string, () => Promise<{ default: object }>]> = [[locale, CATALOG_LOADERS[locale]]];
  if (manage) parts.push([`${locale} manage`, MANAGE_CATALOG_LOADERS[locale]]);
  await Promise.all(
    parts
      .filter(([key]) => !loaded.has(key))
      .map(async ([key, loader]) => {
        i18n.load(locale, (await loader()).default as Messages);
        loaded.add(key);
      }),
  );
}

/** Loads a language's catalog (its own chunk; compiled at build) and makes it the page's. */
export async function activateLocale(locale: Locale): Promise<void> {
  if (i18n.locale === locale) return;
  await load(locale, manageWanted);
  setFormatLocale(locale);
  i18n.activate(locale);
  document.documentElement.lang = locale;
}

/** The owners', payments' and admins' messages in the page's language, loaded before such a page draws. */
export async function loadManageCatalog(): Promise<void> {
  manageWanted = true;
  const locale = isLocale(i18n.locale) ? i18n.locale : startLocale();
  await load(locale, true);
}
