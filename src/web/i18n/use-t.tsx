import { Trans, useLingui } from '@lingui/react';
import type { ReactElement } from 'react';
import type { Locale } from '../../shared/i18n/locales';
import type { MessageId } from './catalogs/index';

export type MessageValues = Record<string, string | number | Date | null | undefined>;

/** Translates a message id of the catalogs into the page's language: `t('follow.count', { count })`. */
export type Translate = (id: MessageId, values?: MessageValues) => string;

/** The page's language and its translate function; a component using it redraws when the language changes. */
export function useT(): { t: Translate; locale: Locale } {
  const { i18n, _ } = useLingui();
  return { t: _ as Translate, locale: i18n.locale as Locale };
}

/**
 * A message with markup inside it: `<T id="terms.agree" components={{ link: <Link to="/terms" /> }} />`
 * for "I agree to the <link>terms</link>". The catalog keeps the words and their order per language.
 */
export function T({ id, values, components }: { id: MessageId; values?: MessageValues; components?: Record<string, ReactElement> }) {
  return <Trans id={id} values={values} components={components} />;
}
