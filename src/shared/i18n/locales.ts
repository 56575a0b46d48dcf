/**
 * The site's languages, and how a visitor's language is chosen: a pinned `?lang=`, a signed-in
 * user's saved choice, a choice saved on the device, the browser's `Accept-Language`, else English
 * (docs/decisions/054-languages.md).
 */
export const LOCALES = ['en', 'pt-BR', 'es', 'fr', 'de', 'pl', 'tr'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en';

/** Each language by its own name, as the switcher lists it. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  'pt-BR': 'Português (Brasil)',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  pl: 'Polski',
  tr: 'Türkçe',
};

/** The cookie that carries a device's choice, so the server renders pages in it before any script runs. */
export const LOCALE_COOKIE = 'rp_lang';
/** The query parameter that pins a page's language (search engines, shared links). */
export const LOCALE_PARAM = 'lang';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * One of our languages for a language tag, or null: exact (any case) first, then by the primary
 * language, so `pt`, `pt-PT` and `PT-br` are Português (Brasil) and `de-AT` is Deutsch.
 */
export function matchLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const wanted = tag.trim().toLowerCase().replace(/_/g, '-');
  if (!wanted || wanted.length > 35) return null;
  for (const locale of LOCALES) if (locale.toLowerCase() === wanted) return locale;
  const primary = wanted.split('-')[0];
  for (const locale of LOCALES) if (locale.toLowerCase().split('-')[0] === primary) return locale;
  return null;
}

/**
 * The best of our languages for an `Accept-Language` header, by its quality values (a missing `q`
 * is 1; `q=0` means "not this"; ties keep the header's order), or null when none is ours.
 */
export function negotiateLocale(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked: Array<{ locale: Locale; q: number; at: number }> = [];
  // Bounded: a header is a few tags; a thousand-entry one is not a browser's.
  header
    .slice(0, 1000)
    .split(',')
    .slice(0, 40)
    .forEach((part, at) => {
      const [tag = '', ...params] = part.split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      if (!Number.isFinite(q) || q <= 0 || q > 1) return;
      const locale = matchLocale(tag);
      if (locale) ranked.push({ locale, q, at });
    });
  ranked.sort((a, b) => b.q - a.q || a.at - b.at);
  return ranked[0]?.locale ?? null;
}
