import { describe, expect, it } from 'vitest';
import { ERROR_MESSAGES } from '../src/shared/error-codes';
import {
  CATALOG_TREES,
  OTHER_LOCALES,
  catalogProblems,
  missingPluralCases,
  readCatalogs,
  untranslatedShare,
} from './helpers/catalog-check';

describe('message catalogs are complete in every language', () => {
  for (const tree of CATALOG_TREES) {
    for (const locale of OTHER_LOCALES) {
      it(`${tree}: ${locale} has every English key, no other, with the same arguments and tags`, () => {
        expect(catalogProblems(tree, locale)).toEqual([]);
      });

      it(`${tree}: ${locale} is translated, not copied from English`, () => {
        // Some messages are the same in both (a brand, "Discord", "OK"): a namespace may share a
        // few, never most.
        const copied = untranslatedShare(tree, locale).filter(({ same, total }) => total >= 8 && same / total > 0.25);
        expect(copied).toEqual([]);
      });
    }

    it(`${tree}: English plurals have English's categories`, () => {
      const problems = Object.entries(readCatalogs(tree, 'en')).flatMap(([ns, catalog]) =>
        Object.entries(catalog).flatMap(([key, text]) => missingPluralCases(text, 'en').map((lack) => `${ns}: ${key}: ${lack}`)),
      );
      expect(problems).toEqual([]);
    });
  }

  it('the errors catalog has every message the API sends word for word, in its English wording', () => {
    const { errors = {} } = readCatalogs('src/web/i18n/catalogs', 'en');
    const expected = Object.fromEntries(Object.entries(ERROR_MESSAGES).map(([code, text]) => [`error.${code}`, text]));
    expect(errors).toEqual(expected);
  });

  it('finds what it is for: a missing key, an extra key, a changed argument, a missing Polish plural form', async () => {
    const { shapeOf } = await import('./helpers/catalog-check');
    expect(shapeOf('{count, plural, one {# server} other {# servers}} by <b>{name}</b>')).toEqual(['<b>', '{count, plural}', '{name}']);
    expect(shapeOf('{n} serwerów')).not.toEqual(shapeOf('{count} serwerów'));
    expect(missingPluralCases('{count, plural, one {# serwer} other {# serwerów}}', 'pl')).toEqual(['count: few', 'count: many']);
    expect(missingPluralCases('{count, plural, one {# serwer} few {# serwery} many {# serwerów} other {# serwera}}', 'pl')).toEqual([]);
  });
});
