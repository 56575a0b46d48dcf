import fs from 'node:fs';
import path from 'node:path';
import { parse, type Token } from '@messageformat/parser';
import { LOCALES, type Locale } from '../../src/shared/i18n/locales';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** The catalog trees: the web app's and the server's (e-mails, push, page metadata). */
export const CATALOG_TREES = ['src/web/i18n/catalogs', 'src/server/i18n/catalogs'] as const;

export type Catalog = Record<string, string>;

/** Every namespace file of a tree for a language: namespace → messages. */
export function readCatalogs(tree: string, locale: Locale): Record<string, Catalog> {
  const dir = path.join(ROOT, tree, locale);
  const out: Record<string, Catalog> = {};
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    out[file.replace(/\.json$/, '')] = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as Catalog;
  }
  return out;
}

/** What a message's words must keep in every language: its arguments, plural arguments and markup tags. */
export function shapeOf(message: string): string[] {
  const found = new Set<string>();
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'content') {
        for (const tag of token.value.matchAll(/<\/?([a-zA-Z0-9]+)\s*\/?>/g)) found.add(`<${tag[1]}>`);
      } else if (token.type === 'argument') found.add(`{${token.arg}}`);
      else if (token.type === 'function') found.add(`{${token.arg}, ${token.key}}`);
      else if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
        found.add(`{${token.arg}, ${token.type}}`);
        for (const c of token.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return [...found].sort();
}

/** Plural categories a message's plurals lack for a language (Polish needs one, few, many, other). */
export function missingPluralCases(message: string, locale: Locale): string[] {
  const needed = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
  const missing: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'plural') {
        const keys = new Set(token.cases.map((c) => c.key));
        for (const category of needed) if (!keys.has(category)) missing.push(`${token.arg}: ${category}`);
      }
      if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') for (const c of token.cases) walk(c.tokens);
    }
  };
  walk(parse(message));
  return missing;
}

/**
 * Every problem of a language's catalogs against English: a key English lacks or has, a message
 * that does not parse, other arguments or tags, a plural without the language's categories, an
 * empty message.
 */
export function catalogProblems(tree: string, locale: Locale): string[] {
  const english = readCatalogs(tree, 'en');
  const other = readCatalogs(tree, locale);
  const problems: string[] = [];
  const namespaces = new Set([...Object.keys(english), ...Object.keys(other)]);
  for (const ns of namespaces) {
    const en = english[ns];
    const tr = other[ns];
    if (!en || !tr) {
      problems.push(`${locale}/${ns}.json: namespace ${en ? 'missing' : 'not in English'}`);
      continue;
    }
    for (const key of Object.keys(en)) if (!(key in tr)) problems.push(`${locale}/${ns}.json: lacks "${key}"`);
    for (const key of Object.keys(tr)) if (!(key in en)) problems.push(`${locale}/${ns}.json: has "${key}", which English lacks`);
    for (const [key, text] of Object.entries(tr)) {
      const source = en[key];
      if (typeof text !== 'string' || !text.trim()) {
        problems.push(`${locale}/${ns}.json: "${key}" is empty`);
        continue;
      }
      try {
        if (source !== undefined) {
          const want = shapeOf(source).join(' ');
          const got = shapeOf(text).join(' ');
          if (want !== got) problems.push(`${locale}/${ns}.json: "${key}" has [${got}], English has [${want}]`);
        }
        for (const lack of missingPluralCases(text, locale)) problems.push(`${locale}/${ns}.json: "${key}" plural lacks ${lack}`);
      } catch (error) {
        problems.push(`${locale}/${ns}.json: "${key}" does not parse: ${(error as Error).message}`);
      }
    }
  }
  return problems;
}

/** Messages of a language identical to English, per namespace: a catalog copied rather than translated shows here. */
export function untranslatedShare(tree: string, locale: Locale): Array<{ ns: string; same: number; total: number }> {
  const english = readCatalogs(tree, 'en');
  const other = readCatalogs(tree, locale);
  return Object.entries(english).map(([ns, en]) => {
    const entries = Object.entries(en);
    const same = entries.filter(([key, text]) => other[ns]?.[key] === text).length;
    return { ns, same, total: entries.length };
  });
}

export const OTHER_LOCALES = LOCALES.filter((l) => l !== 'en');
