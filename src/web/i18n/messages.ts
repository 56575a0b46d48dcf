import { messageCode, openEndedMessage } from '../../shared/error-codes';
import type { MessageId } from './catalogs/index';
import { useT, type Translate } from './use-t';

/**
 * A message the API or a shared schema wrote in English (the spec's wording), in the page's
 * language: found by its stable code in the `errors` catalog (`error.<code>`). A text of no known
 * code (already translated by the caller, or a server newer than this page) is shown as it is.
 */
export function translateMessage(t: Translate, text: string): string {
  const code = messageCode(text);
  if (code) return t(`error.${code}` as MessageId);
  const open = openEndedMessage(text);
  return open ? `${t(`error.${open.code}` as MessageId)} ${open.rest}` : text;
}

/** {@link translateMessage} with the page's language. */
export function useMessageText(): (text: string) => string {
  const { t } = useT();
  return (text) => translateMessage(t, text);
}
