import type { Server } from '../../../../shared/schemas/server';
import { SelectField } from '../../../components/select-field';
import { useT } from '../../../i18n/use-t';

/** Picks one of the owner's servers; preselected when there is only one. */
export function ServerSelect({
  label,
  servers,
  value,
  onChange,
}: {
  label: string;
  servers: readonly Server[];
  value: string;
  onChange: (id: string) => void;
}) {
  const { t } = useT();
  const options = [{ value: '', label: t('payments.serverSelect.placeholder') }, ...servers.map((s) => ({ value: s.id, label: s.name }))];
  return <SelectField label={label} options={options} value={value} onChange={(e) => onChange(e.target.value)} />;
}
