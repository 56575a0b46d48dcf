import { SelectField } from '../../../components/select-field';
import type { MyServer } from '../api/get-my-servers';

/** Picks one of the owner's servers; preselected when there is only one. */
export function ServerSelect({
  label,
  servers,
  value,
  onChange,
}: {
  label: string;
  servers: readonly MyServer[];
  value: string;
  onChange: (id: string) => void;
}) {
  const options = [{ value: '', label: 'Choose a server…' }, ...servers.map((s) => ({ value: s.id, label: s.name }))];
  return <SelectField label={label} options={options} value={value} onChange={(e) => onChange(e.target.value)} />;
}
