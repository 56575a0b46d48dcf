import { FormMessage } from '../../../components/form-message';
import { Panel } from '../../../components/panel';
import type { MessageId } from '../../../i18n/catalogs/index';
import { useT } from '../../../i18n/use-t';
import { errorText } from '../../../lib/api-client';
import { useSettings, type Toggles } from '../api/get-settings';
import { useUpdateSettings } from '../api/update-settings';
import { LoadState } from './load-state';

const TOGGLES: ReadonlyArray<{ key: keyof Toggles; label: MessageId; help: MessageId }> = [
  { key: 'enableBoosting', label: 'admin.toggles.boosting.label', help: 'admin.toggles.boosting.help' },
  { key: 'enableReviews', label: 'admin.toggles.reviews.label', help: 'admin.toggles.reviews.help' },
  { key: 'maintenanceMode', label: 'admin.toggles.maintenance.label', help: 'admin.toggles.maintenance.help' },
];

/** The feature toggles, stored and enforced by the server: each switch saves at once. */
export function TogglesPanel() {
  const { t } = useT();
  const settings = useSettings();
  const update = useUpdateSettings();
  return (
    <Panel id="toggles-heading" title={t('admin.toggles.title')} description={t('admin.toggles.description')}>
      {!settings.data ? (
        <LoadState pending={settings.isPending} error={settings.isError} failed="admin.load.settings" />
      ) : (
        <ul className="flex flex-col divide-y divide-white/5">
          {TOGGLES.map((toggle) => {
            const on = settings.data[toggle.key];
            return (
              <li key={toggle.key} className="flex items-center justify-between gap-4 py-3">
                <div className="min-w-0">
                  <p className="font-medium text-white">{t(toggle.label)}</p>
                  <p className="text-sm text-slate-400">{t(toggle.help)}</p>
                </div>
                <button
                  type="button"
                  role="switch"
                  aria-checked={on}
                  aria-label={t(toggle.label)}
                  disabled={update.isPending}
                  onClick={() => update.mutate({ [toggle.key]: !on })}
                  className={`relative h-7 w-12 shrink-0 rounded-full transition disabled:opacity-60 ${
                    on ? (toggle.key === 'maintenanceMode' ? 'bg-amber-500' : 'bg-emerald-500') : 'bg-white/15'
                  }`}
                >
                  <span
                    aria-hidden="true"
                    className={`absolute top-1 size-5 rounded-full bg-white shadow transition-[left] ${on ? 'left-6' : 'left-1'}`}
                  />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <FormMessage error={update.isError ? errorText(update.error, t('admin.toggles.failed')) : null} />
    </Panel>
  );
}
