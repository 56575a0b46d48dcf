import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { localizedPageFile } from '../../../scripts/prerender.mjs';
import { DEFAULT_LOCALE, LOCALES, isLocale, type Locale } from '../../shared/i18n/locales';
import { MSG } from '../../shared/messages';

/**
 * The built pages in each language (docs/decisions/054-languages.md): their copies per language,
 * the headers saying what a page varies by, each language's manifest and catalog chunk.
 */

export const VARIES_BY_LANGUAGE = 'Accept-Encoding, Accept-Language, Cookie';

/** Something for each language. */
export function mapLocales<T>(make: (locale: Locale) => T): Record<Locale, T> {
  return Object.fromEntries(LOCALES.map((locale) => [locale, make(locale)])) as Record<Locale, T>;
}

/**
 * A built page in every language: the build's copy for it (`index.de.html`), else the English one
 * marked with the language (a build before languages). Pages in a language other than English link
 * its app manifest.
 */
export function localizedTemplates(webDist: string, file: string): Record<Locale, { head: string; tail: string }> {
  return mapLocales((locale) => {
    const own = path.join(webDist, localizedPageFile(file, locale));
    const template = pageTemplate(fs.existsSync(own) ? own : path.join(webDist, file));
    if (locale === DEFAULT_LOCALE) return template;
    const head = template.head
      .replace(/<html lang="[^"]*"/, `<html lang="${locale}"`)
      .replace('href="/manifest.webmanifest"', `href="/manifests/${locale}.webmanifest"`);
    return { head, tail: template.tail };
  });
}

/** `/manifests/<language>.webmanifest`: the built manifest with the app's description and language. */
export function serveManifests(app: FastifyInstance, webDist: string, describe: (locale: Locale) => string): void {
  const file = path.join(webDist, 'manifest.webmanifest');
  if (!fs.existsSync(file)) return;
  const base = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const bodies = mapLocales((locale) => JSON.stringify({ ...base, description: describe(locale), lang: locale }));
  app.get<{ Params: { file: string } }>('/manifests/:file', { schema: { hide: true } }, (request, reply) => {
    const locale = /^(.+)\.webmanifest$/.exec(request.params.file)?.[1];
    if (!isLocale(locale)) return reply.code(404).send({ error: MSG.notFound });
    return reply.header('cache-control', 'no-cache').type('application/manifest+json').send(bodies[locale]);
  });
}

/** Each language's catalog chunk, written at build (scripts/route-preloads.mjs). */
export function catalogPreloads(webDist: string): Partial<Record<Locale, string[]>> {
  const file = path.join(webDist, 'catalog-preloads.json');
  if (!fs.existsSync(file)) return {};
  const read = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string[]>;
  return Object.fromEntries(
    Object.entries(read)
      .filter(([locale]) => isLocale(locale))
      .map(([locale, files]) => [locale, files.filter((href) => /^\/assets\/[\w.-]+\.js$/.test(href))]),
  );
}

/** A built HTML page split where the per-path title, description and Open Graph tags go (end of head). */
export function pageTemplate(file: string): { head: string; tail: string } {
  const [head = '', tail = ''] = fs
    .readFileSync(file, 'utf8')
    .replace(/<title>[\s\S]*?<\/title>\s*/, '')
    .replace(/<meta name="description"[^>]*>\s*/, '')
    .split(/(?=<\/head>)/i);
  return { head, tail };
}

/** A page's headers per language: one object each, so the front cache keeps its header lists (see FrontAnswer.headers). */
export const LANGUAGE_HEADERS: Record<Locale, Readonly<Record<string, string>>> = mapLocales((locale) =>
  Object.freeze({ vary: VARIES_BY_LANGUAGE, 'content-language': locale }),
);
