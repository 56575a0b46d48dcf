import type { I18n, Messages } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { LOCALES, type Locale } from '../../shared/i18n/locales';
import { CATALOG_LOADERS, MANAGE_CATALOG_LOADERS } from './catalogs/index';
import { createI18n } from './runtime';

/**
 * Each language's Lingui instance for rendering in Node (the server's page renderer, the build's
 * prerender, tests), its catalog compiled once: in the browser the build compiles catalogs instead,
 * so the compiler never ships to a phone.
 */
const instances = new Map<Locale, Promise<I18n>>();

export function nodeI18n(locale: Locale): Promise<I18n> {
  let made = instances.get(locale);
  if (!made) {
    made = Promise.all([CATALOG_LOADERS[locale](), MANAGE_CATALOG_LOADERS[locale]()]).then(([app, manage]) =>
      createI18n(locale, compileCatalog({ ...(app.default as Record<string, string>), ...(manage.default as Record<string, string>) })),
    );
    instances.set(locale, made);
  }
  return made;
}

/** Every language's instance, loaded (a renderer that must answer synchronously loads them first). */
export async function loadAllNodeI18n(): Promise<Record<Locale, I18n>> {
  const loaded = await Promise.all(LOCALES.map((locale) => nodeI18n(locale)));
  return Object.fromEntries(LOCALES.map((locale, at) => [locale, loaded[at]])) as Record<Locale, I18n>;
}

function compileCatalog(raw: Record<string, string>): Messages {
  return Object.fromEntries(Object.entries(raw).map(([id, text]) => [id, compileMessage(text)]));
}
