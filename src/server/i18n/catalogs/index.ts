import type { Locale } from '../../../shared/i18n/locales';
import de from './de/index';
import en from './en/index';
import es from './es/index';
import fr from './fr/index';
import pl from './pl/index';
import ptBR from './pt-BR/index';
import tr from './tr/index';

/** Every message the server writes (e-mails, push notifications, page metadata), by id. */
export type ServerMessageId = keyof typeof en;

/** The server's catalogs: ICU MessageFormat text by message id, per language. */
export const SERVER_CATALOGS: Record<Locale, Readonly<Record<string, string>>> = { en, 'pt-BR': ptBR, es, fr, de, pl, tr };
