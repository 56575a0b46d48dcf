import type { Server } from '../../../../shared/schemas/server';
import { SelectField } from '../../../components/select-field';

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
  const options = [{ value: '', label: 'Choose a server…' }, ...servers.map((s) => ({ value: s.id, label: s.name }))];
  return <SelectField label={label} options={options} value={value} onChange={(e) => onChange(e.target.value)} />;
}
