import type { MessageId } from '../../../i18n/catalogs/index';
import type { Translate } from '../../../i18n/use-t';

/** The roles a person picks from when making an account, with what each one is for. */
const ROLE_OPTIONS: ReadonlyArray<{ value: string; label: MessageId }> = [
  { value: '', label: 'auth.role.choose' },
  { value: 'player', label: 'auth.role.player' },
  { value: 'server_owner', label: 'auth.role.serverOwner' },
];

/** {@link ROLE_OPTIONS} with their labels in the page's language, for a `SelectField`. */
export function roleOptions(t: Translate): Array<{ value: string; label: string }> {
  return ROLE_OPTIONS.map(({ value, label }) => ({ value, label: t(label) }));
}
